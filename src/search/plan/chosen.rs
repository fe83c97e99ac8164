//! The planner's answer: the chosen placement, its buttons frame by frame, and what the
//! follower needs to play them (the re-plan point, the entry hold, the preview).

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::pos::Pos;
use crate::movegen::{Lock, LockSets};

/// The chosen placement and how to get there.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// One button byte per frame, from the frame after the situation's to the lock frame.
    pub inputs: Vec<PadState>,
    /// The piece's (x, y, orientation id) at the end of each of those frames.
    pub expected: Vec<Pos>,
    /// Where the piece locks.
    pub lock: Pos,
    /// The next piece's placement in the chosen pair.
    pub next_lock: Option<Pos>,
    /// The pair's evaluation (lower is better); `None` when every pair was rejected.
    pub value: Option<f64>,
    /// Reachable locks of the current piece.
    pub candidates: usize,
    /// Under a reaction time: after this many of `inputs` the plan is made again, with the
    /// next piece seen (the inputs before it do not depend on the next piece).
    pub replan_after: Option<usize>,
    /// The direction to hold from the lock through the entry delay into the next piece (a
    /// hold profile's carried DAS charge: an entry `LockQuery`); nothing otherwise.
    pub entry_hold: PadState,
    /// The lock's play-state-5 frame is safer with the next-piece preview hidden
    /// (`crash_guard::key_preview`): the follower sets $DF so between the lock and that frame.
    pub hide_preview: bool,
}

impl Plan {
    /// The plan of a piece that locks at `at` within the frames before the search.
    pub(crate) fn locked_early(
        at: &Active,
        inputs: Vec<PadState>,
        expected: Vec<Pos>,
    ) -> Option<Plan> {
        Some(Plan {
            lock: Pos::of(at)?,
            inputs,
            expected,
            next_lock: None,
            value: None,
            candidates: 1,
            replan_after: None,
            entry_hold: PadState::NONE,
            hide_preview: false,
        })
    }

    /// The plan of the best pair `(value, index in firsts, next lock)`; with no pair, the
    /// deepest lock's (see [`Plan::to_lock`]).
    pub(crate) fn of_best(
        first: &LockSets,
        firsts: &[Lock],
        best: Option<(f64, usize, Option<Pos>)>,
        inputs: Vec<PadState>,
        expected: Vec<Pos>,
    ) -> Plan {
        Plan {
            value: best.map(|b| b.0),
            next_lock: best.and_then(|b| b.2),
            ..Plan::to_lock(first, firsts, best.map(|b| b.1), inputs, expected)
        }
    }

    /// The plan to `firsts[index]` (or, for `None`, the deepest lock: when every pair is
    /// rejected, the least bad way to go on) along `first`'s path, after the prefix frames.
    pub(crate) fn to_lock(
        first: &LockSets,
        firsts: &[Lock],
        index: Option<usize>,
        mut inputs: Vec<PadState>,
        mut expected: Vec<Pos>,
    ) -> Plan {
        let index = index.unwrap_or_else(|| {
            (0..firsts.len())
                .max_by_key(|&i| (firsts[i].at.y, std::cmp::Reverse(i)))
                .unwrap_or(0)
        });
        let chosen = firsts[index];
        let (mut path, mut path_expected) = (Vec::new(), Vec::new());
        first.path(&chosen, &mut path, &mut path_expected);
        inputs.extend_from_slice(&path);
        expected.extend_from_slice(&path_expected);
        Plan {
            inputs,
            expected,
            lock: chosen.at,
            next_lock: None,
            value: None,
            candidates: firsts.len(),
            replan_after: None,
            entry_hold: PadState::NONE,
            hide_preview: false,
        }
    }
}
