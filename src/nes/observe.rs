//! The RAM observer: a plain `RamSnapshot` read through the `AddressMap`, and its checked
//! conversion into a full rules-model `Game`, so the planner can start from any in-flight frame.

use std::fmt;

use super::addresses::AddressMap;
use crate::game::active::Active;
use crate::game::piece::{HIDDEN_ID, SPAWN_IDS};
use crate::game::playfield::Playfield;
use crate::game::rng::Picker;
use crate::game::state::{Game, PlayState, Wait};
use crate::game::PadState;

/// `gameMode` during play.
use super::modes::{
    FIRST_PIECE_DELAY_BIT, GMS_ENDING, GMS_PLAY, GMS_QUIRK, RENDER_MODE_ENDING,
    RENDER_MODE_HIGH_SCORE,
};
pub use super::modes::{GAME_MODE_PLAY, RENDER_MODE_PLAY};

/// Every game quantity the host reads, straight from RAM, unchecked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RamSnapshot {
    /// `gameMode` ($C0).
    pub game_mode: u8,
    /// `gameModeState` ($A7).
    pub game_mode_state: u8,
    /// `renderMode` ($BD).
    pub render_mode: u8,
    /// `gameType` ($C1): 0 for A-type.
    pub game_type: u8,
    /// `playState` ($68).
    pub play_state: u8,
    /// `currentPiece` ($62): orientation id, $13 when no piece is shown.
    pub orientation: u8,
    /// `tetriminoX` ($60): pivot column.
    pub x: u8,
    /// `tetriminoY` ($61): pivot row, −2..19 as a wrapping `u8`.
    pub y: u8,
    /// `nextPiece` ($BF): spawn orientation id.
    pub next: u8,
    /// `fallTimer` ($65): frames since the last gravity drop.
    pub fall_timer: u8,
    /// `autorepeatX` ($66): the DAS counter.
    pub das: u8,
    /// `autorepeatY` ($6E): the soft-drop counter.
    pub soft_drop: u8,
    /// `holdDownPoints` ($6F): soft-drop rows of the current piece.
    pub hold_down_points: u8,
    /// `levelNumber` ($64), binary.
    pub level: u8,
    /// `startLevel` ($67).
    pub start_level: u8,
    /// [$70, $71].
    pub lines_bcd: [u8; 2],
    /// [$73, $74, $75].
    pub score_bcd: [u8; 3],
    /// ($17 << 8) | $18.
    pub rng: u16,
    /// `spawnID` ($19): spawn id of the last pick.
    pub spawn_id: u8,
    /// `spawnCount` ($1A).
    pub spawn_count: u8,
    /// `frameCounter` ($B1-$B2).
    pub frame_counter: u16,
    /// `heldButtons_player1` ($F7), the game's bit order.
    pub held: u8,
    /// `newlyPressedButtons_player1` ($F5), the game's bit order.
    pub newly: u8,
    /// `vramRow` ($69): next playfield row the NMI copies; 32 when done.
    pub vram_row: u8,
    /// `completedLines` ($76).
    pub completed_lines: u8,
    /// `completedRow[4]` ($6A-$6D).
    pub completed_rows: [u8; 4],
    /// `lineIndex` ($77).
    pub line_index: u8,
    /// `rowY` ($72): line-clear animation step.
    pub row_y: u8,
    /// `curtainRow` ($78).
    pub curtain_row: u8,
    /// `displayNextPiece` ($DF).
    pub display_next_piece: u8,
    /// The working copy $40-$5F equals the player-1 block $60-$7F.
    pub active_matches_p1: bool,
    /// The playfield page ($0400-$04FF), rows −2/−1 included at their wrapped addresses.
    pub page: [u8; 256],
}

