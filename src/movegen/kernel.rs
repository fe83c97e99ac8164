//! Where a lock search starts ([`LockQuery`]), which of the seven lock-set searches answers it
//! ([`Kernel::choose`], the one place it is decided) and what a search may press ([`MoveSet`]).

use crate::game::active::Active;
use crate::game::board::{Board, BOARD_ROWS};
use crate::game::pad::PadState;
use crate::game::piece::{Orientation, Piece};

use super::profile::{PieceProgress, Profile, Shift, Timeline};

/// What the search may press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSet {
    /// Allow holding Down (soft drop).
    pub soft_drop: bool,
}

impl Default for MoveSet {
    /// Without soft drop: holding Down only ever shortens the frames spent on a row, so it
    /// never reaches a lock that gravity alone cannot (the completeness test checks this).
    fn default() -> Self {
        MoveSet { soft_drop: false }
    }
}

/// Where a lock search starts and under which rules: a piece (its state at the end of the
/// last frame), the board, the gravity and the player's profile.
#[derive(Clone, Copy, Debug)]
pub struct LockQuery<'a> {
    /// The playfield the piece moves on.
    pub board: &'a Board,
    /// The piece and its counters at the end of the last frame.
    pub start: Active,
    /// Buttons held in the last frame.
    pub prev: PadState,
    /// Frames per row (`drop_speed(level)`).
    pub speed: u8,
    /// The player's input limits.
    pub profile: &'a Profile,
    /// Whether the search may hold Down.
    pub moves: MoveSet,
    /// What the piece did before the search starts (frames played, directions pressed, taps).
    pub progress: PieceProgress,
    /// At a spawn under a hold profile: the direction held at the start is the player's
    /// choice (kept or pressed through the entry delay), so the locks are those from nothing,
    /// Left or Right held (`Bfs::search_query`); `prev` is then unused.
    pub entry: bool,
}

impl<'a> LockQuery<'a> {
    /// `piece` at its spawn (nothing held, frame 0 of the piece).
    pub fn spawn(
        board: &'a Board,
        piece: Piece,
        speed: u8,
        profile: &'a Profile,
        moves: MoveSet,
    ) -> LockQuery<'a> {
        LockQuery {
            board,
            start: Active::spawn(piece.spawn().id(), 0, 0),
            prev: PadState::NONE,
            speed,
            profile,
            moves,
            progress: PieceProgress::default(),
            entry: false,
        }
    }

    /// The query's piece in flight: `start` after the piece's `progress`, `prev` held in the
    /// last frame.
    pub fn at(self, start: Active, prev: PadState, progress: PieceProgress) -> LockQuery<'a> {
        LockQuery {
            start,
            prev,
            progress,
            ..self
        }
    }

    /// `piece` at its spawn after a lock that left the DAS counter at `das`: under a profile
    /// that holds directions the counter carries (the cartridge keeps $46 through the entry
    /// delay) and the hold at the spawn is chosen ([`LockQuery::entry`]); under taps it is
    /// [`LockQuery::spawn`] (a tap resets the counter before it is read).
    pub fn after_lock(
        board: &'a Board,
        piece: Piece,
        speed: u8,
        profile: &'a Profile,
        moves: MoveSet,
        das: u8,
    ) -> LockQuery<'a> {
        let mut q = LockQuery::spawn(board, piece, speed, profile, moves);
        if profile.shift.holds() {
            q.start.das = das.min(16);
            q.entry = true;
        }
        q
    }
}

/// The searches that find a lock set. Each is exact for the starts it accepts (their tests
/// compare them with `General`); they differ in speed and in what they keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `Bfs` over full keys with paths: any start, soft drop, the first-piece delay.
    General,
    /// `Bfs` by rows with paths: unlimited taps from a settled start (the first piece).
    Rows,
    /// The profiled `Bfs` with depth-stamped dense keys: a profile without soft drop.
    Dense,
    /// The profiled `Bfs` with hashed keys: a profile with soft drop or an odd start.
    Keyed,
    /// `Reach`'s bit sets, no paths: unlimited taps (the next piece of every pair).
    ReachBits,
    /// `Reach`'s bit sets on a tap timeline, no paths.
    ReachTimeline,
    /// `Reach`'s bit sets per held-button class and DAS counter: a profile that holds
    /// directions, no soft drop, no paths.
    ReachHold,
}

impl Kernel {
    /// The kernel for a search from `start` (`speed` frames a row) under `profile` and
    /// `moves`, `progress` being what the piece already did; `paths` when the caller needs
    /// the buttons to each lock and the order locks are first reached in (only `Bfs` keeps
    /// them). Every search in the crate asks here.
    pub fn choose(
        start: &Active,
        speed: u8,
        moves: MoveSet,
        profile: &Profile,
        progress: PieceProgress,
        paths: bool,
    ) -> Kernel {
        let speed = speed.max(1);
        let taps = profile.shift == Shift::Tap;
        let settled = start.ary == 0
            && start.fall_timer < speed
            && start.x < 10
            && Orientation::new(start.id).is_some();
        if !paths
            && taps
            && !moves.soft_drop
            && settled
            && (start.y as usize) < BOARD_ROWS
            && progress == PieceProgress::default()
        {
            return match profile.timeline {
                Timeline::Unlimited => Kernel::ReachBits,
                _ => Kernel::ReachTimeline,
            };
        }
        if !paths
            && !taps
            && !moves.soft_drop
            && settled
            && (start.y as usize) < BOARD_ROWS
            && start.das <= 16
        {
            return Kernel::ReachHold;
        }
        if taps && profile.timeline == Timeline::Unlimited {
            return if !moves.soft_drop && settled && start.y < 20 {
                Kernel::Rows
            } else {
                Kernel::General
            };
        }
        if !moves.soft_drop && settled && start.das <= 16 {
            Kernel::Dense
        } else {
            Kernel::Keyed
        }
    }
}
