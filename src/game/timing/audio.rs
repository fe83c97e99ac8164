//! `updateAudio`'s CPU cycles on one frame, read from the sound engine's RAM ($0680-$06FF):
//! exact where RAM fixes the path, a `(min, max)` range where the path reads music data.
//!
//! Counted on the public disassembly (CelestialAmber/TetrisNESDisasm, `main.asm`: `updateAudio`,
//! `updateSoundEffectSlot*`, `updateMusicFrame`), and checked instruction by instruction by
//! running that code in a 6502 emulator on the RAM of all 1,801 traced play-state-5 frames that
//! carry it: every exact count here equals the emulator's, every range holds it (docs/crash.md).
//! What RAM does not fix: a channel whose note ends on this frame reads its next instructions
//! from the music data in ROM (any number of bytes), and a volume envelope may have reached its
//! end byte ($FF in ROM, a shorter path); those give the range.

/// Offset of the engine's RAM block in work RAM; [`audio_cycles`] takes $0680-$06FF.
pub const AUDIO_RAM: usize = 0x680;
/// Length of the block.
pub const AUDIO_RAM_LEN: usize = 0x80;

/// `updateAudio` up to its first `jsr` (APU frame counter, pause test, the two clears), the
/// three sound-effect slots that are idle in play (slots 2, 0 and 3: no init, nothing playing),
/// and `updateMusic`'s head with `updateMusicFrame`'s set-up (`initSq12IfTrashedBySoundEffect`
/// with nothing to restore): 30 + 41 + 38 + 41 + 54.
const FIXED: u32 = 30 + 41 + 38 + 41 + 54;
/// Slot 1 (the game's sound effects) idle: the slot-4 test, the shared dispatcher's two tests.
const SLOT1_IDLE: u32 = 47;
/// Slot 1 playing effect 7 (lock) on a frame that only advances its frame counter.
const SLOT1_ADVANCE_LOCK: u32 = 262;
/// `computeSoundEffMethod` walks the effect table two bytes a step: 18 cycles per effect id.
const SLOT1_PER_ID: u32 = 18;
/// Extra cycles on the frame an effect's counter wraps (its next step), by effect: line
/// completed (10) and line clearing (9) load four APU bytes and a table entry; level up (6)
/// writes the next pitch.
const STEP_LINE_COMPLETED: u32 = 165;
const STEP_LINE_CLEARING: u32 = 162;
const STEP_LEVEL_UP: u32 = 34;
/// The line-completed effect's last step (`soundEffectSlot1_lineClearing_vol` reaches its
/// terminating 0 at secondary counter 8): the step, then `soundEffectSlot1Playing_stop`.
const STEP_LINE_COMPLETED_LAST: u32 = 192;
const LINE_COMPLETED_LAST_SECONDARY: u8 = 8;
/// `soundEffectSlot1_levelUp_lo` has 9 pitches, then its terminating 0.
const LEVEL_UP_STEPS: u8 = 9;
/// A stop sets `resetSq12ForMusic` to 1: `updateMusicFrame` rewrites SQ1's three registers.
const RESET_SQ1: u32 = 32;
/// A stop also clears `musicChanInhibit` for SQ1: its volume write runs again.
const VOL_WRITE: u32 = 9;
/// The lock (7) or shift (3) effect's stop: `advanceAudioSlotFrame`'s wrap and
/// `soundEffectSlot1Playing_stop` (five writes, `inc resetSq12ForMusic`).
const STEP_STOP: (u32, u32) = (20, 35);