impl RamSnapshot {
    /// Reads every field. Bytes outside `ram` read as 0 (a console's RAM is always 2 KiB).
    pub fn read(ram: &[u8], map: &AddressMap) -> RamSnapshot {
        let b = |addr| AddressMap::byte(ram, addr);
        let rng = AddressMap::bytes::<2>(ram, map.rng);
        RamSnapshot {
            game_mode: b(map.game_mode),
            game_mode_state: b(map.game_mode_state),
            render_mode: b(map.render_mode),
            game_type: b(map.game_type),
            play_state: b(map.play_state),
            orientation: b(map.orientation),
            x: b(map.piece_x),
            y: b(map.piece_y),
            next: b(map.next),
            fall_timer: b(map.fall_timer),
            das: b(map.das),
            soft_drop: b(map.soft_drop),
            hold_down_points: b(map.hold_down_points),
            level: b(map.level),
            start_level: b(map.start_level),
            lines_bcd: AddressMap::bytes(ram, map.lines),
            score_bcd: AddressMap::bytes(ram, map.score),
            rng: u16::from_be_bytes(rng),
            spawn_id: b(map.spawn_id),
            spawn_count: b(map.spawn_count),
            frame_counter: u16::from_le_bytes(AddressMap::bytes(ram, map.frame_counter)),
            held: b(map.held),
            newly: b(map.newly),
            vram_row: b(map.vram_row),
            completed_lines: b(map.completed_lines),
            completed_rows: AddressMap::bytes(ram, map.completed_rows),
            line_index: b(map.line_index),
            row_y: b(map.row_y),
            curtain_row: b(map.curtain_row),
            display_next_piece: b(map.display_next_piece),
            active_matches_p1: AddressMap::bytes::<32>(ram, map.working_block)
                == AddressMap::bytes::<32>(ram, map.player_block),
            page: map.page(ram),
        }
    }

    /// What RAM shows of the game at the end of its frame: [`RamSnapshot::from_game`], but on
    /// a frame the NMI interrupted before `savePlayer1State` the player block still holds the
    /// frame's start ([`Game::shown_block`]).
    pub fn shown(game: &Game) -> RamSnapshot {
        let mut snap = RamSnapshot::from_game(game);
        if let Some(b) = game.shown_block() {
            snap.play_state = b.play_state as u8;
            snap.level = b.level;
            snap.lines_bcd = b.lines;
            snap.score_bcd = b.score;
            snap.completed_lines = b.completed_lines;
            snap.hold_down_points = b.hold_down_points;
            // The working copy at $40 already holds this frame's work.
            snap.active_matches_p1 = false;
        }
        snap
    }

    /// What the cartridge's RAM holds for this model state (an A-type game in play).
    pub fn from_game(g: &Game) -> RamSnapshot {
        let a = g.active;
        RamSnapshot {
            game_mode: g.game_mode(),
            game_mode_state: g.game_mode_state,
            render_mode: RENDER_MODE_PLAY,
            game_type: 0,
            play_state: g.play_state as u8,
            orientation: a.id,
            x: a.x,
            y: a.y,
            next: g.next,
            fall_timer: a.fall_timer,
            das: a.das,
            soft_drop: a.ary,
            hold_down_points: a.hold_down_points,
            level: g.level,
            start_level: g.start_level,
            lines_bcd: g.lines,
            score_bcd: g.score,
            rng: g.picker.rng,
            spawn_id: g.picker.spawn_id,
            spawn_count: g.picker.spawn_count,
            frame_counter: g.frame_counter,
            held: g.held.bits(),
            newly: g.newly.bits(),
            vram_row: g.vram_row,
            completed_lines: g.completed_lines,
            completed_rows: g.completed_rows,
            line_index: g.line_index,
            row_y: g.row_y,
            curtain_row: g.curtain_row,
            display_next_piece: g.display_next_piece,
            active_matches_p1: true,
            page: g.field.page,
        }
    }

