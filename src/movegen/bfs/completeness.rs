//! Completeness of the profiled search: an exhaustive enumeration of controller states under a
//! profile, written apart from the BFS, reaches exactly the BFS's locks (issue 12, item 2).

// The enumeration knows nothing of the search's key: a state is the whole `Active` (DAS counter
// and soft-drop points included), every button held in the last frame, the frame's place in
// the timeline's period and the directions pressed so far; every one of the 16 sets of Left,
// Right, A and B is tried on every frame against the profile's rules as the profile files
// state them, on the board itself (not the collision map). Only equal states are merged.

use std::collections::{BTreeSet, HashSet, VecDeque};

use crate::game::active::{Active, Control};
use crate::game::board::Board;
use crate::game::pad::{Buttons, PadState};
use crate::game::piece::{Orientation, Piece};
use crate::game::score::drop_speed;
use crate::movegen::collision::CollisionMap;
use crate::movegen::fixtures::boards::TALL;
use crate::movegen::profile::{PieceProgress, Profile, Shift, PRESETS};
use crate::movegen::reach::Reach;

use super::{Bfs, MoveSet};
use crate::movegen::kernel::LockQuery;

type Locks = BTreeSet<(u8, u8, u8)>;

/// A state the enumeration passed through: where a plan could be made again.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    state: Active,
    prev: PadState,
    progress: PieceProgress,
}

/// May a player of `profile` hold `held` on piece frame `frame` after `prev`, having newly
/// pressed the directions `pressed` earlier in the piece? Straight from the profile files:
/// new presses of Left, Right, A, B only on the timeline's X frames (under `unlimited`, any
/// frame: a held button is simply not newly pressed); A and B pressed one frame only; never
/// Left and Right together; a direction held two frames running only when holds are allowed;
/// under `hold`, each direction newly pressed at most once a piece.
fn legal(profile: &Profile, held: PadState, prev: PadState, frame: u32, pressed: PadState) -> bool {
    let newly = held.newly_from(prev);
    if held.contains(PadState::LEFT | PadState::RIGHT) {
        return false;
    }
    for b in [PadState::LEFT, PadState::RIGHT, PadState::A, PadState::B] {
        if newly.intersects(b) && !profile.timeline.allows(frame) {
            return false;
        }
        let kept = held.intersects(b) && prev.intersects(b);
        let direction = b == PadState::LEFT || b == PadState::RIGHT;
        if kept && (!direction || profile.shift == Shift::Tap) {
            return false;
        }
        if direction && profile.shift == Shift::Hold && newly.intersects(b) && pressed.intersects(b)
        {
            return false;
        }
    }
    true
}

/// Every lock reachable from the start, and the states passed on the way.
fn enumerate(
    board: &Board,
    start: InFlight,
    speed: u8,
    profile: &Profile,
) -> (Locks, Vec<(InFlight, u32)>) {
    let period = u32::from(profile.timeline.period());
    let mut locks = Locks::new();
    let mut seen = HashSet::new();
    let mut passed = Vec::new();
    let mut queue = VecDeque::new();
    let f0 = u32::from(start.progress.frames);
    queue.push_back((start.state, start.prev, f0, start.progress.pressed, 0u32));
    seen.insert((start.state, start.prev, f0 % period, start.progress.pressed));
    while let Some((state, prev, frame, pressed, depth)) = queue.pop_front() {
        for bits in 0..16u8 {
            // Bits: Right, Left, B, A.
            let held = PadState((bits & 0x03) | ((bits & 0x0C) << 4));
            if !legal(profile, held, prev, frame, pressed) {
                continue;
            }
            let b = Buttons::after(held, prev);
            let mut a = state;
            let pressed = pressed.union(PadState(b.newly.0 & 0x03));
            match a.frame(b, speed, board) {
                Control::Locked => {
                    locks.insert((a.x, a.y, a.id));
                }
                Control::Falling => {
                    if seen.insert((a, held, (frame + 1) % period, pressed)) {
                        queue.push_back((a, held, frame + 1, pressed, depth + 1));
                        let progress = PieceProgress {
                            frames: (frame + 1) as u16,
                            pressed,
                            ..PieceProgress::default()
                        };
                        let here = InFlight {
                            state: a,
                            prev: held,
                            progress,
                        };
                        passed.push((here, depth + 1));
                    }
                }
            }
        }
    }
    (locks, passed)
}

/// The searches a test compares: the planner's (dense where it can) and the keyed oracle.
struct Searches {
    bfs: Bfs,
    keyed: Bfs,
}

impl Searches {
    fn new() -> Searches {
        Searches {
            bfs: Bfs::new(),
            keyed: Bfs::keyed(),
        }
    }
}

/// The query of a search from `from` under `profile`.
fn query<'a>(board: &'a Board, from: InFlight, speed: u8, profile: &'a Profile) -> LockQuery<'a> {
    let piece = Orientation::new(from.state.id).unwrap().piece();
    LockQuery::spawn(board, piece, speed, profile, MoveSet::default()).at(
        from.state,
        from.prev,
        from.progress,
    )
}