/// The cycles of one music channel's frame, by path (`updateMusicFrame_updateChannel`).
struct Channel {
    /// Inside its note: the dispatch, `dec musicChanNoteDurationRemaining`, the calls to
    /// `setChanVol` and `setChanLo`, the loop (SQ1, SQ2; their two routines added).
    run: u32,
    /// The triangle's whole frame inside its note (both routines return at once).
    tri: u32,
    /// The noise channel's whole frame inside its note, with `updateAudio`'s tail (the loop
    /// that clears the five init slots, `rts`).
    noise: u32,
    /// `setChanLo` with `musicChanControl & $E0` = 0 (no pitch effect: every traced frame),
    /// and with one (its table walk: not traced, a range).
    set_lo: u32,
    set_lo_effect: (u32, u32),
    /// `setChanVol` on a rest (`musicChanNote` = 2): mute and advance.
    vol_rest: u32,
    /// `setChanVol` with envelope `n` = control & $1F: `vol_base + vol_per_envelope * n`
    /// (the loop finding the envelope, the table byte, the high nibble's four shifts on an
    /// even step), `vol_odd` less on an odd step; SQ1 or SQ2 written unless inhibited
    /// ([`VOL_WRITE`]); up to `vol_end_saving` less when the byte is the envelope's end ($FF
    /// or $F0 in ROM: a range).
    vol_base: u32,
    vol_per_envelope: u32,
    vol_odd: u32,
    vol_end_saving: u32,
    /// `setChanVol` with no envelope (control & $1F = 0): not traced, a range.
    vol_no_envelope: (u32, u32),
    /// The note ends on this frame: instruction bytes are read from the music data (ROM) until
    /// the next note: 266-493 on the traced frames (the noise channel with the tail), widened
    /// by one instruction each way.
    next_note: (u32, u32),
}

const CHANNEL: Channel = Channel {
    run: 77,
    tri: 119,
    noise: 178,
    set_lo: 29,
    set_lo_effect: (29, 110),
    vol_rest: 60,
    vol_base: 126,
    vol_per_envelope: 14,
    vol_odd: 19,
    vol_end_saving: 48,
    vol_no_envelope: (20, 60),
    next_note: (240, 520),
};

/// `updateAudio`'s cycles over every engine state [`audio_cycles`] counts, as `(min, max)`:
/// what a frame without the engine's RAM (sim, the planner, traces without `ram`) can cost.
/// Least: slot 1 idle, SQ1 and SQ2 inside a note without an envelope (`setChanVol`'s 20),
/// triangle and noise inside their notes: 800. Most: slot 1 on the line-completed effect's
/// last step with its stop and SQ1's restore (540), SQ1 and SQ2 on envelope 31 written with
/// a pitch effect (756 each; a note ending costs at most 520), triangle and noise both
/// reading their next notes (520 each): 3,296.
pub const PLAY_RANGE: (u32, u32) = (
    FIXED
        + SLOT1_IDLE
        + 2 * (CHANNEL.run + CHANNEL.vol_no_envelope.0 + CHANNEL.set_lo)
        + CHANNEL.tri
        + CHANNEL.noise,
    FIXED
        + SLOT1_ADVANCE_LOCK
        + SLOT1_PER_ID * (10 - 7)
        + STEP_LINE_COMPLETED_LAST
        + RESET_SQ1
        + 2 * max(
            CHANNEL.run
                + CHANNEL.vol_base
                + CHANNEL.vol_per_envelope * 31
                + VOL_WRITE
                + CHANNEL.set_lo_effect.1,
            CHANNEL.next_note.1,
        )
        + 2 * max(max(CHANNEL.tri, CHANNEL.noise), CHANNEL.next_note.1),
);

const fn max(a: u32, b: u32) -> u32 {
    if a > b {
        a
    } else {
        b
    }
}