    /// Lays every field out at its address in `ram` (the inverse of [`RamSnapshot::read`]);
    /// the working copy $40-$5F is written equal to the player block when they match.
    pub fn write(&self, ram: &mut [u8], map: &AddressMap) {
        let mut put = |addr: u16, bytes: &[u8]| {
            let at = usize::from(addr);
            if let Some(dst) = ram.get_mut(at..at + bytes.len()) {
                dst.copy_from_slice(bytes);
            }
        };
        put(map.playfield, &self.page);
        for (addr, v) in [
            (map.game_mode, self.game_mode),
            (map.game_mode_state, self.game_mode_state),
            (map.render_mode, self.render_mode),
            (map.game_type, self.game_type),
            (map.play_state, self.play_state),
            (map.orientation, self.orientation),
            (map.piece_x, self.x),
            (map.piece_y, self.y),
            (map.next, self.next),
            (map.fall_timer, self.fall_timer),
            (map.das, self.das),
            (map.soft_drop, self.soft_drop),
            (map.hold_down_points, self.hold_down_points),
            (map.level, self.level),
            (map.start_level, self.start_level),
            (map.spawn_id, self.spawn_id),
            (map.spawn_count, self.spawn_count),
            (map.held, self.held),
            (map.newly, self.newly),
            (map.vram_row, self.vram_row),
            (map.completed_lines, self.completed_lines),
            (map.line_index, self.line_index),
            (map.row_y, self.row_y),
            (map.curtain_row, self.curtain_row),
            (map.display_next_piece, self.display_next_piece),
        ] {
            put(addr, &[v]);
        }
        put(map.completed_rows, &self.completed_rows);
        put(map.lines, &self.lines_bcd);
        put(map.score, &self.score_bcd);
        put(map.rng, &self.rng.to_be_bytes());
        put(map.frame_counter, &self.frame_counter.to_le_bytes());
        if self.active_matches_p1 {
            let block = AddressMap::bytes::<32>(ram, map.player_block);
            let at = usize::from(map.working_block);
            if let Some(dst) = ram.get_mut(at..at + 32) {
                dst.copy_from_slice(&block);
            }
        }
    }

    /// True once the game has topped out (the curtain, `playState` 10, during play).
    pub fn topped_out(&self) -> bool {
        self.in_play() && self.play_state == PlayState::Curtain as u8
    }

    /// True on a finished game's screens: the game-over curtain (and the wait for Start
    /// after it), the high-score entry or the ending; all `gameMode` 4, none of them a game
    /// to play (Start goes on to the level menu).
    pub fn game_over_shown(&self) -> bool {
        self.topped_out()
            || (self.in_play()
                && matches!(
                    self.render_mode,
                    RENDER_MODE_HIGH_SCORE | RENDER_MODE_ENDING
                ))
    }

    /// True during play (`gameMode` 4).
    pub fn in_play(&self) -> bool {
        self.game_mode == GAME_MODE_PLAY
    }

    /// True once the game `initGameState` set up is ready to play: the main loop is in its
    /// play states, the piece is under control with the first-piece delay armed, and the RAM
    /// converts to a game. Before that, the RAM still shows the last game (e.g. a playfield
    /// full of curtain tiles) or a half-initialised one.
    pub fn new_game_ready(&self) -> bool {
        self.in_play()
            && matches!(self.game_mode_state, GMS_PLAY | GMS_QUIRK)
            && self.play_state == PlayState::Control as u8
            && self.soft_drop & FIRST_PIECE_DELAY_BIT != 0
            && self.problems().is_empty()
    }
}

/// True on the spawn frame: this frame ended in playState 1 and the previous one did not
/// (nes-tetris.md §6.4: read the board at the end of this frame).
pub fn is_spawn_frame(prev: &RamSnapshot, now: &RamSnapshot) -> bool {
    now.play_state == PlayState::Control as u8 && prev.play_state != PlayState::Control as u8
}

/// One field that cannot be part of a rules-model state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadField {
    /// The snapshot field's name (`lines_bcd`).
    pub field: &'static str,
    /// Its value (two bytes for the 16-bit fields).
    pub value: u16,
    /// Why no game in progress holds it.
    pub reason: &'static str,
}

/// Every problem found in a snapshot, with the frame counter that dates it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub struct SnapshotError {
    /// `frameCounter` of the snapshot.
    pub frame_counter: u16,
    /// Every field in the wrong.
    pub bad: Vec<BadField>,
}

