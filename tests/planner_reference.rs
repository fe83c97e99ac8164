//! The planner against `search::reference` (the search before the path-free next-piece search):
//! in seeded self-play games every decision must be the same plan, so the games are the same.

use nestor::game::{Game, PlayState};
use nestor::lab::selfplay::SelfPlay;
use nestor::search::testing::ReferencePlanner;
use nestor::search::third::Lookahead;
use nestor::search::{Planner, Situation, Standard};

/// Plays `pieces` pieces of game `seed` from `level` with the planner, planning every decision
/// with the reference too; returns (decisions compared, score, lines, locks).
fn play_both(level: u8, seed: u64, pieces: u32) -> (u32, u32, u32, Vec<(u8, u8)>) {
    let mut planner = Planner::new(Standard::default());
    // The exact two-piece decision; the third-piece layer re-ranks its best pairs afterwards.
    planner.lookahead = Lookahead::OFF;
    let mut reference = ReferencePlanner::new(Standard::default());
    let mut game = Game::seeded(level, seed);
    let mut sp = SelfPlay::new(&mut planner, &game);
    let mut decisions = 0;
    while sp.stats.pieces < pieces && !sp.stats.topped_out && game.play_state != PlayState::Curtain
    {
        let fresh = game.play_state == PlayState::Control && sp.plan().is_none();
        let situation = Situation::of(&game);
        sp.input(&game);
        if fresh {
            let want = reference.plan(&situation);
            let got = sp.plan().cloned();
            assert_eq!(
                got, want,
                "level {level} seed {seed} piece {}: plans differ",
                sp.stats.pieces
            );
            decisions += 1;
        }
        sp.step(&mut game);
    }
    assert_eq!(sp.stats.desyncs, 0);
    (
        decisions,
        sp.stats.score,
        sp.stats.lines,
        sp.stats.locks.clone(),
    )
}

#[test]
fn the_same_plans_as_the_reference_search_in_seeded_games() {
    // Level 0 costs the reference about 20 ms a decision: fewer pieces there.
    for (level, games, pieces) in [(19u8, 5u64, 100u32), (29, 3, 100), (18, 2, 100), (0, 2, 40)] {
        for seed in 1..=games {
            let (decisions, _score, _lines, locks) = play_both(level, seed, pieces);
            assert!(
                decisions as usize >= locks.len() && locks.len() >= 10,
                "level {level} seed {seed}: only {} pieces played",
                locks.len()
            );
        }
    }
}
