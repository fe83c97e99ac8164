//! CPU-cycle cost of the one frame that can overrun: the frame whose logic runs play state 5
//! (lines, level, points), counted per instruction from the cartridge's code; decides lag frames.
//!
//! Why only that frame: it is the only game-logic routine with a loop that grows with the
//! level (`addLineClearPoints` runs `level + 1` times). Every other frame costs a fixed few
//! thousand cycles. When the NMI comes before the main loop has cleared
//! `verticalBlankingInterval` (in `updateAudioWaitForNmiAndResetOamStaging`), the flag set by
//! that NMI is lost and the loop waits for the next one: that frame runs only the NMI.
//!
//! The figures are NMOS 6502 cycles per instruction along the path taken (taken branch +1,
//! all loops and tables of these routines stay inside one page), counted on the public
//! disassembly of the cartridge (CelestialAmber/TetrisNESDisasm, `main.asm`); the names below
//! are its labels. `updateAudio`'s cost depends on the sound engine's state, which the game
//! state the model keeps does not hold: a caller with the cartridge's RAM counts it
//! ([`audio::audio_cycles`], a range, [`audio_lag`]); without it the frame gets a fixed
//! allowance, [`AUDIO_ALLOWANCE`] (docs/crash.md).

pub mod audio;

/// CPU cycles between two NMIs on NTSC: 341 × 262 / 3 PPU dots.
pub const FRAME_BUDGET: f64 = 341.0 * 262.0 / 3.0;

/// Interrupt sequence that enters the NMI handler.
const NMI_ENTRY: u32 = 7;
/// The NMI when it runs the last line-clear animation step (`render_mode_play_and_demo` →
/// `updateLineClearingAnimation` with `rowY` 4 → 5 and no completed row), nothing else to
/// redraw, then `copyOamStagingToOam` (the OAM DMA, 513), `frameCounter`, the RNG step with its
/// first branch taken, the scroll, and `pollControllerButtons` (two 8-bit reads).
const NMI_LINE_CLEAR_BASE: u32 = 1949;
/// Each completed row blanks its two next cells (`@updateVRAM`: two PPU addresses, two writes).
const NMI_PER_COMPLETED_ROW: u32 = 94;
/// One `copyPlayfieldRowToVRAM` call that returns at once (`vramRow` ≥ $15: `jsr`, `ldx`,
/// `cpx`, `bpl` taken, `rts`).
const NMI_ROW_COPY_IDLE: u32 = 20;
/// The NMI with the playfield copy path, without its four `copyPlayfieldRowToVRAM` calls.
const NMI_ROW_COPY_BASE: u32 = 1854 - 4 * NMI_ROW_COPY_IDLE;
/// One call that copies a row (ten `lda (playfieldAddr),y` / `sta PPUDATA`).
const NMI_PER_COPIED_ROW: u32 = 237;
/// The same call when it finishes the copy (`cmp #$14` / `bmi` not taken, `vramRow` = $20).
const NMI_LAST_ROW_EXTRA: u32 = 4;
/// `generateNextPseudorandomNumber`: `beq` not taken plus `sec` when the feedback bit is 1.
const NMI_RNG_BIT_EXTRA: u32 = 1;
/// Tetris flash in `@renderTetrisFlashAndSound` (`completedLines` = 4 on a frame counter ≡ 0
/// mod 4): the extra tests, plus the sound-effect write when the counter is ≡ 0 mod 8.
const NMI_TETRIS_FLASH: u32 = 16;
const NMI_TETRIS_SOUND: u32 = 5;

/// After the NMI up to the state-5 routine and from its end to the `sta
/// verticalBlankingInterval` that can miss the NMI: the spin loop's exit and `memset_page` of
/// the OAM staging page (2,877; 256 × 11 for the fill), and the main loop's passes through
/// `gameModeState` 2-8 with their `switch_s_plus_2a` dispatches, `changeCHRBank0/1`,
/// `makePlayer1Active` and `savePlayer1State` (32-byte copies), `stageSpriteForCurrentPiece`,
/// `stageSpriteForNextPiece` (four sprites), and the `jsr updateAudio_jmp`, `lda`, `sta` around
/// the audio update (3,274).
const LOGIC_FIXED: u32 = 2877 + 3274;
/// `jsr updateMusicSpeed` and its set-up (`ldx`, `lda multBy10Table,x`, `tay`, `ldx`).
const MUSIC_SPEED_BASE: u32 = 6 + 10;
/// One empty cell of row 5 in `@checkForBlockInRow`.
const MUSIC_SPEED_PER_EMPTY: u32 = 16;
/// The first block found (`lda`, `cmp`, `bne` taken) and `@foundBlockInRow` with `allegro`
/// already set (`bne @ret` taken, `rts`).
const MUSIC_SPEED_FOUND: u32 = 10 + 12;
/// Row 5 empty: the last cell's `bne` falls through, `allegro` already clear (`beq @ret`).
const MUSIC_SPEED_EMPTY_END: u32 = 3 + 3 + 6 - 1;