impl fmt::Display for BadField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {:#04x} {}", self.field, self.value, self.reason)
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "RAM (frameCounter {}) is not a play state:",
            self.frame_counter
        )?;
        for (i, b) in self.bad.iter().enumerate() {
            let sep = if i == 0 { " " } else { "; " };
            write!(f, "{sep}{b}")?;
        }
        Ok(())
    }
}

fn bcd_ok(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b & 0x0F <= 9 && b >> 4 <= 9)
}

impl RamSnapshot {
    /// Every field that cannot belong to an A-type game in progress.
    pub fn problems(&self) -> Vec<BadField> {
        let mut bad = Vec::new();
        let mut check = |ok: bool, field, value: u16, reason| {
            if !ok {
                bad.push(BadField {
                    field,
                    value,
                    reason,
                });
            }
        };
        check(
            self.game_mode == GAME_MODE_PLAY,
            "game_mode",
            self.game_mode.into(),
            "is not 4 (play)",
        );
        check(
            self.game_type == 0,
            "game_type",
            self.game_type.into(),
            "is not 0 (A-type)",
        );
        check(
            PlayState::from_u8(self.play_state).is_some(),
            "play_state",
            self.play_state.into(),
            "is not a play state (0-11)",
        );
        check(
            self.orientation <= HIDDEN_ID,
            "orientation",
            self.orientation.into(),
            "is not an orientation id ($00-$13)",
        );
        check(
            SPAWN_IDS.contains(&self.next),
            "next",
            self.next.into(),
            "is not a spawn orientation id",
        );
        // Only the hidden id: one beyond it is already said above, once.
        if self.play_state == PlayState::Control as u8 {
            check(
                self.orientation != HIDDEN_ID,
                "orientation",
                self.orientation.into(),
                "is hidden while the piece is controlled",
            );
        }
        // The lock and the row check still use the piece's position.
        if (1..=3).contains(&self.play_state) {
            check(self.x <= 9, "x", self.x.into(), "is off the board (0-9)");
            check(self.y <= 19, "y", self.y.into(), "is off the board (0-19)");
        }
        // The cartridge only ever increments the hundreds byte ($71) in binary: 1,000 lines
        // is $0A00 (docs/past-level-29.md), so only the tens/ones byte is BCD.
        check(
            bcd_ok(&self.lines_bcd[..1]),
            "lines_bcd",
            u16::from_le_bytes(self.lines_bcd),
            "is not BCD in its tens and ones",
        );
        check(
            bcd_ok(&self.score_bcd),
            "score_bcd",
            u16::from(self.score_bcd[2]),
            "is not BCD",
        );
        check(
            self.rng != 0,
            "rng",
            self.rng,
            "is 0 (the LFSR never reaches it)",
        );
        bad
    }

    /// The rules-model state this RAM describes: the state at the end of this frame.
    pub fn to_game(&self) -> Result<Game, SnapshotError> {
        let bad = self.problems();
        let play_state = PlayState::from_u8(self.play_state);
        let Some(play_state) = play_state.filter(|_| bad.is_empty()) else {
            return Err(SnapshotError {
                frame_counter: self.frame_counter,
                bad,
            });
        };
        Ok(Game {
            field: Playfield { page: self.page },
            active: Active {
                x: self.x,
                y: self.y,
                id: self.orientation,
                fall_timer: self.fall_timer,
                das: self.das,
                ary: self.soft_drop,
                hold_down_points: self.hold_down_points,
            },
            play_state,
            next: self.next,
            level: self.level,
            start_level: self.start_level,
            lines: self.lines_bcd,
            score: self.score_bcd,
            picker: Picker {
                rng: self.rng,
                spawn_id: self.spawn_id,
                spawn_count: self.spawn_count,
            },
            frame_counter: self.frame_counter,
            held: PadState(self.held),
            newly: PadState(self.newly),
            vram_row: self.vram_row,
            completed_lines: self.completed_lines,
            completed_rows: self.completed_rows,
            line_index: self.line_index,
            row_y: self.row_y,
            curtain_row: self.curtain_row,
            game_mode_state: self.game_mode_state,
            // Where the main loop is parked shows in $A7 at the frame end (nes-tetris.md §1.2, §7).
            wait: match self.game_mode_state {
                GMS_QUIRK => Wait::QuirkNmi,
                GMS_ENDING => Wait::Ending,
                _ => Wait::None,
            },
            crashed: None,
            display_next_piece: self.display_next_piece,
        })
    }
}