/// The BFS's locks, by the dense search and by the hashed key (both must agree).
fn bfs_locks(s: &mut Searches, board: &Board, from: InFlight, speed: u8, p: &Profile) -> Locks {
    let piece = Orientation::new(from.state.id).unwrap().piece();
    let map = CollisionMap::new(board, piece);
    let q = query(board, from, speed, p);
    let [keyed, got]: [Locks; 2] = [&mut s.keyed, &mut s.bfs].map(|bfs| {
        bfs.search_query(&q, &map)
            .iter()
            .map(|l| (l.at.x, l.at.y, l.at.id()))
            .collect()
    });
    assert_eq!(got, keyed, "dense and keyed searches differ");
    got
}

/// Columns 0-3 walled from the top to row 10, a two-row cave at rows 11-12, walled below: at
/// level 29 an O beside the wall lines up with the cave on frame 11 only.
const CAVE: &str = "####......\n####......\n####......\n####......\n####......\n\
     ####......\n####......\n####......\n####......\n####......\n\
     ####......\n..........\n..........\n####......\n####......\n\
     ####......\n####......\n####......\n####......\n####......";

/// The empty board, the benches' mid-game board and a tall ragged stack.
fn boards() -> [Board; 3] {
    [
        Board::EMPTY,
        crate::movegen::fixtures::mid_board(),
        Board::from_text(TALL).unwrap(),
    ]
}

fn profiles() -> Vec<Profile> {
    let mut all: Vec<Profile> = PRESETS
        .iter()
        .map(|(n, _)| Profile::preset(n).unwrap())
        .collect();
    // A file may combine what no preset does: holds and taps on a slow timeline.
    let both = "timeline = \"X..\"\nshift = \"both\"\nreaction = 0\nstart_delay = 0\n";
    all.push(Profile::from_toml(both, "both.toml", "both").unwrap());
    all
}

fn spawn(piece: Piece) -> InFlight {
    InFlight {
        state: Active::spawn(piece.spawn().id(), 0, 0),
        prev: PadState::NONE,
        progress: PieceProgress::default(),
    }
}

#[test]
fn every_profile_reaches_exactly_the_enumerated_locks_from_spawn_and_in_flight() {
    let boards = boards();
    let mut bfs = Searches::new();
    let mut reach = Reach::new();
    let mut searched = 0;
    for profile in profiles() {
        for level in [8u8, 18, 19, 29] {
            let speed = drop_speed(level);
            for (b, board) in boards.iter().enumerate() {
                // Two pieces per board and level, in turn, to keep the test short.
                let k = (b * 2 + level as usize) % Piece::NUM;
                for piece in [Piece::ALL[k], Piece::ALL[(k + 3) % Piece::NUM]] {
                    let from = spawn(piece);
                    let (want, passed) = enumerate(board, from, speed, &profile);
                    let got = bfs_locks(&mut bfs, board, from, speed, &profile);
                    let what = format!("{} level {level} board {b} {piece:?}", profile.name);
                    assert_eq!(got, want, "{what}");
                    searched += 1;
                    if profile.shift == Shift::Tap && profile.timeline.period() > 1 {
                        let quick: Locks = reach
                            .search_timeline(
                                board,
                                from.state,
                                from.prev,
                                speed,
                                profile.timeline,
                                0,
                            )
                            .expect("a modelled start")
                            .iter()
                            .map(|l| (l.at.x, l.at.y, l.at.id()))
                            .collect();
                        assert_eq!(quick, want, "bit sets: {what}");
                    }
                    // In flight: states a few frames in, with the phase and the pressed
                    // directions they carry (a few per search).
                    for &(inflight, _) in passed
                        .iter()
                        .filter(|(_, d)| (3..=12).contains(d))
                        .step_by(97)
                        .take(3)
                    {
                        let (want, _) = enumerate(board, inflight, speed, &profile);
                        let got = bfs_locks(&mut bfs, board, inflight, speed, &profile);
                        assert_eq!(got, want, "{what} from {inflight:?}");
                        searched += 1;
                    }
                }
            }
        }
    }
    assert!(searched > 300, "{searched}");
}

