//! Acceptance of issue 12 on the rules model: for every preset the driver plays 1,000 pieces
//! on the model console with no desync, and the movie check passes on what it recorded.

mod common;

use std::time::Instant;

use common::{check_profile_movie, profile_planner as planner};
use nestor::game::Game;
use nestor::movegen::profile::Profile;
use nestor::movie::{Header, Movie};
use nestor::nes::{AddressMap, Driver, DriverConfig, ModelConsole, Step};

const PIECES: u32 = 1000;

/// Games from levels 18 and 19 (seed by seed) until `PIECES` pieces have locked; each game is
/// recorded and checked on a fresh model console.
fn thousand_pieces(name: &str) {
    let started = Instant::now();
    let profile = Profile::preset(name).expect("a preset");
    let map = AddressMap::default();
    let (mut pieces, mut games, mut frames) = (0u32, 0u32, 0usize);
    let mut seed = 1000u64;
    while pieces < PIECES {
        let level = 18 + (seed % 2) as u8;
        let console = ModelConsole::new(Game::seeded(level, seed), map.clone());
        let mut d = Driver::new(
            console,
            map.clone(),
            planner(&profile),
            DriverConfig { level },
        )
        .expect("a model console in play needs no menus");
        let comments = vec![Header::profile_comment(&profile)];
        let mut movie = Movie::new_recording("nestor-model", [0; 16], comments);
        loop {
            let step = d.step().expect("no driver error");
            movie.push(d.last_pad());
            assert!(
                !matches!(step, Step::Desync { .. }),
                "{name}, seed {seed}: {step:?}"
            );
            if matches!(step, Step::GameOver { .. }) || pieces + d.game().pieces >= PIECES {
                break;
            }
        }
        let g = *d.game();
        assert_eq!(g.desyncs, 0, "{name}, seed {seed}");
        let mut fresh = ModelConsole::new(Game::seeded(level, seed), map.clone());
        let report = check_profile_movie(&movie, &mut fresh, &map, &profile);
        assert!(
            report.passed(),
            "{name}, seed {seed}: {} violations, the first: {}",
            report.violations.len(),
            report.violations[0]
        );
        // Every piece the driver locked was checked (and the one topping out or cut short).
        assert!(
            (g.pieces..=g.pieces + 1).contains(&report.pieces),
            "{name}, seed {seed}: checked {} of {} pieces",
            report.pieces,
            g.pieces
        );
        assert_eq!(movie.header.profile_name(), Some(name));
        pieces += g.pieces;
        frames += report.frames;
        games += 1;
        seed += 1;
    }
    eprintln!(
        "{name}: {pieces} pieces in {games} games, {frames} frames, 0 desyncs, movie check \
         passed; {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

macro_rules! presets {
    ($($test:ident => $name:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                thousand_pieces($name);
            }
        )*
        /// Every preset has its test above.
        #[test]
        fn every_preset_is_tested() {
            let tested = [$($name),*];
            assert_eq!(tested.len(), nestor::movegen::profile::PRESETS.len());
            for (name, _) in nestor::movegen::profile::PRESETS {
                assert!(tested.contains(&name), "{name} has no acceptance test");
            }
        }
    };
}

presets! {
    unlimited => "unlimited",
    hz30 => "30hz",
    hz24 => "24hz",
    hz20 => "20hz",
    hz15 => "15hz",
    hz13_5 => "13.5hz",
    hz12 => "12hz",
    hz10 => "10hz",
    human => "human",
    das => "das",
}
