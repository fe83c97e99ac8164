//! The two-piece planner: search the current piece from its in-flight state, lock each
//! reachable placement, search the next piece from its spawn, evaluate every pair, and return
//! the button byte for every frame of the best pair's first placement.

use crate::game::active::{Active, Control};
use crate::game::board::Board;
use crate::game::pad::PadState;
use crate::game::piece::{Orientation, Piece};
use crate::game::score::{add_line, drop_speed};
use crate::game::state::Game;

use super::bfs::{Bfs, Lock, MoveSet};
use super::collision::CollisionMap;
use super::eval::{Evaluator, PairOutcome, Placement};

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
}

/// Planner state reused from one decision to the next: the BFS arrays are allocated once; a
/// decision allocates only the plan it returns.
pub struct Planner<E: Evaluator> {
    pub evaluator: E,
    pub moves: MoveSet,
    first: Bfs,
    second: Bfs,
    map1: CollisionMap,
    map2: CollisionMap,
    firsts: Vec<Lock>,
}

fn placement(l: &Lock) -> Placement {
    Placement {
        x: l.x,
        y: l.y,
        orientation: l.orientation(),
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
            first: Bfs::new(),
            second: Bfs::new(),
            map1: CollisionMap::default(),
            map2: CollisionMap::default(),
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

    /// Plans the current piece. `None` when no piece is shown (orientation id $13) or no lock
    /// is reachable.
    pub fn plan(&mut self, s: &Situation) -> Option<Plan> {
        let orientation = Orientation::new(s.active.id)?;
        let piece = orientation.piece();
        let speed = drop_speed(s.level);
        self.map1.build(&s.board, piece);
        let mut prefix_inputs = Vec::new();
        let mut prefix_expected = Vec::new();
        let (start, prev, locked) =
            Self::end_first_piece_delay(s, &self.map1, &mut prefix_inputs, &mut prefix_expected);
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
            });
        }
        self.firsts.clear();
        self.firsts.extend_from_slice(
            self.first
                .search(start, prev, speed, &self.map1, self.moves),
        );
        if self.firsts.is_empty() {
            return None;
        }
        let mut best: Option<(f64, usize, Option<Placement>)> = None;
        for (i, l1) in self.firsts.iter().enumerate() {
            let mut board1 = s.board;
            let lines1 = board1.lock(l1.x, l1.y, l1.orientation());
            let p1 = placement(l1);
            let mut consider = |value: f64, second: Option<Placement>| {
                if best.as_ref().is_none_or(|b| value < b.0) {
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
            self.map2.build(&board1, next);
            let spawn = Active::spawn(next.spawn().id(), 0, 0);
            let seconds = self.second.search(
                spawn,
                PadState::NONE,
                drop_speed(level1),
                &self.map2,
                self.moves,
            );
            for l2 in seconds {
                let mut board2 = board1;
                let lines2 = board2.lock(l2.x, l2.y, l2.orientation());
                let outcome = PairOutcome {
                    first: p1,
                    second: placement(l2),
                    lines_first: lines1,
                    lines_second: lines2,
                    board: &board2,
                    level: s.level,
                };
                if let Some(v) = self.evaluator.evaluate(&outcome) {
                    consider(v, Some(outcome.second));
                }
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
        })
    }
}
