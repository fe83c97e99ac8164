//! The planner: the current piece's locks and paths, the next piece's locks after each, every
//! pair evaluated (the third piece re-ranks the best), and the chosen first placement's buttons.

use std::time::Instant;

use crate::game::active::{Active, Control};
use crate::game::board::{Board, FULL_ROW};
use crate::game::pad::PadState;
use crate::game::piece::{Orientation, Piece};
use crate::game::score::{add_line, drop_speed};
use crate::game::state::Game;

use super::bfs::{Bfs, Lock, MoveSet};
use super::collision::CollisionMap;
use super::eval::{Evaluator, PairOutcome, Placement};
use super::locks::SpawnLocks;
use super::profile::{PieceProgress, Profile, Shift, Timeline};
use super::reach::Reach;
use super::third::{Lookahead, Pair, ThirdPiece};

mod blind;

/// What the planner needs to know: the state at the end of the last frame.
#[derive(Clone, Copy, Debug)]
pub struct Situation {
    /// Rows −2..19 (without the active piece).
    pub board: Board,
    /// The falling piece and its counters.
    pub active: Active,
    /// Buttons held in the last frame.
    pub prev: PadState,
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
}

/// The chosen placement and how to get there.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// One button byte per frame, from the frame after the situation's to the lock frame.
    pub inputs: Vec<PadState>,
    /// The piece's (x, y, orientation id) at the end of each of those frames.
    pub expected: Vec<(u8, u8, u8)>,
    /// Where the piece locks.
    pub lock: Placement,
    /// The next piece's placement in the chosen pair.
    pub next_lock: Option<Placement>,
    /// The pair's evaluation (lower is better); `None` when every pair was rejected.
    pub value: Option<f64>,
    /// Reachable locks of the current piece.
    pub candidates: usize,
    /// Under a reaction time: after this many of `inputs` the plan is made again, with the
    /// next piece seen (the inputs before it do not depend on the next piece).
    pub replan_after: Option<usize>,
}

/// Planner state reused from one decision to the next: the BFS arrays are allocated once; a
/// decision allocates only the plan it returns.
pub struct Planner<E: Evaluator> {
    pub evaluator: E,
    pub moves: MoveSet,
    /// The player's input limits (`unlimited` by default).
    pub profile: Profile,
    first: Bfs,
    second: Bfs,
    map1: CollisionMap,
    map2: CollisionMap,
    reach: Reach,
    /// Next-piece lock sets under a profile other than `unlimited`.
    spawn_locks: SpawnLocks,
    firsts: Vec<Lock>,
    /// The third-piece layer's settings (off by default).
    pub lookahead: Lookahead,
    /// Locks of the current piece the plan must not choose (the driver's run-ahead saw them
    /// crash the cartridge); empty but for such a re-plan.
    pub exclude: Vec<Placement>,
    third: ThirdPiece,
    /// Every acceptable pair of the decision, for the third-piece layer.
    pairs: Vec<Pair>,
}

pub(crate) fn placement(l: &Lock) -> Placement {
    Placement {
        x: l.x,
        y: l.y,
        orientation: l.orientation(),
    }
}

/// `Board::lock`, without the row-by-row clear when no row is full (most locks).
#[inline]
fn lock(board: &mut Board, x: u8, y: u8, o: Orientation) -> u32 {
    board.place(x, y, o);
    if board.visible().contains(&FULL_ROW) {
        board.clear_lines()
    } else {
        0
    }
}

/// The level after `cleared` more lines, by the cartridge's own rule.
pub(crate) fn level_after(level: u8, lines: [u8; 2], cleared: u32) -> u8 {
    let (mut level, mut lines) = (level, lines);
    for _ in 0..cleared {
        add_line(&mut lines, &mut level);
    }
    level
}

impl<E: Evaluator> Planner<E> {
    pub fn new(evaluator: E) -> Planner<E> {
        Planner {
            evaluator,
            moves: MoveSet::default(),
            profile: Profile::default(),
            first: Bfs::new(),
            second: Bfs::new(),
            map1: CollisionMap::default(),
            map2: CollisionMap::default(),
            reach: Reach::new(),
            spawn_locks: SpawnLocks::new(),
            lookahead: Lookahead::default(),
            exclude: Vec::new(),
            third: ThirdPiece::default(),
            pairs: Vec::with_capacity(2048),
            firsts: Vec::with_capacity(256),
        }
    }

    /// Frames that end the first-piece delay (a Down press, after a release if Down is held);
    /// they are part of the plan. Returns the state after them.
    pub(crate) fn end_first_piece_delay(
        s: &Situation,
        map: &CollisionMap,
        inputs: &mut Vec<PadState>,
        expected: &mut Vec<(u8, u8, u8)>,
    ) -> (Active, PadState, bool) {
        let mut a = s.active;
        let mut prev = s.prev;
        let speed = drop_speed(s.level);
        while a.ary & 0x80 != 0 {
            let held = if prev.intersects(PadState::DOWN) {
                PadState::NONE
            } else {
                PadState::DOWN
            };
            let locked = a.frame(held, held.newly_from(prev), speed, map) == Control::Locked;
            prev = held;
            inputs.push(held);
            expected.push((a.x, a.y, a.id));
            if locked {
                return (a, prev, true);
            }
        }
        (a, prev, false)
    }

