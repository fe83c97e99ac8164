//! Player profiles on the real cartridge (`NESTOR_ROM`): the driver plays two presets from
//! power-on, menus included, records the movie, and the movie check passes on a fresh console.

mod common;

use common::{check_profile_movie, profile_planner as planner};
use nestor::movegen::profile::Profile;
use nestor::movie::{Header, Movie};
use nestor::nes::rom::rom_for_tests;
use nestor::nes::{AddressMap, Driver, DriverConfig, NesDeck, Step, Video};

/// Pieces each preset plays (games follow one another through the menus until then).
const PIECES: u32 = 300;

/// Plays `name` from `level` for [`PIECES`] pieces; see [`play_record_check_pieces`].
fn play_record_check(name: &str, level: u8) -> u8 {
    play_record_check_pieces(name, level, PIECES)
}

/// Plays `name` from `level` on the cartridge for `pieces` pieces, records the movie and
/// checks it against the profile on a fresh console; the highest level a game reached.
fn play_record_check_pieces(name: &str, level: u8, pieces: u32) -> u8 {
    let rom = rom_for_tests();
    let profile = Profile::preset(name).expect("a preset");
    let map = AddressMap::default();
    let deck = NesDeck::new(&rom, Video::Headless).expect("tetanes loads the ROM");
    let mut d =
        Driver::new(deck, map.clone(), planner(&profile), DriverConfig { level }).expect("driver");
    let comments = vec![Header::profile_comment(&profile)];
    let mut movie = Movie::new_recording(rom.name(), rom.prg_chr_md5, comments);
    let (mut frames, mut highest) = (0u64, 0u8);
    while d.total().pieces < pieces {
        let step = d.step().expect("no console, menu or driver error");
        movie.push(d.last_pad());
        frames += 1;
        highest = highest.max(d.game().level);
        assert!(
            frames < 1_400 * u64::from(pieces),
            "{name}: {pieces} pieces take far fewer frames"
        );
        assert!(!matches!(step, Step::Desync { .. }), "{name}: {step:?}");
    }
    let (games, total) = (d.games_over(), *d.total());
    assert_eq!(total.desyncs, 0, "{name}");
    // Replayed from power-on on a fresh console: the check finds every spawn from RAM.
    let mut fresh = NesDeck::new(&rom, Video::Headless).expect("tetanes loads the ROM");
    let report = check_profile_movie(&movie, &mut fresh, &map, &profile);
    eprintln!(
        "{name}: {} pieces in {} game(s) ({games} over), {frames} frames, checked {} pieces, \
         {} violations",
        total.pieces,
        games + 1,
        report.pieces,
        report.violations.len()
    );
    assert!(
        report.passed(),
        "{name}: {} violations, the first: {:?}",
        report.violations.len(),
        report.violations.first().map(|v| v.to_string())
    );
    // Each locked piece was checked, plus at most one per game that tops out or is cut short.
    assert!(
        (total.pieces..=total.pieces + games + 1).contains(&report.pieces),
        "{name}: checked {} pieces, the driver locked {}",
        report.pieces,
        total.pieces
    );
    highest
}

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn fifteen_hz_on_the_cartridge_obeys_its_profile() {
    play_record_check("15hz", 18);
}

/// The 15 Hz preset's learned killscreen phase (levels 29 on) on the cartridge: past the
/// level-29 transition with no desync, and the movie obeys the profile.
#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn fifteen_hz_plays_its_learned_killscreen_on_the_cartridge() {
    let highest = play_record_check_pieces("15hz", 18, 800);
    assert!(highest >= 30, "reached level {highest} only");
}

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn human_on_the_cartridge_obeys_its_profile() {
    play_record_check("human", 19);
}
