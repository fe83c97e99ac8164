//! Self-play of every player-profile preset on the rules model: 0 desyncs, every input within
//! the profile's rules, and the checked loop equal to a plain `SelfPlay::run`.

use crate::game::pad::PadState;
use crate::game::state::{Game, PlayState};
use crate::lab::selfplay::{Limits, SelfPlay};
use crate::movegen::profile::{Profile, Shift, PRESETS};
use crate::search::eval::Standard;
use crate::search::plan::Planner;

/// Checks every controlled frame of a game against the profile's rules; returns the pieces.
fn play_checked(profile: &Profile, level: u8, seed: u64, pieces: u32) -> (u32, u32) {
    let mut planner = Planner::new(Standard::default());
    planner.profile = profile.clone();
    let mut game = Game::seeded(level, seed);
    let mut play = SelfPlay::new(&mut planner, &game);
    let (mut frame, mut pressed, mut first_piece) = (0u32, PadState::NONE, true);
    let mut prev = game.held;
    while play.stats.pieces < pieces && !play.stats.topped_out && !game.is_over() {
        let controlled = game.play_state == PlayState::Control;
        let ev = play.step(&mut game);
        let held = game.held;
        if controlled {
            let newly = held.newly_from(prev);
            let what = format!(
                "{} seed {seed} piece {} frame {frame}",
                profile.name, play.stats.pieces
            );
            if newly.0 & 0xC3 != 0 {
                assert!(
                    profile.timeline.allows(frame),
                    "{what}: {newly} off the timeline"
                );
            }
            if first_piece && frame < u32::from(profile.start_delay) {
                assert_eq!(held, PadState::NONE, "{what}: pressed in the start delay");
            }
            assert_eq!(held.0 & prev.0 & 0xC0, 0, "{what}: A or B held");
            if profile.shift == Shift::Tap {
                assert_eq!(held.0 & prev.0 & 0x03, 0, "{what}: a direction held");
            }
            if profile.shift == Shift::Hold {
                assert_eq!(newly.0 & pressed.0 & 0x03, 0, "{what}: pressed twice");
            }
            pressed = pressed.union(PadState(newly.0 & 0x03));
            frame += 1;
        }
        if ev.locked.is_some() {
            (frame, pressed, first_piece) = (0, PadState::NONE, false);
        }
        prev = held;
    }
    (play.stats.pieces, play.stats.desyncs)
}

#[test]
fn every_preset_plays_hundreds_of_pieces_without_a_desync_within_its_profile() {
    for (name, _) in PRESETS {
        let profile = Profile::preset(name).unwrap();
        // Games from 18, 19 and 29 in turn (a slow profile dies fast at 29) until 300 pieces.
        let (mut total, mut seed) = (0, 1u64);
        while total < 300 {
            let level = [18u8, 19, 29][seed as usize % 3];
            let (pieces, desyncs) = play_checked(&profile, level, seed, 120);
            assert_eq!(desyncs, 0, "{name} level {level} seed {seed}");
            assert!(pieces > 0, "{name} level {level} seed {seed}");
            total += pieces;
            seed += 1;
        }
    }
}

#[test]
fn self_play_stats_match_a_plain_run() {
    // `run` and the checked loop above drive the same SelfPlay: the same game.
    let profile = Profile::preset("human").unwrap();
    let mut planner = Planner::new(Standard::default());
    planner.profile = profile.clone();
    let mut game = Game::seeded(18, 5);
    let limits = Limits {
        max_pieces: Some(60),
        max_frames: None,
    };
    let stats = SelfPlay::new(&mut planner, &game).run(&mut game, limits);
    assert_eq!(stats.desyncs, 0);
    assert_eq!(play_checked(&profile, 18, 5, 60).0, stats.pieces);
}