impl TryFrom<&RamSnapshot> for Game {
    type Error = SnapshotError;

    fn try_from(s: &RamSnapshot) -> Result<Game, SnapshotError> {
        s.to_game()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::model_console::ModelConsole;

    fn playing() -> RamSnapshot {
        let c = ModelConsole::new(Game::seeded(18, 7), AddressMap::default());
        RamSnapshot::read(c.ram_image(), &AddressMap::default())
    }

    #[test]
    fn a_model_game_converts_back() {
        let s = playing();
        let g = Game::try_from(&s).unwrap();
        assert_eq!(g, Game::seeded(18, 7));
    }

    #[test]
    fn a_thousand_lines_is_a_binary_hundreds_byte_not_a_bad_field() {
        // Past 999 lines the cartridge holds $0A in the hundreds byte (as the traces show).
        let mut s = playing();
        s.lines_bcd = [0x00, 0x0A];
        assert!(s.problems().is_empty(), "{:?}", s.problems());
        assert_eq!(Game::try_from(&s).unwrap().lines(), 1000);
        s.lines_bcd = [0x0A, 0x01];
        let fields: Vec<_> = s.problems().iter().map(|b| b.field).collect();
        assert_eq!(fields, ["lines_bcd"]);
    }

    #[test]
    fn a_bad_orientation_of_a_controlled_piece_is_listed_once() {
        let mut s = playing();
        s.play_state = PlayState::Control as u8;
        s.orientation = 0x20;
        let fields: Vec<_> = s.problems().iter().map(|b| b.field).collect();
        assert_eq!(fields, ["orientation"]);
        s.orientation = HIDDEN_ID;
        let e = Game::try_from(&s).unwrap_err().to_string();
        assert!(e.contains("hidden while the piece is controlled"), "{e}");
    }

    #[test]
    fn every_bad_field_is_listed() {
        let mut s = playing();
        s.orientation = 0x14;
        s.play_state = 12;
        s.next = 0x03;
        s.game_mode = 3;
        s.score_bcd = [0x0A, 0, 0];
        let e = Game::try_from(&s).unwrap_err();
        let fields: Vec<_> = e.bad.iter().map(|b| b.field).collect();
        assert_eq!(
            fields,
            [
                "game_mode",
                "play_state",
                "orientation",
                "next",
                "score_bcd"
            ]
        );
        let msg = e.to_string();
        for f in fields {
            assert!(msg.contains(f), "{msg}");
        }
    }

    #[test]
    fn controlled_piece_must_be_on_the_board() {
        let mut s = playing();
        s.x = 10;
        s.y = 20;
        let e = s.to_game().unwrap_err();
        let fields: Vec<_> = e.bad.iter().map(|b| b.field).collect();
        assert_eq!(fields, ["x", "y"]);
        // The same bytes are fine once the piece has locked (state 2+ keeps stale x/y).
        s.play_state = 8;
        assert!(s.to_game().is_ok());
    }

    #[test]
    fn spawn_frame_is_the_first_frame_back_in_state_1() {
        let mut prev = playing();
        let mut now = prev.clone();
        prev.play_state = 8;
        now.play_state = 1;
        assert!(is_spawn_frame(&prev, &now));
        assert!(!is_spawn_frame(&now, &now));
        assert!(!is_spawn_frame(&now, &prev));
    }

    #[test]
    fn short_ram_reads_as_zero_without_panicking() {
        let s = RamSnapshot::read(&[1, 2, 3], &AddressMap::default());
        assert_eq!(s.game_mode, 0);
        assert!(s.to_game().is_err());
    }
}