/// Cycles of `updateAudio` from its first instruction to its `rts`, as `(min, max)`, for the
/// engine state `ram` ($0680-$06FF at the frame's start: the previous frame's end, before this
/// frame's own sound requests). `None` when RAM shows a state no trace covers (a new track
/// loading, a channel off, an effect other than those play uses): the caller keeps its
/// allowance there.
pub fn audio_cycles(ram: &[u8]) -> Option<(u32, u32)> {
    if ram.len() < AUDIO_RAM_LEN {
        return None;
    }
    let b = |addr: usize| ram[addr - AUDIO_RAM];
    // A new track loading (`musicTrack`), no track playing, a pending SQ restore, or a pause.
    if b(0x6F5) != 0 || b(0x6FD) == 0 || b(0x68A) != 0 || b(0x68D) == 5 {
        return None;
    }
    if (0..5).any(|s| b(0x6F0 + s) != 0) || [0x6F8, 0x6FA, 0x6FB, 0x6FC].iter().any(|&a| b(a) != 0)
    {
        return None;
    }
    let (mut lo, mut hi) = (FIXED, FIXED);
    let mut add = |r: (u32, u32)| {
        lo += r.0;
        hi += r.1;
    };
    let (slot1, stops) = slot1_cycles(b(0x6F9), b(0x6DB), b(0x6D6), b(0x6E0))?;
    add(slot1);
    let mut inhibit_sq1 = b(0x6C8) != 0;
    if stops {
        add((RESET_SQ1, RESET_SQ1));
        inhibit_sq1 = false;
    }
    for ch in 0..4usize {
        if b(0x6A1 + 2 * ch) == 0xFF {
            return None;
        }
        if b(0x6B4 + ch) == 1 {
            add(CHANNEL.next_note);
            continue;
        }
        match ch {
            2 => add((CHANNEL.tri, CHANNEL.tri)),
            3 => add((CHANNEL.noise, CHANNEL.noise)),
            _ => {
                let inhibited = if ch == 0 { inhibit_sq1 } else { b(0x6C9) != 0 };
                let vol = vol_cycles(b(0x69A + ch), b(0x6C3 + ch), b(0x6CD + ch), inhibited);
                let set_lo = if b(0x69A + ch) & 0xE0 == 0 {
                    (CHANNEL.set_lo, CHANNEL.set_lo)
                } else {
                    CHANNEL.set_lo_effect
                };
                add((CHANNEL.run, CHANNEL.run));
                add(vol);
                add(set_lo);
            }
        }
    }
    Some((lo, hi))
}

/// Slot 1's cycles (with the `jsr updateMusic` after it) and whether the effect stops on this
/// frame (`resetSq12ForMusic`, SQ1 no longer inhibited). `playing` $06F9, `counter` $06DB,
/// `count` $06D6, `secondary` $06E0.
fn slot1_cycles(playing: u8, counter: u8, count: u8, secondary: u8) -> Option<((u32, u32), bool)> {
    if playing == 0 {
        return Some(((SLOT1_IDLE, SLOT1_IDLE), false));
    }
    // Effects whose playing routine starts `jsr advanceAudioSlotFrame` / `bne` to an `rts`.
    if !matches!(playing, 3 | 4 | 6 | 7 | 9 | 10) {
        return None;
    }
    let advance = SLOT1_ADVANCE_LOCK + SLOT1_PER_ID * playing as u32 - SLOT1_PER_ID * 7;
    let exact = |c: u32| (c, c);
    if counter.wrapping_add(1) != count {
        return Some((exact(advance), false));
    }
    Some(match playing {
        10 if secondary == LINE_COMPLETED_LAST_SECONDARY => {
            (exact(advance + STEP_LINE_COMPLETED_LAST), true)
        }
        10 => (exact(advance + STEP_LINE_COMPLETED), false),
        9 if secondary != LINE_COMPLETED_LAST_SECONDARY => {
            (exact(advance + STEP_LINE_CLEARING), false)
        }
        6 if secondary < LEVEL_UP_STEPS => (exact(advance + STEP_LEVEL_UP), false),
        3 | 7 => ((advance + STEP_STOP.0, advance + STEP_STOP.1), true),
        // A tetris's or line clearing's last step (it may chain into another effect), the
        // level-up's stop: not traced.
        _ => return None,
    })
}

