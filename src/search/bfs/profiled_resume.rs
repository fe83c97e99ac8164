//! The dense profiled search's nodes on the empty board, kept per spawn start: as for the rows
//! search (`rows_resume.rs`), a board the piece fits as the empty board down to a row shares them.

// Without soft drop every node of a depth is on one row (the dense kernel's premise), and a
// node's frame reads the board only at that row (shift, turn) and the row below (the drop).
// The dense kernel's dedup stamps each depth afresh, so the children of a depth depend on its
// nodes, their pressed directions and those two rows alone. Every depth whose row and the row
// below fit every orientation and column as on the empty board therefore builds the empty
// board's nodes, in the same order with the same parents; a search copies them down to the
// first depth that reads a differing row (and before any lock) and expands on from there.
// Only spawns are kept (frame 0 of the piece): a start in flight is rarely met twice.

use crate::game::active::Active;
use crate::game::board::Board;
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::search::collision::CollisionMap;

use super::profiled::{DenseStates, Profiled, Rules, States};
use super::ring::Ring;
use super::{Bfs, Node, Run, Step};

/// Starts kept: the seven pieces at two gravities, each with a few DAS counters or timelines.
const OPEN_KEYS: usize = 32;

/// Starts met once and not kept: a start is kept when met again while still listed here.
/// Under a hold profile the next piece's start carries the first lock's DAS counter, so most
/// starts of the tie-break search (`plan.rs`, `AfterSearch`) come once: keeping each would pay
/// the empty board's search on top of its own.
const MET_KEYS: usize = 64;

/// What a search's nodes depend on besides the board: start, root holds, gravity, rules.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    start: Active,
    roots: [PadState; 3],
    n_roots: usize,
    speed: u8,
    rules: Rules,
}

impl Key {
    fn of(r: &Run) -> Key {
        let mut roots = [PadState::NONE; 3];
        roots[..r.roots.len()].copy_from_slice(r.roots);
        Key {
            start: r.start,
            roots,
            n_roots: r.roots.len(),
            speed: r.speed,
            rules: r.rules,
        }
    }
}

/// Where a depth of the empty board's search starts: its first node, its row, and how many
/// locks were recorded before it was expanded.
#[derive(Clone, Copy)]
struct Mark {
    start: usize,
    y: u8,
    locks: usize,
}

/// One start's search on the empty board.
struct Open {
    key: Key,
    map: CollisionMap,
    nodes: Vec<Node>,
    pressed: Vec<u8>,
    marks: Vec<Mark>,
}

/// The empty-board searches of the last few spawn starts (allocated as starts come).
#[derive(Default)]
pub(super) struct DenseOpens {
    opens: Ring<Open>,
    /// Starts met once, not kept (a ring of `MET_KEYS`).
    met: Vec<Key>,
    met_next: usize,
    /// Never keep nor resume (`Bfs::once`).
    pub(super) off: bool,
}

/// Dense states that also mark where each depth starts (the empty board's search).
struct Marking {
    dense: DenseStates,
    marks: Vec<Mark>,
}

impl States for Marking {
    #[inline(always)]
    fn tag(&mut self, bfs: &Bfs, i: usize, n: &Node, frame: u32) -> u32 {
        if usize::from(n.frames) == self.marks.len() {
            self.marks.push(Mark {
                start: i,
                y: n.state.y,
                locks: bfs.locks.len(),
            });
        }
        self.dense.tag(bfs, i, n, frame)
    }

    #[inline(always)]
    fn first(&mut self, bfs: &mut Bfs, tag: u32, s: &Step, pressed: u8) -> bool {
        self.dense.first(bfs, tag, s, pressed)
    }
}

impl DenseOpens {
    /// True when `key` (not kept) was met before; else it is listed as met.
    fn met_again(&mut self, key: Key) -> bool {
        if let Some(m) = self.met.iter().position(|k| *k == key) {
            self.met.swap_remove(m);
            self.met_next = self.met_next.min(self.met.len());
            return true;
        }
        if self.met.len() < MET_KEYS {
            self.met.push(key);
        } else {
            self.met[self.met_next] = key;
            self.met_next = (self.met_next + 1) % MET_KEYS;
        }
        false
    }
}

impl Bfs {
    /// Puts the nodes (and their pressed directions) of `r`'s dense search that the empty
    /// board's search shares into `self.nodes` and returns the first node to expand: the roots
    /// and 0 when `r` is not a spawn, its start is met for the first time, or resuming is off.
    pub(super) fn dense_resume(&mut self, r: &Run) -> usize {
        if self.dense_opens.off || r.rules.offset != 0 {
            self.profiled_roots(r);
            return 0;
        }
        let key = Key::of(r);
        let e = match self.dense_opens.opens.position(|o| o.key == key) {
            Some(e) => e,
            None if self.dense_opens.met_again(key) => self.dense_open(r, key),
            None => {
                self.profiled_roots(r);
                return 0;
            }
        };
        let open = &self.dense_opens.opens[e];
        // A depth at row y reads rows y and y + 1.
        let differs = usize::from(r.map.first_difference(&open.map));
        let mut at = 0;
        for (d, m) in open.marks.iter().enumerate() {
            if m.locks > 0 {
                break;
            }
            at = d;
            if usize::from(m.y) + 1 >= differs {
                break;
            }
        }
        let end = open.marks.get(at + 1).map_or(open.nodes.len(), |m| m.start);
        self.nodes.extend_from_slice(&open.nodes[..end]);
        self.pressed.clear();
        self.pressed.extend_from_slice(&open.pressed[..end]);
        open.marks.get(at).map_or(0, |m| m.start)
    }