/// `playState_updateLinesAndStatistics` with no line: `lda completedLines`, `bne`, `jmp`.
pub const LINES_NONE: u32 = 8;
/// With lines: the statistics counter (no BCD carry), the render flag, `gameType`, `ldx`.
pub const LINES_SETUP: u32 = 46;
/// `incrementLines`: `inc`, `lda`, `and`, `cmp` and `bmi` taken (ones digit stays below 10).
pub const LINE_INC: u32 = 15;
/// Ones digit reaches 10: the `adc #$06` fix-up, `bcc` taken (no hundreds carry).
pub const LINE_INC_TENS: u32 = 31;
/// Tens digit reaches 10 too: the hundreds byte is incremented.
pub const LINE_INC_HUNDREDS: u32 = 43;
/// `L9BC7` when the ones digit is not 0 (`bne L9BFB` taken).
pub const LINE_NO_CHECK: u32 = 8;
/// `L9BD0`: the 16-bit shift of the BCD count and the compare, no level-up (`bpl` taken).
pub const LINE_CHECK: u32 = 71;
/// The same with a level-up (`inc levelNumber`, the sound effect, the render flag).
pub const LINE_LEVEL_UP: u32 = 89;
/// `dex` and `bne incrementLines` (the last line's `bne` is one cycle less).
pub const LINE_LOOP: u32 = 5;

/// `addHoldDownPoints` with fewer than 2 points (`bmi` taken).
pub const HOLD_NONE: u32 = 8;
/// With points: the `dec`/`adc` into the score, both tests, the render flag.
pub const HOLD_BASE: u32 = 24 + 7 + 8;
/// Low-nibble fix-up taken (`bcc` not taken) instead of skipped.
pub const HOLD_NIBBLE: (u32, u32) = (3, 12);
/// High-nibble carry into the next byte, taken instead of skipped.
pub const HOLD_CARRY: (u32, u32) = (3, 14);

/// `addLineClearPoints` before its loop.
pub const POINTS_SETUP: u32 = 16;
/// `addLineClearPoints` after its loop.
pub const POINTS_END: u32 = 24;
/// The loop's five tests: (skipped, taken) cycles for the byte-0 carry, the byte-1 low and
/// high fix-ups, the byte-2 fix-up and the cap; then `dec generalCounter` / `bne` (8, last 7).
pub const POINTS_BYTE0: (u32, u32) = (24, 35);
/// Byte-1 low-nibble fix-up: (skipped, taken) cycles.
pub const POINTS_BYTE1_LOW: (u32, u32) = (21, 30);
/// Byte-1 high-nibble fix-up: (skipped, taken) cycles.
pub const POINTS_BYTE1_HIGH: (u32, u32) = (10, 24);
/// Byte-2 fix-up: (skipped, taken) cycles.
pub const POINTS_BYTE2: (u32, u32) = (10, 19);
/// The cap at 999,999: (skipped, taken) cycles.
pub const POINTS_CAP: (u32, u32) = (10, 20);
/// `dec generalCounter` / `bne` per pass (the last pass 7).
pub const POINTS_LOOP: u32 = 8;

/// Allowance for `updateAudio` (sound effects and the music engine), which is not counted
/// (its quiet path alone counts 993), on frames that score lines: the line-clear sound effect
/// is still running. Set from the traces, not counted: every traced clear frame with counted
/// logic ≤ 27,972 fits (a tetris in `p150-1`, doubles to 27,938) and every one from 28,054
/// lags (nestor's game, a single at level 142, t=127,271); the edge is put in the middle.
pub const AUDIO_ALLOWANCE: u32 = 1768;

