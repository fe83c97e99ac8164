//! The planner's state: what a decision reads (evaluator, moves, profile, settings) and the
//! buffers and caches it reuses from one decision to the next.

use crate::game::pad::PadState;
use crate::game::pos::Pos;
use crate::movegen::profile::Profile;
use crate::movegen::{Lock, LockSets, MoveSet};
use crate::search::crash_guard::CrashGuard;
use crate::search::eval::Evaluator;
use crate::search::third::{Lookahead, Pair, PairKey, ThirdPiece};

use super::blind_worth::Scratch;
use super::cache::Cache;
use super::chosen::Plan;
use super::soft_drop::SoftLever;

/// A decision's best pair: its value, its first lock's index in the first locks and the next
/// piece's lock.
pub(super) type Best = (f64, usize, Option<Pos>);

/// Planner state reused from one decision to the next: the BFS arrays are allocated once; a
/// decision allocates only the plan it returns.
pub struct Planner<E: Evaluator> {
    /// Values the pairs.
    pub evaluator: E,
    /// What the searches may press (no soft drop by default).
    pub moves: MoveSet,
    /// The player's input limits (`unlimited` by default).
    pub profile: Profile,
    /// The current piece's locks with paths.
    pub(super) first: LockSets,
    /// The next piece's lock sets (path-free).
    pub(super) seconds: LockSets,
    pub(super) firsts: Vec<Lock>,
    /// The third-piece layer's settings (three pairs re-ranked by default).
    pub lookahead: Lookahead,
    /// Locks of the current piece the plan must not choose (the driver's run-ahead saw them
    /// crash the cartridge); empty but for such a re-plan.
    pub exclude: Vec<Pos>,
    pub(super) third: ThirdPiece,
    /// Every acceptable pair of the decision, for the third-piece layer.
    pub(super) keys: Vec<PairKey>,
    /// The pairs the layer re-ranks (all of them, sorted, when ties need the full sort).
    pub(super) pairs: Vec<Pair>,
    /// Indices into `keys` of the layer's pairs.
    pub(super) top: Vec<usize>,
    /// Refuses first locks whose line-clear frame may crash the cartridge.
    pub crash_guard: CrashGuard,
    /// Holds Down at the end of a path whose frame is safe only with a soft drop.
    pub soft: SoftLever,
    /// What a decision may reuse from the one before and within itself (`plan/cache.rs`).
    pub(super) cache: Cache,
    /// The blind plan's scratch.
    pub(super) blind: Scratch,
    /// How many first locks blind plans valued from `carried` (`carry_tests` reads it).
    #[cfg(test)]
    pub(crate) carried_values: usize,
    /// Values every pair by the full pass (`carried_tests` compares it with the carried
    /// values).
    #[cfg(test)]
    pub(crate) full_pass_pairs: bool,
}

/// What [`Planner::first_locks`] found: the prefix frames (inputs, positions) before the
/// locks in `firsts`, or the plan of a piece that locked within them.
pub(super) enum Firsts {
    Found(Vec<PadState>, Vec<Pos>),
    LockedEarly(Plan),
}

impl<E: Evaluator> Planner<E> {
    /// A planner with `evaluator`, no soft drop and the `unlimited` profile.
    pub fn new(evaluator: E) -> Planner<E> {
        Planner {
            evaluator,
            moves: MoveSet::default(),
            profile: Profile::default(),
            first: LockSets::new(),
            seconds: LockSets::new(),
            lookahead: Lookahead::default(),
            exclude: Vec::new(),
            third: ThirdPiece::default(),
            keys: Vec::with_capacity(2048),
            pairs: Vec::with_capacity(2048),
            top: Vec::with_capacity(16),
            firsts: Vec::with_capacity(256),
            crash_guard: CrashGuard::default(),
            soft: SoftLever::default(),
            cache: Cache::default(),
            blind: Scratch::default(),
            #[cfg(test)]
            carried_values: 0,
            #[cfg(test)]
            full_pass_pairs: false,
        }
    }
}