    /// Runs `r`'s search on the empty board into a new (or the evicted) entry and leaves this
    /// search fresh again; returns the entry's index.
    #[cold]
    fn dense_open(&mut self, r: &Run, key: Key) -> usize {
        let piece = Orientation::new(r.start.id)
            .expect("the dense kernel's start")
            .piece();
        let map = CollisionMap::new(&Board::EMPTY, piece);
        let empty = Run { map: &map, ..*r };
        self.profiled_roots(&empty);
        let mut marking = Profiled {
            rules: r.rules,
            states: Marking {
                dense: self.dense_states(&empty),
                marks: Vec::with_capacity(64),
            },
        };
        self.expand(&mut marking, &empty, 0);
        self.dense_done(&marking.states.dense);
        let open = Open {
            key,
            map,
            nodes: self.nodes.clone(),
            pressed: self.pressed.clone(),
            marks: marking.states.marks,
        };
        // The empty board's locks and visited marks must not leak into the search itself.
        self.next_epoch(r.speed);
        self.nodes.clear();
        self.locks.clear();
        self.dense_opens.opens.keep(open, OPEN_KEYS)
    }
}

#[cfg(test)]
mod tests {
    use super::super::rows_resume::tests::random_board;
    use super::*;
    use crate::game::board::Collide;
    use crate::game::piece::Piece;
    use crate::game::pos::Pos;
    use crate::game::score::drop_speed;
    use crate::search::bfs::{Lock, MoveSet};
    use crate::search::kernel::{Kernel, LockQuery};
    use crate::search::profile::{preset_names, PieceProgress, Profile};

    /// Every kept node with its pressed directions, then every lock with its path and root.
    type Outcome = (
        Vec<(Active, usize, u16, u8)>,
        Vec<(Lock, Vec<PadState>, Vec<Pos>, PadState)>,
    );

    /// `profiled`: the query's kernel keeps pressed directions (stale otherwise).
    fn outcome(bfs: &mut Bfs, q: &LockQuery, map: &CollisionMap, profiled: bool) -> Outcome {
        bfs.search_query(q, map);
        let locks = bfs
            .locks()
            .iter()
            .map(|l| {
                let (mut inputs, mut expected) = (Vec::new(), Vec::new());
                bfs.path(l, &mut inputs, &mut expected);
                (*l, inputs, expected, bfs.root_hold(l))
            })
            .collect();
        let nodes = bfs
            .reached()
            .enumerate()
            .map(|(i, (a, p, f))| (a, p, f, if profiled { bfs.pressed[i] } else { 0 }))
            .collect();
        (nodes, locks)
    }

    #[test]
    fn a_resumed_dense_search_has_the_nodes_locks_and_paths_of_a_fresh_one() {
        // One search reused over many boards, so that its kept starts are resumed from (and
        // evicted), against a search that never resumes and the keyed kernel.
        let profiles: Vec<Profile> = preset_names()
            .into_iter()
            .map(|n| Profile::preset(n).unwrap())
            .collect();
        let mut resumed = Bfs::new();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let (mut compared, mut dense) = (0, 0);
        for round in 0..40 {
            let board = random_board(&mut rng, round % 19);
            for level in [18u8, 19, 29] {
                let speed = drop_speed(level);
                for profile in &profiles {
                    for piece in Piece::ALL {
                        let map = CollisionMap::new(&board, piece);
                        let moves = MoveSet::default();
                        let spawn = LockQuery::spawn(&board, piece, speed, profile, moves);
                        // Spawns after a lock that left the DAS counter at 0, 10 or 16 (a
                        // hold profile's entry query), and one in flight (never kept).
                        let mut queries: Vec<LockQuery> = [0u8, 10, 16]
                            .map(|das| {
                                LockQuery::after_lock(&board, piece, speed, profile, moves, das)
                            })
                            .into();
                        let mut later = spawn.start;
                        later.fall_timer = 1;
                        let progress = PieceProgress {
                            frames: 3,
                            ..PieceProgress::default()
                        };
                        queries.push(spawn.at(later, PadState::NONE, progress));
                        for q in &queries {
                            if !board.fits(q.start.x, q.start.y, q.start.id) {
                                continue;
                            }
                            let kernel =
                                Kernel::choose(&q.start, speed, moves, profile, q.progress, true);
                            let profiled = matches!(kernel, Kernel::Dense | Kernel::Keyed);
                            let want = outcome(&mut Bfs::once(), q, &map, profiled);
                            let got = outcome(&mut resumed, q, &map, profiled);
                            let at =
                                format!("round {round} {} {piece:?} level {level}", profile.name);
                            assert_eq!(got, want, "{at}");
                            if kernel == Kernel::Dense {
                                let keyed = outcome(&mut Bfs::keyed(), q, &map, true);
                                assert_eq!(got.1, keyed.1, "{at}");
                                dense += 1;
                            }
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(dense > 5000 && compared > dense, "{dense} of {compared}");
    }
}