/// The same for frames without a line (no line-clear sound effect). The traces do not
/// separate them by the counted part alone (levels 222-231: both outcomes from 27,715 to
/// 28,378, the music state decides); this edge (28,285, middle of the range with the fewest
/// misses: 6 of 1,777 frames) is the best single value.
pub const AUDIO_ALLOWANCE_NO_LINE: u32 = 1496;

/// Where the next NMI lands in a play-state-5 frame whose logic overruns it, read from the
/// logic's counted cycles without the audio allowance ([`frame_cycles`] − [`AUDIO_ALLOWANCE`]).
///
/// The audio update runs after the logic (in `updateAudioWaitForNmiAndResetOamStaging`), so it
/// does not move the NMI inside the logic: where it lands depends on the counted part alone.
/// The band edges are measured, not counted: on the 89 real-cartridge traces past level 150
/// (`/work/shared/traces/c*.jsonl.gz`, `past-155/`) every state-5 frame's counted cycles sorted
/// the frame-end `game_mode_state` ($A7) without exception (docs/crash.md has the table); each
/// edge is the middle of the gap between the last value seen on one side and the first on the
/// other (gaps 40-200 cycles wide).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Landing {
    /// The logic reaches `gameModeState` 8's `sta gameModeState` (2) before the NMI: the frame
    /// ends with the state updated; it lags only if the audio update overruns too.
    Done,
    /// The NMI lands in the main loop's passes through `gameModeState` 5-8 (the value shown
    /// at the frame end), after `savePlayer1State`: the player block is already updated. Each
    /// pass goes through `switch_s_plus_2a` twice: the crash windows are here.
    Dispatch(u8),
    /// The NMI lands in `gameModeState` 4 after `savePlayer1State` (sprite staging, the
    /// `inc gameModeState`): block updated, $A7 still 4. Long "wrapped counter" lags seen here.
    AfterSave,
    /// The NMI lands in `gameModeState` 4 before `savePlayer1State` (inside the points loop or
    /// just after): the player block at $60 still shows the frame's start.
    BeforeSave,
}

/// Upper edges (inclusive) of the [`Landing`] bands, in counted logic cycles (measured: last
/// value seen below / first above): `Done` ≤ 29,676 (29,668 in `l154-lag-frame` / 29,685); $A7 = 8 ≤ 29,817
/// (29,774 / 29,860); 7 ≤ 30,022 (30,003 / 30,042); 6 ≤ 30,154 (30,122 / 30,187); 5 ≤ 30,310
/// (30,268 / 30,352); `AfterSave` up to where `savePlayer1State` has copied the whole block
/// (its last byte, $60: [`saved_before_nmi`]); `BeforeSave` above, where RAM shows the bytes
/// the copy has reached with the frame's values and the others with its start.
pub const LANDING_EDGES: [u32; 6] = [
    29_676,
    29_817,
    30_022,
    30_154,
    30_310,
    SAVE_COPIED_COMPLETED_LINES - (0x76 - 0x60) * SAVE_BYTE_CYCLES,
];

/// The highest *L* at which `savePlayer1State` (copying $5F down to $40 into $7F-$60) has
/// copied `completedLines` ($76) when the NMI lands: measured, `p165-0` t=134 and `p165-1`
/// t=165 (31,084-31,085: copied, $70 not) against 31,127 (not copied).
pub const SAVE_COPIED_COMPLETED_LINES: u32 = 31_106;

/// Cycles per byte of `savePlayer1State`'s copy loop (`lda zp,x` 4, `sta zp,x` 4, `dex` 2,
/// `cpx #` 2, `bne` 3), counted on the disassembly.
pub const SAVE_BYTE_CYCLES: u32 = 15;

/// Whether `savePlayer1State` has copied player-block byte `addr` ($60-$76) when the NMI lands
/// after logic `logic`: the loop copies from $7F down, reaching $76 at
/// [`SAVE_COPIED_COMPLETED_LINES`] and each lower byte [`SAVE_BYTE_CYCLES`] later, so lower in
/// *L*. Checked on `cartridge-150/g9-late-save-163` t=11,399 (*L* 30,909: lines $70 copied,
/// `playState` $68 and the level not) and t=12,551 in the same game (30,949: $68 not copied).
pub fn saved_before_nmi(logic: u32, addr: u8) -> bool {
    let below = u32::from(0x76u8.saturating_sub(addr)) * SAVE_BYTE_CYCLES;
    logic <= SAVE_COPIED_COMPLETED_LINES.saturating_sub(below)
}