#[test]
fn held_das_reaches_a_cave_taps_cannot_and_taps_reach_what_das_cannot() {
    let cave = Board::from_text(CAVE).unwrap();
    let speed = drop_speed(29);
    let o = spawn(Piece::O);
    let mut bfs = Searches::new();
    let in_cave = (4u8, 11u8, Piece::O.spawn().id());
    let far_right = (9u8, 18u8, Piece::O.spawn().id());
    for name in ["das", "30hz", "unlimited", "15hz"] {
        let p = Profile::preset(name).unwrap();
        let (want, _) = enumerate(&cave, o, speed, &p);
        let got = bfs_locks(&mut bfs, &cave, o, speed, &p);
        assert_eq!(got, want, "{name}");
        // Held against the wall, DAS retries the shift every frame and meets the cave on frame
        // 11; a 30 Hz tap falls on even frames only; unlimited taps choose their frame.
        assert_eq!(
            got.contains(&in_cave),
            name != "30hz" && name != "15hz",
            "{name}"
        );
        let (want, _) = enumerate(&Board::EMPTY, o, speed, &p);
        let got = bfs_locks(&mut bfs, &Board::EMPTY, o, speed, &p);
        assert_eq!(got, want, "{name} empty");
        // Four shifts right before the O lands: taps do it in 8 frames; a held direction
        // shifts at once, then 16 frames later (the piece has landed by the third).
        assert_eq!(got.contains(&far_right), name != "das", "{name} far right");
    }
}

#[test]
fn the_unlimited_profile_is_the_unprofiled_search() {
    let board = crate::movegen::fixtures::mid_board();
    let p = Profile::default();
    let mut a = Bfs::new();
    let mut b = Bfs::new();
    for piece in Piece::ALL {
        let from = spawn(piece);
        let map = CollisionMap::new(&board, piece);
        let plain: Vec<_> = a
            .search(from.state, from.prev, 2, &map, MoveSet::default())
            .to_vec();
        let profiled = b.search_query(&query(&board, from, 2, &p), &map).to_vec();
        assert_eq!(plain, profiled);
    }
}

/// The hold profiles (the `das` preset and a file's `both`).
fn holding_profiles() -> Vec<Profile> {
    profiles().into_iter().filter(|p| p.shift.holds()).collect()
}

#[test]
fn a_carried_das_charge_reaches_exactly_the_enumerated_locks() {
    let boards = boards();
    let mut bfs = Searches::new();
    let mut searched = 0;
    for profile in holding_profiles() {
        for level in [18u8, 19, 29] {
            let speed = drop_speed(level);
            for (b, board) in boards.iter().enumerate() {
                let k = (b * 3 + level as usize) % Piece::NUM;
                for piece in [Piece::ALL[k], Piece::ALL[(k + 2) % Piece::NUM]] {
                    let piece_map = CollisionMap::new(board, piece);
                    // Charged (16), partly charged, fresh; held Left, Right or not at all.
                    let mut union = [Locks::new(), Locks::new(), Locks::new(), Locks::new()];
                    for (d, das) in [16u8, 15, 11, 3].into_iter().enumerate() {
                        for prev in [PadState::NONE, PadState::LEFT, PadState::RIGHT] {
                            let from = InFlight {
                                state: Active::spawn(piece.spawn().id(), das, 0),
                                prev,
                                progress: PieceProgress::default(),
                            };
                            let (want, _) = enumerate(board, from, speed, &profile);
                            let got = bfs_locks(&mut bfs, board, from, speed, &profile);
                            let what = format!(
                                "{} level {level} board {b} {piece:?} das {das} {prev}",
                                profile.name
                            );
                            assert_eq!(got, want, "{what}");
                            union[d].extend(want);
                            searched += 1;
                        }
                        // The entry search (the hold chosen at the spawn) is the union of the
                        // three, and each lock's counter is the one its path leaves.
                        let start = Active::spawn(piece.spawn().id(), das, 0);
                        let from = InFlight {
                            state: start,
                            prev: PadState::NONE,
                            progress: PieceProgress::default(),
                        };
                        let q = LockQuery {
                            entry: true,
                            ..query(board, from, speed, &profile)
                        };
                        let bfs = &mut bfs.bfs;
                        let locks = bfs.search_query(&q, &piece_map).to_vec();
                        let got: Locks =
                            locks.iter().map(|l| (l.at.x, l.at.y, l.at.id())).collect();
                        assert_eq!(
                            got, union[d],
                            "entry: {} level {level} das {das}",
                            profile.name
                        );
                        let (mut inputs, mut expected) = (Vec::new(), Vec::new());
                        for l in &locks {
                            let mut prev = bfs.root_hold(l);
                            bfs.path(l, &mut inputs, &mut expected);
                            let mut a = start;
                            let mut end = Control::Falling;
                            for &i in &inputs {
                                end = a.frame(Buttons::after(i, prev), speed, board);
                                prev = i;
                            }
                            assert_eq!(end, Control::Locked, "{l:?}");
                            assert_eq!(
                                (a.x, a.y, a.id, a.das),
                                (l.at.x, l.at.y, l.at.id(), l.das),
                                "{l:?}"
                            );
                        }
                    }
                    // A charge never loses a lock the fresh counter reaches with the choice
                    // of hold at the spawn.
                    assert!(union[0].is_superset(&union[3]), "{piece:?} level {level}");
                }
            }
        }
    }
    assert!(searched > 400, "{searched}");
}