/// `setChanVol` for SQ1 or SQ2 inside a note.
fn vol_cycles(control: u8, note: u8, frame_counter: u8, inhibited: bool) -> (u32, u32) {
    let n = (control & 0x1F) as u32;
    if n == 0 {
        return CHANNEL.vol_no_envelope;
    }
    if note == 2 {
        return (CHANNEL.vol_rest, CHANNEL.vol_rest);
    }
    let mut c = CHANNEL.vol_base + CHANNEL.vol_per_envelope * n;
    if frame_counter & 1 == 1 {
        c -= CHANNEL.vol_odd;
    }
    if !inhibited {
        c += VOL_WRITE;
    }
    (c - CHANNEL.vol_end_saving, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's RAM in play: music track 3 playing, the lock effect running, every channel
    /// inside its note (duration 5), SQ1 inhibited by the effect, envelopes 10 (SQ1) and 9.
    fn playing() -> Vec<u8> {
        let mut ram = vec![0u8; AUDIO_RAM_LEN];
        let mut set = |a: usize, v: u8| ram[a - AUDIO_RAM] = v;
        set(0x6FD, 3);
        set(0x6F9, 7);
        set(0x6D6, 15);
        set(0x6DB, 3);
        for ch in 0..4 {
            set(0x6A1 + 2 * ch, 0xE3);
            set(0x6B4 + ch, 5);
        }
        set(0x69A, 10);
        set(0x69B, 9);
        set(0x6C3, 70);
        set(0x6C4, 80);
        set(0x6C8, 1);
        ram
    }

    #[test]
    fn a_frame_inside_every_note_is_counted_up_to_the_envelope_end() {
        let ram = playing();
        // 204 fixed, 262 lock, SQ1 77+266+29, SQ2 77+261+29, tri 119, noise 178.
        let top = 204 + 262 + (77 + 266 + 29) + (77 + 261 + 29) + 119 + 178;
        assert_eq!(audio_cycles(&ram), Some((top - 2 * 48, top)));
    }

    #[test]
    fn a_rest_and_an_odd_envelope_step_are_exact_and_cheaper() {
        let mut ram = playing();
        ram[0x6C4 - AUDIO_RAM] = 2;
        let (lo, hi) = audio_cycles(&ram).unwrap();
        // SQ2 on a rest: 60 exact, so only SQ1's envelope end is open.
        assert_eq!(hi - lo, 48);
        ram[0x6CD - AUDIO_RAM] = 1;
        assert_eq!(audio_cycles(&ram).unwrap().1, hi - 19);
    }

    #[test]
    fn a_note_ending_on_the_frame_reads_music_data_so_it_is_a_range() {
        let mut ram = playing();
        let base = audio_cycles(&ram).unwrap();
        ram[0x6B6 - AUDIO_RAM] = 1;
        let (lo, hi) = audio_cycles(&ram).unwrap();
        assert_eq!(lo, base.0 - 119 + 240);
        assert_eq!(hi, base.1 - 119 + 520);
    }

    #[test]
    fn the_effects_step_and_stop_frames_cost_more() {
        let mut ram = playing();
        let base = audio_cycles(&ram).unwrap();
        ram[0x6F9 - AUDIO_RAM] = 10;
        ram[0x6E0 - AUDIO_RAM] = 3;
        assert_eq!(audio_cycles(&ram).unwrap().1, base.1 + 54);
        ram[0x6DB - AUDIO_RAM] = 14;
        assert_eq!(audio_cycles(&ram).unwrap().1, base.1 + 54 + 165);
        // The last step stops the effect: SQ1 restored and no longer inhibited.
        ram[0x6E0 - AUDIO_RAM] = 8;
        assert_eq!(audio_cycles(&ram).unwrap().1, base.1 + 54 + 192 + 32 + 9);
    }

    #[test]
    fn the_play_range_holds_every_counted_state() {
        assert_eq!(PLAY_RANGE, (800, 3_296));
        let mut ram = playing();
        for (a, v) in [(0x6F9, 0), (0x69A, 0), (0x69B, 0)] {
            ram[a - AUDIO_RAM] = v;
        }
        assert_eq!(audio_cycles(&ram).unwrap().0, PLAY_RANGE.0);
        let mut ram = playing();
        for (a, v) in [
            (0x6F9, 10),
            (0x6DB, 14),
            (0x6E0, 8),
            (0x69A, 0xFF),
            (0x69B, 0xFF),
        ] {
            ram[a - AUDIO_RAM] = v;
        }
        ram[0x6B6 - AUDIO_RAM] = 1;
        ram[0x6B7 - AUDIO_RAM] = 1;
        ram[0x6C9 - AUDIO_RAM] = 0;
        assert_eq!(audio_cycles(&ram).unwrap().1, PLAY_RANGE.1);
    }

    #[test]
    fn states_no_trace_covers_give_no_count() {
        let mut ram = playing();
        ram[0x6F5 - AUDIO_RAM] = 4;
        assert_eq!(audio_cycles(&ram), None);
        let mut ram = playing();
        ram[0x6F9 - AUDIO_RAM] = 5;
        assert_eq!(audio_cycles(&ram), None);
        assert_eq!(audio_cycles(&[0; 10]), None);
    }
}
