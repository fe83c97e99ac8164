//! What the planner is given: the board, the piece and its counters, the level and lines,
//! the next piece and what this piece has done, as the game shows them at a frame's end.

use crate::game::active::Active;
use crate::game::board::Board;
use crate::game::pad::{Buttons, PadState};
use crate::game::piece::Piece;
use crate::game::score::drop_speed;
use crate::game::state::Game;
use crate::movegen::prefix::PrefixStart;
use crate::movegen::profile::PieceProgress;

/// What the planner needs to know: the state at the end of the last frame.
#[derive(Clone, Copy, Debug)]
pub struct Situation {
    /// Rows −2..19 (without the active piece).
    pub board: Board,
    /// The falling piece and its counters.
    pub active: Active,
    /// Buttons held in the last frame.
    pub prev: PadState,
    /// `levelNumber` ($64), binary: the gravity and the weights phase.
    pub level: u8,
    /// BCD lines [$70, $71] (for the level-up a clear may bring before the next piece).
    pub lines: [u8; 2],
    /// The next piece, if known.
    pub next: Option<Piece>,
    /// What this piece has already done (zero at its spawn; set for the reaction re-plan).
    pub progress: PieceProgress,
}

impl Situation {
    /// What the planner sees of `game` at the end of its current frame.
    pub fn of(game: &Game) -> Situation {
        Situation {
            board: game.board(),
            active: game.active,
            prev: game.held,
            level: game.level,
            lines: game.lines,
            next: game.next_piece(),
            progress: PieceProgress::default(),
        }
    }

    /// `piece` at its spawn on `board`: nothing held, nothing of its timeline spent.
    pub fn at_spawn(
        board: Board,
        piece: Piece,
        level: u8,
        lines: [u8; 2],
        next: Option<Piece>,
    ) -> Situation {
        Situation {
            board,
            active: Active::spawn(piece.spawn().id(), 0, 0),
            prev: PadState::NONE,
            level,
            lines,
            next,
            progress: PieceProgress::default(),
        }
    }

    /// This situation after `inputs`, played in the model on its board (the piece must not
    /// lock within them: the planner's re-plan at the reaction frame, the coach's hover).
    pub fn after(&self, inputs: &[PadState]) -> Situation {
        let speed = drop_speed(self.level);
        let (mut a, mut prev) = (self.active, self.prev);
        for &i in inputs {
            a.frame(Buttons::after(i, prev), speed, &self.board);
            prev = i;
        }
        Situation {
            active: a,
            prev,
            progress: self.progress.then(inputs, self.prev),
            ..*self
        }
    }

    /// The piece as the frames before a search start from (`movegen::prefix`).
    pub fn prefix_start(&self) -> PrefixStart {
        PrefixStart {
            active: self.active,
            prev: self.prev,
            frames: self.progress.frames,
            speed: drop_speed(self.level),
        }
    }
}