    /// The frames before the search: under a start delay, nothing pressed on the game's first
    /// piece until frame `start_delay`; then [`Planner::end_first_piece_delay`]. Returns the
    /// state after them and whether the piece locked.
    pub(crate) fn start_prefix(
        s: &Situation,
        map: &CollisionMap,
        start_delay: u16,
        inputs: &mut Vec<PadState>,
        expected: &mut Vec<(u8, u8, u8)>,
    ) -> (Active, PadState, bool) {
        let mut after = *s;
        if s.active.ary & 0x80 != 0 {
            let speed = drop_speed(s.level);
            while usize::from(s.progress.frames) + inputs.len() < usize::from(start_delay) {
                let locked = after
                    .active
                    .frame(PadState::NONE, PadState::NONE, speed, map)
                    == Control::Locked;
                after.prev = PadState::NONE;
                inputs.push(PadState::NONE);
                expected.push((after.active.x, after.active.y, after.active.id));
                if locked {
                    return (after.active, after.prev, true);
                }
            }
        }
        Self::end_first_piece_delay(&after, map, inputs, expected)
    }

    /// What the piece will have done when the search starts, after `prefix` (the start delay
    /// and first-piece-delay frames).
    pub(crate) fn progress_after(s: &Situation, prefix: &[PadState]) -> PieceProgress {
        let more = PieceProgress::after(prefix, s.prev);
        PieceProgress {
            frames: s.progress.frames.saturating_add(more.frames),
            pressed: s.progress.pressed.union(more.pressed),
        }
    }

    /// The profile's rules are the unlimited search's (reaction and start delay aside).
    fn unlimited_moves(&self) -> bool {
        self.profile.timeline == Timeline::Unlimited && self.profile.shift == Shift::Tap
    }

    /// The next piece's first lock, in `Bfs`'s order, that gives the pair with first lock
    /// `firsts[i]` the value `value`: the old planner's choice among equal pairs.
    fn first_in_bfs_order(
        &mut self,
        s: &Situation,
        i: usize,
        next: Piece,
        value: f64,
    ) -> Option<Placement> {
        let l1 = self.firsts[i];
        let mut board1 = s.board;
        let lines1 = lock(&mut board1, l1.x, l1.y, l1.orientation());
        let speed2 = drop_speed(level_after(s.level, s.lines, lines1));
        self.map2.build(&board1, next);
        let spawn = Active::spawn(next.spawn().id(), 0, 0);
        let seconds = self.second.search_profiled(
            spawn,
            PadState::NONE,
            speed2,
            &self.map2,
            self.moves,
            &self.profile,
            PieceProgress::default(),
        );
        seconds.iter().map(placement).find(|&second| {
            let mut board2 = board1;
            let lines2 = lock(&mut board2, second.x, second.y, second.orientation);
            let outcome = PairOutcome {
                first: placement(&l1),
                second,
                lines_first: lines1,
                lines_second: lines2,
                board: &board2,
                level: s.level,
            };
            self.evaluator.evaluate(&outcome) == Some(value)
        })
    }

