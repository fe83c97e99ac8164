//! Movies against real FCEUX, and the trace regression workflow.
//!
//! * Always (when `fceux` and `xvfb-run` are installed): a movie recorded on the synthetic test
//!   cartridge plays in headless FCEUX with the same RAM as nestor's replay on every frame,
//!   which checks the one-frame lead alignment without the Tetris ROM.
//! * With `NESTOR_ROM` (the user's own cartridge): the same on a scripted level-19 game; and
//!   the regression workflow (record, capture a golden trace, replay, diff; verify the capture
//!   against the rules model).

mod common;

use std::ffi::OsString;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use common::{
    assert_same_ram, fceux_ram, fceux_tools, nestor, random_pads, temp_dir, without_fceux,
};
use nestor::game::PadState;
use nestor::movie::{Movie, Recorder, Replay};
use nestor::nes::rom::rom_for_tests;
use nestor::nes::testcart::{self, COUNTER, HELD};
use nestor::nes::{navigate, AddressMap, Console, MenuNav, NesDeck, Rom, Video};
use nestor::trace::read_trace;

/// nestor's RAM after each replayed frame.
fn nestor_ram(replay: &Replay, console: &mut impl Console) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    replay
        .run(console, |f| {
            out.push(f.ram.to_vec());
            ControlFlow::Continue(())
        })
        .expect("replay");
    out
}

#[test]
fn fceux_and_nestor_agree_on_the_test_cart_every_frame() {
    if without_fceux() {
        return;
    }
    let tmp = temp_dir("fceux-cart");
    let dir = tmp.path();
    let image = testcart::nrom_image();
    let rom = dir.join("testcart.nes");
    std::fs::write(&rom, &image).unwrap();
    let deck = NesDeck::from_image("testcart", &image, Video::Headless).unwrap();
    let mut rec = Recorder::new(deck, Movie::new_recording("testcart", [0; 16], vec![]));
    for pad in random_pads(0xFCE0, 400) {
        rec.frame(pad).unwrap();
    }
    let movie = rec.into_parts().1;
    let path = dir.join("movie.fm2");
    movie.save(&path).unwrap();

    let theirs = fceux_ram(&rom, &path, dir).unwrap_or_else(|e| panic!("{e}"));
    let replay = Replay::load(&path).unwrap();
    let mut deck = NesDeck::from_image("testcart", &image, Video::Headless).unwrap();
    let ours = nestor_ram(&replay, &mut deck);
    // The cart's own cells first, for a readable failure, then all of $0000-$0754.
    let pads = movie.gameplay_pads();
    for (k, ram) in theirs[1..].iter().enumerate() {
        let cells = |r: &[u8]| {
            (
                r[usize::from(HELD)],
                r[usize::from(COUNTER)],
                r[usize::from(COUNTER) + 1],
            )
        };
        assert_eq!(cells(ram), cells(&ours[k]), "nestor frame {}", k + 1);
        if ram[usize::from(COUNTER)] != 0 {
            assert_eq!(
                ram[usize::from(HELD)],
                pads[k].bits(),
                "FCEUX frame {}",
                k + 2
            );
        }
    }
    assert_same_ram(&movie, &theirs, &ours);
}

/// Where a test movie comes from: any function that plays the cartridge from power-on and
/// returns the recording (the scripted game below; the bot driver's games fit the same slot).
type MovieSource = fn(&Rom) -> Movie;

/// Menus to a level-19 A-type game, then a fixed pattern of shifts, turns and drops until a
/// few hundred frames after the game is over (or a frame limit).
fn scripted_level19_game(rom: &Rom) -> Movie {
    let map = AddressMap::default();
    let deck = NesDeck::new(rom, Video::Headless).expect("the ROM boots");
    let movie = Movie::new_recording(rom.name(), rom.prg_chr_md5, vec!["scripted test".into()]);
    let mut rec = Recorder::new(deck, movie);
    navigate(&mut rec, &map, MenuNav::start_game(19).unwrap(), |_| {}).expect("menus");
    let pattern = [
        PadState::NONE,
        PadState::LEFT,
        PadState::NONE,
        PadState::A,
        PadState::NONE,
        PadState::RIGHT,
        PadState::RIGHT,
        PadState::NONE,
        PadState::B,
        PadState::DOWN,
        PadState::DOWN,
        PadState::DOWN,
    ];
    let mut over_for = 0;
    for i in 0..3000 {
        rec.frame(pattern[i % pattern.len()]).unwrap();
        let ram = rec.ram();
        if ram[usize::from(map.play_state)] == 10 {
            over_for += 1;
        }
        if over_for > 200 {
            break;
        }
    }
    rec.into_parts().1
}