/// The lowest *L* at which the NMI lands inside `addLineClearPoints`'s loop before its last
/// `dec generalCounter`: measured, the middle of the gap between 31,765 (frame-end RAM: the
/// counter $A8 already 0) and 31,853 (one iteration left); every traced frame above it shows
/// the loop running at the frame's end.
pub const POINTS_LOOP_END: u32 = 31_809;

/// The value the NMI leaves in `generalCounter` ($A8), the points loop's counter, when it
/// lands inside that loop (*L* = `logic` ≥ [`POINTS_LOOP_END`]); `None` when it does not touch
/// it. Counted on the disassembly: the NMI draws the digits whose render flags this frame's
/// logic set before the loop, through `twoDigsToPPU`, which keeps its argument in
/// `generalCounter`; the last one drawn stays. Lines (`RENDER_LINES`, set on a clear): the
/// low byte of `player1_lines` ($70), which still shows the frame's start (`shown`); the
/// level (`RENDER_LEVEL`, a level-up): `updatePaletteForLevel` runs after it and leaves $20;
/// the score (`RENDER_SCORE`, set by `addHoldDownPoints` with 2 soft-drop rows or more):
/// `player1_score`'s low byte. The loop then runs until its `dec` reaches 0 again: from 0,
/// 255 more iterations (over 31,000 cycles), a second lag frame (`p216-0` t=65: 1,500 lines,
/// a double, frame-end $A8 32 then 41); from any BCD value (≤ $99) fewer than 153, which
/// finish in the next frame as before.
pub fn points_counter_clobbered(logic: u32, shown: ShownDigits, level_up: bool) -> Option<u8> {
    if logic < POINTS_LOOP_END {
        return None;
    }
    if shown.hold_down_points >= 2 {
        Some(shown.score_low)
    } else if level_up {
        Some(0x20)
    } else if shown.completed_lines > 0 {
        Some(shown.lines_low)
    } else {
        None
    }
}

/// The player-block bytes that decide which digits the NMI draws, as the frame's start shows
/// them (`ShownBlock` in the game state: the same bytes).
#[derive(Clone, Copy, Debug)]
pub struct ShownDigits {
    /// Soft-drop rows of the locking piece ($6F): 2 or more draw the score.
    pub hold_down_points: u8,
    /// Low byte of the BCD score ($73).
    pub score_low: u8,
    /// Rows the lock completed ($76): nonzero draws the lines.
    pub completed_lines: u8,
    /// Low byte of the BCD lines ($70).
    pub lines_low: u8,
}

/// Where the NMI lands for a frame whose logic (audio excluded) counts `logic_cycles`.
pub fn landing(logic_cycles: u32) -> Landing {
    let e = LANDING_EDGES;
    if logic_cycles <= e[0] {
        Landing::Done
    } else if logic_cycles <= e[1] {
        Landing::Dispatch(8)
    } else if logic_cycles <= e[2] {
        Landing::Dispatch(7)
    } else if logic_cycles <= e[3] {
        Landing::Dispatch(6)
    } else if logic_cycles <= e[4] {
        Landing::Dispatch(5)
    } else if logic_cycles <= e[5] {
        Landing::AfterSave
    } else {
        Landing::BeforeSave
    }
}

impl Landing {
    /// `gameModeState` ($A7) as RAM shows it at the end of the overrun frame.
    pub fn game_mode_state(self) -> u8 {
        match self {
            Landing::Done => 2,
            Landing::Dispatch(s) => s,
            Landing::AfterSave | Landing::BeforeSave => 4,
        }
    }
}

/// Picks the (skipped, taken) cost of a test.
#[inline]
pub const fn pick(costs: (u32, u32), taken: bool) -> u32 {
    if taken {
        costs.1
    } else {
        costs.0
    }
}

/// What this frame's NMI did, as far as its cost depends on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NmiWork {
    /// It ran the line-clear animation (instead of the playfield copy).
    pub line_clear: bool,
    /// Completed rows blanked (animation) or playfield rows copied (copy).
    pub rows: u8,
    /// The copy reached row 20 on this NMI.
    pub copy_done: bool,
    /// The RNG's feedback bit was 1 (one more cycle).
    pub rng_bit: bool,
    /// Tetris flash: `completedLines` = 4 on an animation frame; `Some(sound)`.
    pub tetris_flash: Option<bool>,
}