    /// Plans the current piece. `None` when no piece is shown (orientation id $13) or no lock
    /// is reachable.
    pub fn plan(&mut self, s: &Situation) -> Option<Plan> {
        if s.progress.frames < self.profile.reaction {
            return self.plan_blind(s);
        }
        let orientation = Orientation::new(s.active.id)?;
        let piece = orientation.piece();
        let speed = drop_speed(s.level);
        self.map1.build(&s.board, piece);
        let mut prefix_inputs = Vec::new();
        let mut prefix_expected = Vec::new();
        let (start, prev, locked) = Self::start_prefix(
            s,
            &self.map1,
            self.profile.start_delay,
            &mut prefix_inputs,
            &mut prefix_expected,
        );
        if locked {
            return Some(Plan {
                lock: Placement {
                    x: start.x,
                    y: start.y,
                    orientation: Orientation::new(start.id)?,
                },
                inputs: prefix_inputs,
                expected: prefix_expected,
                next_lock: None,
                value: None,
                candidates: 1,
                replan_after: None,
            });
        }
        self.firsts.clear();
        let progress = Self::progress_after(s, &prefix_inputs);
        self.firsts.extend_from_slice(self.first.search_profiled(
            start,
            prev,
            speed,
            &self.map1,
            self.moves,
            &self.profile,
            progress,
        ));
        if !self.exclude.is_empty() {
            let exclude = &self.exclude;
            self.firsts.retain(|l| !exclude.contains(&placement(l)));
        }
        if self.firsts.is_empty() {
            return None;
        }
        let unlimited = self.unlimited_moves();
        let started = Instant::now();
        let lookahead = self.lookahead.top_k > 0 && s.next.is_some();
        self.pairs.clear();
        let mut best: Option<(f64, usize, Option<Placement>)> = None;
        // Another next-piece lock of the best first lock has the best value too: the path-free
        // search does not keep `Bfs`'s order, which decides such a tie (see below).
        let mut tie = false;
        for (i, l1) in self.firsts.iter().enumerate() {
            let mut board1 = s.board;
            let lines1 = lock(&mut board1, l1.x, l1.y, l1.orientation());
            let p1 = placement(l1);
            let mut consider = |value: f64, second: Option<Placement>| {
                if best.as_ref().is_some_and(|b| value == b.0 && i == b.1) {
                    tie = true;
                }
                if best.as_ref().is_none_or(|b| value < b.0) {
                    tie = false;
                    best = Some((value, i, second));
                }
            };
            let Some(next) = s.next else {
                let outcome = PairOutcome {
                    first: p1,
                    second: p1,
                    lines_first: lines1,
                    lines_second: 0,
                    board: &board1,
                    level: s.level,
                };
                if let Some(v) = self.evaluator.evaluate(&outcome) {
                    consider(v, None);
                }
                continue;
            };
            let level1 = level_after(s.level, s.lines, lines1);
            let spawn = Active::spawn(next.spawn().id(), 0, 0);
            let speed2 = drop_speed(level1);
            let pairs = &mut self.pairs;
            let mut pair = |x: u8, y: u8, orientation: Orientation| {
                let mut board2 = board1;
                let lines2 = lock(&mut board2, x, y, orientation);
                let outcome = PairOutcome {
                    first: p1,
                    second: Placement { x, y, orientation },
                    lines_first: lines1,
                    lines_second: lines2,
                    board: &board2,
                    level: s.level,
                };
                if let Some(v) = self.evaluator.evaluate(&outcome) {
                    consider(v, Some(outcome.second));
                    if lookahead {
                        pairs.push(Pair {
                            first: i,
                            value: v,
                            second: outcome.second,
                            lines_second: lines2,
                            board: board2,
                            speed: drop_speed(level_after(s.level, s.lines, lines1 + lines2)),
                            level: s.level,
                        });
                    }
                }
            };
            // Only the next piece's lock set matters (the pair's first-lock order, which breaks
            // ties, comes from the first search), so the path-free search serves.
            if !unlimited {
                let seconds =
                    self.spawn_locks
                        .search(&board1, next, speed2, &self.profile, self.moves);
                for l2 in seconds {
                    pair(l2.x, l2.y, l2.orientation());
                }
                continue;
            }
            let fast = if self.moves.soft_drop {
                None
            } else {
                self.reach.search(&board1, spawn, PadState::NONE, speed2)
            };
            if let Some(seconds) = fast {
                for l2 in seconds {
                    pair(l2.x, l2.y, l2.orientation());
                }
            } else {
                self.map2.build(&board1, next);
                let seconds =
                    self.second
                        .search(spawn, PadState::NONE, speed2, &self.map2, self.moves);
                for l2 in seconds {
                    pair(l2.x, l2.y, l2.orientation());
                }
            }
        }
        if let (true, Some((v, i, _)), Some(next)) = (tie, best, s.next) {
            best = Some((v, i, self.first_in_bfs_order(s, i, next, v)));
        }
        if let (true, Some(next)) = (lookahead, s.next) {
            // Best two-piece value first; equal values by their first lock's BFS order.
            self.pairs
                .sort_unstable_by(|a, b| a.value.total_cmp(&b.value).then(a.first.cmp(&b.first)));
            let k = self.lookahead.top_k.min(self.pairs.len());
            let deadline = self.lookahead.deadline();
            if let Some(c) = self.third.choose(
                &self.evaluator,
                &self.pairs[..k],
                next,
                &self.profile,
                started,
                deadline,
            ) {
                let p = &self.pairs[c];
                best = Some((p.value, p.first, Some(p.second)));
            }
        }
        // Every pair rejected: take the deepest lock, the least bad way to go on.
        let (value, index, next_lock) = match best {
            Some((v, i, n)) => (Some(v), i, n),
            None => {
                let i = (0..self.firsts.len())
                    .max_by_key(|&i| (self.firsts[i].y, std::cmp::Reverse(i)))
                    .unwrap_or(0);
                (None, i, None)
            }
        };
        let chosen = self.firsts[index];
        let mut inputs = Vec::new();
        let mut expected = Vec::new();
        self.first.path(&chosen, &mut inputs, &mut expected);
        prefix_inputs.extend_from_slice(&inputs);
        prefix_expected.extend_from_slice(&expected);
        Some(Plan {
            inputs: prefix_inputs,
            expected: prefix_expected,
            lock: placement(&chosen),
            next_lock,
            value,
            candidates: self.firsts.len(),
            replan_after: None,
        })
    }
}