const SOURCE: MovieSource = scripted_level19_game;

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn fceux_and_nestor_agree_on_a_real_game() {
    let rom = rom_for_tests();
    // With the cartridge given, a missing FCEUX is a failure to report, not a skip.
    fceux_tools().unwrap_or_else(|why| panic!("{why}"));
    let tmp = temp_dir("fceux-rom");
    let dir = tmp.path();
    let movie = SOURCE(&rom);
    let path = dir.join("game.fm2");
    movie.save(&path).unwrap();
    let theirs = fceux_ram(&rom.path, &path, dir).unwrap_or_else(|e| panic!("{e}"));
    let replay = Replay::load(&path).unwrap();
    replay.check_rom(&rom.prg_chr_md5, false).unwrap();
    let ours = nestor_ram(&replay, &mut NesDeck::new(&rom, Video::Headless).unwrap());
    assert_same_ram(&movie, &theirs, &ours);
}

fn run_ok(args: &[&dyn AsRef<std::ffi::OsStr>]) -> String {
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_os_string()).collect();
    common::ok(&nestor(&args))
}

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn regression_workflow_record_capture_replay_diff_verify() {
    let rom = rom_for_tests();
    let tmp = temp_dir("regression");
    let dir = tmp.path();
    let movie: PathBuf = dir.join("game.fm2");
    SOURCE(&rom).save(&movie).unwrap();
    let golden = dir.join("golden.jsonl.gz");
    let again = dir.join("again.jsonl.gz");
    let rom_path: &Path = &rom.path;

    run_ok(&[&"trace", &rom_path, &"--movie", &movie, &"--out", &golden]);
    run_ok(&[&"trace", &rom_path, &"--movie", &movie, &"--out", &again]);
    run_ok(&[&"trace", &"diff", &golden, &again]);
    // The captured game is what the rules model must reproduce, like the cartridge traces.
    let verify = run_ok(&[&"trace", &"verify", &golden]);
    assert!(verify.contains("no divergence"), "{verify}");

    // Frame numbering: `frame` counts NMIs from power-on as in the cartridge traces, where
    // frame − frameCounter is 261 on every line ($B1 counts NMIs from the same origin; $B2
    // is zeroed on the title screen), so it agrees modulo 256.
    let trace = read_trace(&golden).unwrap();
    let first = &trace.frames[0];
    eprintln!(
        "first traced line: frame {}, rng {}, frame_counter {}, soft_drop {}",
        first["frame"], first["rng"], first["frame_counter"], first["soft_drop"]
    );
    for line in &trace.frames {
        let (f, c) = (
            line["frame"].as_u64().unwrap(),
            line["frame_counter"].as_u64().unwrap(),
        );
        assert_eq!((f + 256 * 256 - c) % 256, 261 % 256, "{line:?}");
    }
    assert_eq!(first["play_state"], 1);
    let sd = first["soft_drop"].as_u64().unwrap();
    assert!(
        sd >= 160 || sd <= 2,
        "t=0 is in the first-piece delay: {sd}"
    );

    let replay = run_ok(&[&"replay", &rom_path, &movie, &"--headless", &"--json"]);
    let v: serde_json::Value = serde_json::from_str(&replay).unwrap();
    assert_eq!(v["game_over"], true, "{v}");
    let last = trace.frames.last().unwrap();
    assert_eq!(v["score"], last["score"]);
    assert_eq!(v["lines"], last["lines"]);
}
