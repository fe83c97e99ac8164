//! The planner against the rules model: every plan replays exactly, and the BFS finds exactly
//! the locks an exhaustive frame-by-frame enumeration over all button combinations finds.

use std::collections::{HashSet, VecDeque};

use nestor::game::active::{Active, Control};
use nestor::game::{
    Board, Buttons, Collide, Events, Game, PadState, Piece, PlayState, Playfield, Pos,
};
use nestor::movegen::{LockQuery, LockSets, MoveSet, PieceProgress, Profile};
use nestor::search::eval::Standard;
use nestor::search::{Planner, Situation};

/// Every (x, y, id) where the piece can lock from `start`, trying on every frame all 36 button
/// states a standard controller can produce (A, B, and the nine D-pad states: no opposite
/// directions together), with the complete piece state (DAS counter included) as the key.
fn exhaustive_locks(
    board: &Board,
    start: Active,
    prev: PadState,
    speed: u8,
) -> HashSet<(u8, u8, u8)> {
    let mut seen = HashSet::new();
    let mut locks = HashSet::new();
    let mut queue = VecDeque::new();
    let key = |a: &Active, p: PadState| (a.x, a.y, a.id, a.fall_timer, a.das, a.ary, p.0);
    seen.insert(key(&start, prev));
    queue.push_back((start, prev));
    while let Some((a, p)) = queue.pop_front() {
        const DPAD: [u8; 9] = [0x00, 0x08, 0x04, 0x02, 0x01, 0x0A, 0x09, 0x06, 0x05];
        for held in DPAD
            .iter()
            .flat_map(|&d| [0x00, 0x80, 0x40, 0xC0].map(|ab| PadState(d | ab)))
        {
            let mut n = a;
            match n.frame(Buttons::after(held, p), speed, board) {
                Control::Locked => {
                    locks.insert((n.x, n.y, n.id));
                }
                Control::Falling => {
                    if seen.insert(key(&n, held)) {
                        queue.push_back((n, held));
                    }
                }
            }
        }
    }
    locks
}

fn bfs_locks(board: &Board, start: Active, prev: PadState, speed: u8) -> HashSet<(u8, u8, u8)> {
    let piece = nestor::game::Orientation::new(start.id).unwrap().piece();
    let mut searches = LockSets::new();
    let q = LockQuery::spawn(
        board,
        piece,
        speed,
        Profile::unlimited(),
        MoveSet::default(),
    )
    .at(start, prev, PieceProgress::default());
    searches
        .search_paths(&q)
        .iter()
        .map(|l| (l.at.x, l.at.y, l.at.id()))
        .collect()
}

/// Locks reachable by moving and turning in row 0 and then falling straight down.
fn straight_drops(board: &Board, piece: Piece) -> HashSet<(u8, u8, u8)> {
    let mut out = HashSet::new();
    for o in nestor::game::Orientation::all().filter(|o| o.piece() == piece) {
        for x in 0..10u8 {
            if !board.fits(x, 0, o.id()) {
                continue;
            }
            let mut y = 0;
            while board.fits(x, y + 1, o.id()) {
                y += 1;
            }
            out.insert((x, y, o.id()));
        }
    }
    out
}

/// The stacks the unit tests share: one definition, included by path (the integration tests
/// cannot see the library's test-only items).
#[path = "../src/movegen/fixtures/boards.rs"]
#[allow(dead_code)]
mod boards;

const OVERHANG_BOARDS: [&str; 3] = [boards::ROOF, boards::T_SLOT, boards::TWO_CAVES];

#[test]
fn bfs_finds_exactly_the_reachable_locks_tucks_and_spins_included() {
    let mut tucks = 0;
    for (b, text) in OVERHANG_BOARDS.iter().enumerate() {
        let board = Board::from_text(text).unwrap();
        for level in [19u8, 29, 18, 8] {
            // A slow level multiplies the enumeration's states by its fall-timer range: one
            // board is enough there to check the waiting rules.
            if level == 8 && b > 0 {
                continue;
            }
            let speed = nestor::game::score::drop_speed(level);
            for piece in Piece::ALL {
                let start = Active::spawn(piece.spawn().id(), 0, 0);
                let reference = exhaustive_locks(&board, start, PadState::NONE, speed);
                let found = bfs_locks(&board, start, PadState::NONE, speed);
                let missing: Vec<_> = reference.difference(&found).collect();
                let extra: Vec<_> = found.difference(&reference).collect();
                assert!(
                    missing.is_empty() && extra.is_empty(),
                    "board {b}, level {level}, {piece:?}: missing {missing:?}, not reachable {extra:?}"
                );
                if level == 19 {
                    tucks += found.difference(&straight_drops(&board, piece)).count();
                }
            }
        }
    }
    assert!(
        tucks > 20,
        "the boards must exercise tucks and spins ({tucks} found)"
    );
}