impl NmiWork {
    /// Cycles from the NMI's start to its `rti`.
    pub fn cycles(&self) -> u32 {
        let mut c = NMI_ENTRY;
        if self.line_clear {
            c += NMI_LINE_CLEAR_BASE + NMI_PER_COMPLETED_ROW * self.rows as u32;
        } else {
            c += NMI_ROW_COPY_BASE + NMI_PER_COPIED_ROW * self.rows as u32;
            c += (4 - self.rows.min(4) as u32) * NMI_ROW_COPY_IDLE;
            if self.copy_done {
                c += NMI_LAST_ROW_EXTRA;
            }
        }
        if self.rng_bit {
            c += NMI_RNG_BIT_EXTRA;
        }
        if let Some(sound) = self.tetris_flash {
            c += NMI_TETRIS_FLASH + if sound { NMI_TETRIS_SOUND } else { 0 };
        }
        c
    }
}

/// `updateMusicSpeed`: scans row 5 for its first block (`first_block`: column, or `None`).
pub fn music_speed_cycles(first_block: Option<u8>) -> u32 {
    match first_block {
        Some(c) => MUSIC_SPEED_BASE + MUSIC_SPEED_PER_EMPTY * c as u32 + MUSIC_SPEED_FOUND,
        None => MUSIC_SPEED_BASE + MUSIC_SPEED_PER_EMPTY * 10 + MUSIC_SPEED_EMPTY_END,
    }
}

/// The whole frame up to the point where a late NMI is lost, audio allowance included
/// (`lines`: lines the frame scores; the allowance differs with and without a clear).
pub fn frame_cycles(nmi: NmiWork, state5_cycles: u32, lines: u8) -> u32 {
    let audio = if lines == 0 {
        AUDIO_ALLOWANCE_NO_LINE
    } else {
        AUDIO_ALLOWANCE
    };
    logic_cycles(nmi, state5_cycles) + audio
}

/// `stageSpriteForNextPiece` with the preview shown minus hidden (`lda displayNextPiece`,
/// `bne` taken, `rts`: 12): its ten set-up instructions and `jmp` (28),
/// `loadSpriteIntoOamStaging`'s pointer set-up (30), four sprites of 83 and the `$FF` end (16)
/// make 406. Counted on the disassembly (no trace presses Select); TetrisGYM's
/// `src/modes/crash.asm` counts the same 394. Part of `LOGIC_FIXED`.
pub const PREVIEW_STAGING: u32 = 394;

/// The count with the preview shown ([`logic_cycles`]) at which the late NMI lands at the end
/// of the preview's staging: the lower edge of the measured confetti band
/// (`crash::CONFETTI_MODEL`). A larger count lands in or before the staging.
pub const PREVIEW_STAGING_END: u32 = 30_505;

/// The cycles the frame runs: `logic` (counted with the preview shown) less the staging when
/// the preview is hidden ($DF ≠ 0).
pub fn preview_run(logic: u32, hidden: bool) -> u32 {
    if hidden {
        logic - PREVIEW_STAGING
    } else {
        logic
    }
}

/// The count with the preview shown that puts the late NMI where it lands in a frame of
/// `logic` cycles (counted shown) run with the preview `hidden`: the NMI comes a fixed time
/// after the frame's start, so a frame that lands after the staging lands
/// [`PREVIEW_STAGING`] cycles later in the code when the staging is skipped, one that lands
/// before it lands at the same place. Every window of `crash` then applies unchanged.
pub fn preview_landing(logic: u32, hidden: bool) -> u32 {
    let run = preview_run(logic, hidden);
    if run < PREVIEW_STAGING_END {
        run
    } else {
        logic
    }
}

/// The frame's counted cycles without the audio allowance: what decides where a late NMI
/// lands inside the logic ([`landing`]).
pub fn logic_cycles(nmi: NmiWork, state5_cycles: u32) -> u32 {
    nmi.cycles() + LOGIC_FIXED + state5_cycles
}

/// Cycles between the end of the counted logic plus `updateAudio` ([`audio::audio_cycles`])
/// and the NMI that the frame must beat, as `(min, max)`: measured, not counted. On the 1,801
/// traced play-state-5 frames with RAM, every frame whose counted total (*L* + audio) plus 13
/// passes [`FRAME_BUDGET`] lagged and every one with 24 to spare fit; the two frames of
/// `p228-0` (t=698 lagged, t=949 fit) with the same *L* and the same audio count show that
/// some cycles vary from frame to frame (which instruction of the spin loop the frame's own
/// NMI came in on, the frame parity), so this is a range, not a value.
pub const AUDIO_OFFSET: (u32, u32) = (13, 24);

