//! The coach on the rules model: placements of known ranks substituted into a game are found
//! with those ranks, a driver game is rated best, and RAM without a game is an error.

use std::collections::{BTreeMap, VecDeque};

use super::analysis::{AnalysisError, Analyzer};
use super::classes::{Class, CoachSettings};
use super::summary::Summary;
use crate::game::state::PlayState;
use crate::game::{Game, PadState};
use crate::nes::{test_consoles, AddressMap, Console, ConsoleError, ModelConsole, Step};
use crate::search::rank::Ranker;
use crate::search::{Situation, Standard, Weights};

fn analyzer() -> Analyzer<Standard> {
    Analyzer::new(
        Standard::new(Weights::default_set()),
        AddressMap::default(),
        CoachSettings::default().classes,
    )
}

/// Plays a model game choosing, at the decisions in `worse`, the first placement ranked 5th or worse
/// (else the best); returns the pads and, per substituted decision number, the rank played.
fn record_with_substitutions(
    level: u8,
    seed: u64,
    pieces: usize,
    worse: &[usize],
) -> (Vec<PadState>, BTreeMap<usize, usize>) {
    let mut ranker = Ranker::new(Standard::new(Weights::default_set()));
    let mut game = Game::seeded(level, seed);
    let mut pads = Vec::new();
    let mut played = BTreeMap::new();
    let mut queue: VecDeque<PadState> = VecDeque::new();
    let mut prev = None;
    let mut decisions = 0;
    let mut target = None;
    while decisions < pieces && !game.is_over() {
        let control = game.play_state == PlayState::Control;
        if control && prev != Some(PlayState::Control) {
            let ranking = ranker
                .rank(&Situation::of(&game))
                .expect("a reachable lock");
            let entry = if worse.contains(&decisions) {
                let e = ranking.entries.iter().find(|e| e.rank >= 5).copied();
                let e = e.expect("some placement ranks 5th or worse");
                played.insert(decisions, e.rank);
                e
            } else {
                ranking.entries[0]
            };
            queue = ranker.inputs_to(&entry.lock).unwrap().into_iter().collect();
            target = Some(entry.lock);
            decisions += 1;
        }
        if prev == Some(PlayState::Control) && !control {
            let t = target.take().unwrap();
            let a = game.active;
            assert_eq!((a.x, a.y, a.id), (t.x, t.y, t.orientation.id()));
        }
        prev = Some(game.play_state);
        let pad = queue.pop_front().unwrap_or(PadState::NONE);
        game.step(pad);
        pads.push(pad);
    }
    // Let the last piece lock.
    for _ in 0..200 {
        pads.push(queue.pop_front().unwrap_or(PadState::NONE));
    }
    (pads, played)
}

/// The acceptance test: placements of rank 5 at known pieces are found as exactly those
/// pieces, with rank 5, and every other placement of the bot is rated best.
#[test]
fn substituted_placements_are_found_with_their_ranks() {
    let worse = [2usize, 9, 17, 30];
    let (pads, played) = record_with_substitutions(18, 4242, 40, &worse);
    assert_eq!(played.len(), worse.len());
    let mut a = analyzer();
    let mut console = ModelConsole::new(Game::seeded(18, 4242), AddressMap::default());
    a.run(&mut console, pads, |_, _| true).unwrap();
    let ratings = a.ratings();
    assert!(ratings.len() >= 40, "{}", ratings.len());
    for (i, r) in ratings.iter().enumerate().take(40) {
        assert_eq!(r.at.piece_number as usize, i + 1);
        assert!(r.verdict.reachable, "piece {i}");
        match played.get(&i) {
            Some(&rank) => {
                assert_eq!(r.verdict.rank, rank, "piece {i}");
                assert_ne!(r.verdict.class, Class::Best, "piece {i}");
                assert!(r.verdict.loss.unwrap() > 0.0);
                assert_ne!(r.player, r.best);
            }
            None => {
                assert_eq!(
                    (r.verdict.rank, r.verdict.class),
                    (1, Class::Best),
                    "piece {i}"
                );
                assert_eq!(r.player, r.best);
            }
        }
    }
    // (The pieces after the 40th fell without input: leave them out.)
    let s = Summary::new(&ratings[..40], 5);
    let expected: Vec<usize> = played.keys().copied().collect();
    let mut got = s.worst.clone();
    got.sort();
    assert_eq!(
        got, expected,
        "the worst moments are the substituted pieces"
    );
    assert!(s
        .text(ratings)
        .contains(&format!("frame {}", ratings[worse[0]].at.frame)));
}