#[test]
fn bfs_matches_the_enumeration_from_in_flight_states() {
    let board = Board::from_text(OVERHANG_BOARDS[0]).unwrap();
    // Mid-fall, with a button held and the fall timer part-way, as after a desync.
    let cases = [
        (Piece::T.spawn().id(), 4u8, 6u8, 1u8, PadState::LEFT),
        (Piece::L.spawn().id(), 7, 3, 0, PadState::A),
        (0x11, 8, 5, 1, PadState::RIGHT | PadState::B),
        (Piece::S.spawn().id(), 2, 2, 1, PadState::DOWN),
    ];
    for (id, x, y, ft, prev) in cases {
        let mut start = Active::spawn(id, 16, 0);
        (start.x, start.y, start.fall_timer) = (x, y, ft);
        assert!(board.fits(x, y, id));
        let reference = exhaustive_locks(&board, start, prev, 2);
        let found = bfs_locks(&board, start, prev, 2);
        assert_eq!(found, reference, "id {id} at ({x},{y}) ft {ft} prev {prev}");
    }
}

/// SplitMix64, so the property test needs no extra crate and names its failing seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_board(rng: &mut Rng) -> Board {
    let mut b = Board::EMPTY;
    let base = rng.below(14) as i8;
    for c in 0..10u8 {
        let h = (base + rng.below(5) as i8 - 2).clamp(0, 17);
        for r in (20 - h)..20 {
            if rng.below(8) != 0 {
                b.set(r, c);
            }
        }
    }
    // Never a full row (the planner gets the board after the last clear).
    for r in 0..20i8 {
        if b.rows[(r + 2) as usize] == 0x3FF {
            b.rows[(r + 2) as usize] &= !(1 << rng.below(10));
        }
    }
    if rng.below(10) == 0 {
        b.set(-1, rng.below(10) as u8);
    }
    b
}

#[test]
fn every_plan_replays_exactly_through_the_rules_model() {
    let mut planner = Planner::new(Standard::default());
    let mut rng = Rng(2024);
    let mut checked = 0;
    let mut in_flight = 0;
    while checked < 2000 {
        let seed = rng.0;
        let board = random_board(&mut rng);
        let level =
            [0u8, 5, 9, 12, 15, 18, 19, 19, 19, 19, 22, 28, 29, 29, 35][rng.below(15) as usize];
        let piece = Piece::ALL[rng.below(7) as usize];
        let next = Piece::ALL[rng.below(7) as usize];
        let mut active = Active::spawn(piece.spawn().id(), rng.below(17) as u8, 0);
        let mut prev = PadState::NONE;
        match rng.below(4) {
            0 => active.ary = 0xA0 + rng.below(96) as u8, // first-piece delay
            1 => {
                // In flight: somewhere the piece fits, mid fall timer, a tap held.
                let o = nestor::game::Orientation::all()
                    .filter(|o| o.piece() == piece)
                    .nth(
                        rng.below(4) as usize
                            % if piece == Piece::O {
                                1
                            } else if matches!(piece, Piece::S | Piece::Z | Piece::I) {
                                2
                            } else {
                                4
                            },
                    )
                    .unwrap();
                let (x, y) = (rng.below(10) as u8, rng.below(12) as u8);
                if !board.fits(x, y, o.id()) {
                    continue;
                }
                (active.x, active.y, active.id) = (x, y, o.id());
                active.fall_timer = rng.below(nestor::game::score::drop_speed(level) as u64) as u8;
                prev = [
                    PadState::NONE,
                    PadState::LEFT,
                    PadState::RIGHT | PadState::A,
                    PadState::B,
                    PadState::DOWN,
                ][rng.below(5) as usize];
                in_flight += 1;
            }
            _ => {}
        }
        if !board.fits(active.x, active.y, active.id) {
            continue;
        }
        let situation = Situation {
            board,
            active,
            prev,
            level,
            lines: [0x37, 0x01],
            next: Some(next),
            progress: Default::default(),
        };
        let plan = planner
            .plan(&situation)
            .unwrap_or_else(|| panic!("seed {seed}: no plan"));
        assert_eq!(plan.inputs.len(), plan.expected.len());

        let mut game = Game::new(level, 0x1234, 0, 0);
        game.field = Playfield::from_board(&board);
        game.active = active;
        game.held = prev;
        game.vram_row = 0x20;
        for (f, (&input, &want)) in plan.inputs.iter().zip(&plan.expected).enumerate() {
            assert_eq!(
                game.play_state,
                PlayState::Control,
                "seed {seed}: locked early at frame {f}"
            );
            assert_ne!(input.0, 0x07, "never Down+Left+Right");
            let ev: Events = game.step(input);
            assert_eq!(Pos::of(&game.active), Some(want), "seed {seed}: frame {f}");
            let last = f + 1 == plan.inputs.len();
            assert_eq!(ev.locked.is_some(), last, "seed {seed}: lock on frame {f}");
            if last {
                let l = plan.lock;
                assert_eq!(ev.locked, Some(l), "seed {seed}");
            }
        }
        checked += 1;
    }
    assert!(in_flight > 200);
}