/// Whether a play-state-5 frame lags, given its counted logic *L* and the range of its audio
/// cost read from RAM: `(lags, undecided)`. Decided when the whole range falls on one side of
/// the frame's end; otherwise `undecided`, and `lags` is the allowance's answer
/// ([`frame_cycles`]) moved into the range, so that without a count the model keeps its old
/// behaviour.
pub fn audio_lag(logic: u32, audio: (u32, u32), lines: u8) -> (bool, bool) {
    let lo = logic + audio.0 + AUDIO_OFFSET.0;
    let hi = logic + audio.1 + AUDIO_OFFSET.1;
    if !lags(hi) {
        return (false, false);
    }
    if lags(lo) {
        return (true, false);
    }
    let allowance = if lines == 0 {
        AUDIO_ALLOWANCE_NO_LINE
    } else {
        AUDIO_ALLOWANCE
    };
    (lags((logic + allowance).clamp(lo, hi)), true)
}

/// True when the frame's logic is still running when the next NMI comes.
pub fn lags(cycles: u32) -> bool {
    cycles as f64 > FRAME_BUDGET
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nmi_costs_of_the_counted_paths() {
        let clear = NmiWork {
            line_clear: true,
            rows: 1,
            ..NmiWork::default()
        };
        assert_eq!(clear.cycles(), 7 + 2043);
        let copy = NmiWork {
            rows: 4,
            ..NmiWork::default()
        };
        assert_eq!(copy.cycles(), 7 + 2722);
        let idle = NmiWork::default();
        assert_eq!(idle.cycles(), 7 + 1854);
    }

    #[test]
    fn the_audio_count_decides_a_lag_only_when_its_whole_range_does() {
        // L = 27,715 (no line): the allowance says fit (29,211).
        assert!(!lags(27_715 + AUDIO_ALLOWANCE_NO_LINE));
        // An audio count of 2,100-2,120 puts every value past the frame's end.
        assert_eq!(audio_lag(27_715, (2_100, 2_120), 0), (true, false));
        // 1,400-1,450 keeps every value inside.
        assert_eq!(audio_lag(27_715, (1_400, 1_450), 0), (false, false));
        // 1,500-2,400 straddles the end: undecided, the allowance's answer (fit) kept.
        assert_eq!(audio_lag(27_715, (1_500, 2_400), 0), (false, true));
        // Edges: the frame's end is 29,780.67 cycles.
        assert_eq!(audio_lag(28_000, (1_756, 1_756), 0), (false, false));
        assert!(audio_lag(28_000, (1_757, 1_757), 0).1);
        assert!(audio_lag(28_000, (1_767, 1_767), 0).1);
        assert_eq!(audio_lag(28_000, (1_768, 1_768), 0), (true, false));
    }

    #[test]
    fn the_save_loop_copies_from_the_top_of_the_block_down() {
        // Measured frames: p165 (31,084-31,085) had copied $76 and not $70, 31,127 not $76;
        // b150 game 9 (30,909) $70 and not $68; p177 (30,880) $68.
        assert!(saved_before_nmi(31_085, 0x76) && !saved_before_nmi(31_084, 0x70));
        assert!(!saved_before_nmi(31_127, 0x76));
        assert!(saved_before_nmi(30_909, 0x70) && !saved_before_nmi(30_909, 0x68));
        assert!(saved_before_nmi(30_880, 0x68) && !saved_before_nmi(30_880, 0x64));
        // Fifteen cycles a byte, and the `AfterSave` band ends where the last byte is copied.
        assert!(saved_before_nmi(31_106 - 15, 0x75) && !saved_before_nmi(31_106 - 14, 0x75));
        assert!(saved_before_nmi(LANDING_EDGES[5], 0x60));
        assert!(!saved_before_nmi(LANDING_EDGES[5] + 1, 0x60));
        assert_eq!(landing(LANDING_EDGES[5] + 1), Landing::BeforeSave);
    }

    #[test]
    fn music_speed_scan() {
        assert_eq!(music_speed_cycles(None), 6 + 181);
        assert_eq!(music_speed_cycles(Some(0)), 6 + 32);
        assert_eq!(music_speed_cycles(Some(3)), 6 + 32 + 48);
    }
}