/// What `nestor play` does on the model console (the driver, the same weights): analysed,
/// at least 99 % of its placements are rated best.
#[test]
fn a_game_played_by_the_driver_is_rated_best() {
    let mut d = test_consoles::driver(test_consoles::model(99));
    let mut pads = Vec::new();
    while d.game().pieces < 150 {
        let step = d.step().unwrap();
        pads.push(d.last_pad());
        assert!(!matches!(step, Step::Desync { .. }));
        if let Step::GameOver { .. } = step {
            break;
        }
    }
    let mut a = analyzer();
    let mut console = test_consoles::model(99);
    a.run(&mut console, pads, |_, _| true).unwrap();
    let s = Summary::new(a.ratings(), 5);
    assert!(s.pieces >= 100, "{}", s.pieces);
    assert!(s.best_share >= 0.99, "{}", s.text(a.ratings()));
}

/// A console whose RAM never shows a game (a movie of the title screen, another cartridge).
struct Blank(Vec<u8>, u64);

impl Console for Blank {
    fn frame(&mut self, _: PadState) -> Result<(), ConsoleError> {
        self.1 += 1;
        Ok(())
    }
    fn ram(&self) -> &[u8] {
        &self.0
    }
    fn frame_number(&self) -> u64 {
        self.1
    }
}

#[test]
fn no_game_is_an_error() {
    let mut a = analyzer();
    let mut c = Blank(vec![0; 0x800], 0);
    let e = a
        .run(&mut c, vec![PadState::NONE; 500], |_, _| true)
        .unwrap_err();
    assert!(matches!(e, AnalysisError::NoGame { frames: 500 }), "{e}");
    assert!(e.to_string().contains("no game"));
}

/// Under a reaction delay the suggestion is the hover until the reaction frame, then the lock
/// for the next piece that came; the advice's buttons put the piece at the hover on the
/// reaction frame and lock it where the advice said.
#[test]
fn advice_shows_the_hover_then_the_lock_and_its_buttons_get_there() {
    use super::analysis::Observed;
    use crate::game::Pos;
    use crate::nes::RamSnapshot;
    use crate::search::Profile;
    let map = AddressMap::default();
    let mut a = analyzer();
    a.set_profile(Profile::preset("human").unwrap());
    a.set_advice(true);
    let mut console = ModelConsole::new(Game::seeded(18, 77), map.clone());
    let mut o = a.observe(console.frame_number(), console.ram());
    let (mut followed, mut moved) = (0, 0);
    let step = |console: &mut ModelConsole, a: &mut Analyzer<Standard>, pad| {
        console.frame(pad).unwrap();
        a.observe(console.frame_number(), console.ram())
    };
    for _ in 0..20_000 {
        if followed == 8 || o == Observed::GameOver {
            break;
        }
        if o != Observed::Ranked {
            o = step(&mut console, &mut a, PadState::NONE);
            continue;
        }
        let advice = a.advice().expect("human reacts after the spawn").clone();
        let (hover, lock) = (advice.adjustments().hover, advice.taken().lock);
        let k = advice.hover_frames();
        assert!(k > 0);
        let hover_inputs = advice.adjustments().hover_inputs.clone();
        for (i, &pad) in hover_inputs.iter().enumerate() {
            assert_eq!(a.suggestion(), Some(hover), "frame {i} of the hover");
            o = step(&mut console, &mut a, pad);
        }
        let s = RamSnapshot::read(console.ram(), &map);
        assert_eq!(Pos::from_ram(s.x, s.y, s.orientation), Some(hover));
        for (i, &pad) in advice.taken().inputs.iter().enumerate() {
            if o == Observed::Rated {
                break;
            }
            assert_eq!(a.suggestion(), Some(lock), "frame {i} after the reaction");
            o = step(&mut console, &mut a, pad);
        }
        for _ in 0..60 {
            if o == Observed::Rated {
                break;
            }
            o = step(&mut console, &mut a, PadState::NONE);
        }
        assert_eq!(o, Observed::Rated);
        assert_eq!(a.ratings().last().unwrap().player, lock);
        assert_eq!(a.suggestion(), None, "no piece under control");
        moved += usize::from(hover != lock);
        followed += 1;
    }
    assert_eq!(followed, 8);
    assert!(moved > 0, "some piece moves on from its hover");
}

/// Without a reaction delay there is nothing to advise: the suggestion is the ranking's best.
#[test]
fn without_a_reaction_delay_the_suggestion_is_the_best_ranked() {
    use super::analysis::Observed;
    let mut a = analyzer();
    a.set_advice(true);
    let mut console = ModelConsole::new(Game::seeded(18, 77), AddressMap::default());
    let mut ranked = 0;
    for _ in 0..2_000 {
        console.frame(PadState::NONE).unwrap();
        if a.observe(console.frame_number(), console.ram()) == Observed::Ranked {
            assert!(a.advice().is_none());
            let best = a.pending().and_then(|r| r.best()).map(|e| e.lock);
            assert!(best.is_some());
            assert_eq!(a.suggestion(), best);
            ranked += 1;
        }
    }
    assert!(ranked >= 3, "{ranked}");
}
