//! The planner's soft-drop lever past level 155: a first lock whose line-clear frame may crash
//! takes the key of its safest Down variant (`movegen::soft_drop`), and the plan holds Down.

use crate::game::active::Active;
use crate::game::pad::PadState;

use super::chosen::Plan;
use super::situation::Situation;
use crate::game::score::drop_speed;
use crate::movegen::{Lock, LockSets};
use crate::movegen::{SoftDrop, Softened};
use crate::search::crash_guard::{self, RiskKey};
use crate::search::pairs::AfterFirst;

/// The first search's locks and the search that holds their paths and collision.
pub(crate) type Firsts<'a> = (&'a [Lock], &'a LockSets);

/// The planner's lever: each first lock's guard key with its Down variant, and the plan's.
#[derive(Clone, Debug, Default)]
pub struct SoftLever {
    /// The first search's root (the piece and the buttons held before it).
    pub(crate) root: (Active, PadState),
    /// The guard's key of each first lock (its Down variant's when it has one).
    pub(crate) keys: Vec<RiskKey>,
    /// Each first lock's Down variant that makes its frame safe, past the guard's level.
    softened: Vec<Option<Softened>>,
    scratch: SoftDrop,
    /// The last plan's Down variant (its last frames hold Down to make its frame safe).
    pub last: Option<Softened>,
    /// Plans that held Down to make their frame safe, since the planner was made.
    pub count: u64,
}

impl SoftLever {
    /// The guard's key of each first lock in `self.keys` (`firsts`: `None` below the guard's
    /// level or with the guard off, and then no key): a lock whose frame is not safe with its
    /// path's own soft drop takes the key of its safest Down variant.
    /// `preview`: the guard may hide the next-piece preview ([`crash_guard::key_risk`]).
    pub(crate) fn first_keys(
        &mut self,
        s: &Situation,
        firsts: Option<Firsts>,
        (may_shift, preview): (bool, bool),
    ) {
        self.keys.clear();
        self.softened.clear();
        let Some((locks, search)) = firsts else {
            return;
        };
        let (speed, map) = (drop_speed(s.level), search.collision());
        for l in locks {
            let a = AfterFirst::new(&s.board, s.level, s.lines, l.at);
            let mut key = crash_guard::risk_key(&a.board, a.lines, Some(l.hold_down_points));
            let mut soft = None;
            if !crash_guard::key_risk(key, s.level, s.lines, preview).is_safe() {
                search.path(l, &mut self.scratch.inputs, &mut self.scratch.expected);
                let (lines, first) = (key.0, key.1);
                soft = self.scratch.rescue(self.root, speed, map, may_shift, |h| {
                    crash_guard::key_grade(
                        (lines, first, usize::from(h)),
                        s.level,
                        s.lines,
                        preview,
                    )
                });
                if let Some(v) = soft {
                    key.2 = usize::from(v.hold_down_points);
                }
            }
            self.keys.push(key);
            self.softened.push(soft);
        }
    }

    /// `plan` (to `firsts[index]`) with the Down variant the guard counted for that lock.
    pub(crate) fn soften(
        &mut self,
        s: &Situation,
        mut plan: Plan,
        index: Option<usize>,
        (locks, search): Firsts,
    ) -> Plan {
        let Some((i, soft)) =
            index.and_then(|i| Some((i, self.softened.get(i).copied().flatten()?)))
        else {
            return plan;
        };
        search.path(
            &locks[i],
            &mut self.scratch.inputs,
            &mut self.scratch.expected,
        );
        let target = (&mut plan.inputs[..], &mut plan.expected[..]);
        if self.scratch.apply(
            self.root,
            drop_speed(s.level),
            search.collision(),
            soft,
            target,
        ) {
            self.last = Some(soft);
            self.count += 1;
        }
        plan
    }
}
