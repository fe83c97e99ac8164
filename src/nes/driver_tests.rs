//! Driver tests on the rules model (no ROM): clean play with no desync and fault injection that
//! every desync is caught and re-planned (the agreement with self-play is in `lab::selfplay`).

use super::*;
use crate::game::Game;
use crate::nes::console::ConsoleError;
use crate::nes::faults::FaultyPad;
use crate::nes::model_console::ModelConsole;
use crate::nes::test_consoles::{driver, driver_at, model, Stop, Stopping};
use crate::search::eval::Standard;

#[test]
fn a_thousand_pieces_at_level_19_without_a_desync() {
    let (mut pieces, mut seed, mut frames) = (0u32, 2u64, 0u64);
    while pieces < 1000 {
        let mut d = driver(model(seed));
        assert!(d.is_playing());
        let mut model_locks = 0;
        loop {
            let step = d.step().unwrap();
            frames += 1;
            assert!(
                !d.last_pad().intersects(PadState::START),
                "Start pressed in play"
            );
            assert!(
                !matches!(step, Step::Desync { .. } | Step::Menu),
                "{step:?}"
            );
            model_locks += u32::from(d.console().events().locked.is_some());
            if let Step::GameOver { score, lines, .. } = step {
                assert_eq!(
                    (score, lines),
                    (d.console().game().score(), d.console().game().lines())
                );
                break;
            }
            if pieces + d.game().pieces >= 1000 {
                break;
            }
        }
        assert_eq!(d.game().pieces, model_locks, "seed {seed}");
        assert_eq!(d.game().desyncs, 0, "seed {seed}");
        pieces += d.game().pieces;
        seed += 1;
    }
    assert!(frames > 10_000, "{frames}");
}

#[test]
fn spawn_and_lock_are_reported() {
    let mut d = driver(model(5));
    let (mut spawns, mut locks) = (0, 0);
    for _ in 0..2000 {
        match d.step().unwrap() {
            Step::Spawned { .. } => {
                spawns += 1;
                assert!(d.plan().is_some(), "a spawned piece is planned at once");
            }
            Step::Locked { .. } => locks += 1,
            Step::GameOver { .. } => break,
            _ => {}
        }
    }
    assert!(
        spawns > 10 && (locks == spawns || locks == spawns + 1),
        "{spawns} {locks}"
    );
    assert_eq!(locks, d.game().pieces);
}

/// What the fault-injecting console did in its last frame.
#[derive(Clone, Copy, Debug, Default)]
struct FrameLog {
    frame: u64,
    intended: PadState,
    applied: PadState,
    /// The piece was under control at the frame's start.
    controlled: bool,
    /// (x, y, id) at the end of the frame had the intended pad been pressed.
    would_be: (u8, u8, u8),
    actual: (u8, u8, u8),
}

/// The library's fault injector on the model, logging what each frame would have done with
/// the intended pad.
struct Faulty {
    inner: FaultyPad<ModelConsole>,
    log: FrameLog,
}

impl Faulty {
    fn new(inner: ModelConsole, seed: u64, rate: u64) -> Faulty {
        Faulty {
            inner: FaultyPad::new(inner, 1.0 / rate as f64, seed),
            log: FrameLog::default(),
        }
    }
}

impl Console for Faulty {
    fn frame(&mut self, intended: PadState) -> Result<(), ConsoleError> {
        let mut shadow = self.inner.inner().game().clone();
        let controlled = shadow.play_state == PlayState::Control;
        shadow.step(intended);
        self.inner.frame(intended)?;
        let g = self.inner.inner().game();
        self.log = FrameLog {
            frame: self.inner.frame_number(),
            intended,
            applied: self.inner.applied(),
            controlled,
            would_be: (shadow.active.x, shadow.active.y, shadow.active.id),
            actual: (g.active.x, g.active.y, g.active.id),
        };
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        self.inner.ram()
    }

    fn frame_number(&self) -> u64 {
        self.inner.frame_number()
    }
}

#[test]
fn injected_faults_are_caught_on_the_frame_and_re_planned() {
    let (mut pieces, mut faults, mut desyncs, mut prompt) = (0u32, 0u32, 0u32, 0u32);
    let mut seed = 40u64;
    while pieces < 400 {
        let console = Faulty::new(model(seed), seed.wrapping_mul(0x9E37_79B9), 23);
        let mut d = driver(console);
        // Frames (as numbered after they ran) whose pad was corrupted.
        let mut fault_frames: Vec<u64> = Vec::new();
        let mut frames_since_lock = 0u32;
        loop {
            let in_force = d.planned_at();
            let step = d.step().unwrap();
            let log = d.console().log;
            if log.applied != log.intended {
                fault_frames.push(log.frame);
                faults += 1;
            }
            let fault_between =
                |from: u64, to: u64| fault_frames.iter().any(|&f| f > from && f <= to);
            if let Step::Desync {
                frame, planned_at, ..
            } = step
            {
                desyncs += 1;
                assert_eq!(frame, log.frame);
                // The model is exact, so a plan can only break after a fault: a re-plan made
                // from the observed state is met until the next fault.
                assert!(
                    fault_between(planned_at, frame),
                    "seed {seed}: desync at {frame} with no fault since the plan of {planned_at}"
                );
                if d.snapshot().play_state == PlayState::Control as u8 {
                    assert_eq!(d.planned_at(), Some(frame), "re-planned at once");
                }
            }
            // A fault that put the piece somewhere else than the intended press would have,
            // under a plan made after every earlier fault, is reported in that very frame.
            if let Some(p) = in_force {
                if log.controlled && log.actual != log.would_be && !fault_between(p, log.frame - 1)
                {
                    assert!(
                        matches!(step, Step::Desync { frame, .. } if frame == log.frame),
                        "seed {seed}: fault at {} not caught: {step:?} {log:?}",
                        log.frame
                    );
                    prompt += 1;
                }
            }
            frames_since_lock += 1;
            if matches!(step, Step::Locked { .. }) {
                frames_since_lock = 0;
            }
            // The game goes on: pieces keep locking (a piece takes well under 200 frames at
            // level 19, whatever is pressed).
            assert!(frames_since_lock < 400, "seed {seed}: stalled");
            if matches!(step, Step::GameOver { .. }) || pieces + d.game().pieces >= 400 {
                break;
            }
        }
        pieces += d.game().pieces;
        seed += 1;
    }
    assert!(
        faults >= 200 && desyncs >= 100 && prompt >= 50,
        "faults {faults}, desyncs {desyncs}, caught in the frame {prompt}"
    );
    eprintln!("faults {faults}, desyncs {desyncs}, caught in the frame {prompt}");
}

/// RAM keeps the piece where it locked, so a lock one frame early (here: a fall timer nudged
/// so the resting piece's drop is tried a frame before the plan's lock frame) shows the
/// expected position; it must still count as a desync.
#[test]
fn a_lock_earlier_than_planned_is_a_desync() {
    let mut d = driver(model(5));
    let mut nudged = 0;
    let mut caught = 0;
    for _ in 0..20_000 {
        if let (Some(plan), Some(at)) = (d.plan(), d.planned_at()) {
            let elapsed = d.console().frame_number() - at;
            let len = plan.inputs.len() as u64;
            // The next frame is the plan's second-to-last: the piece already rests there.
            if len >= 4 && elapsed + 2 == len && nudged == caught {
                let speed = d.console().game().drop_speed();
                d.console_mut().game_mut().active.fall_timer = speed - 1;
                nudged += 1;
            }
        }
        match d.step().unwrap() {
            Step::Desync { .. } => caught += 1,
            Step::GameOver { .. } => break,
            _ => {}
        }
        if nudged >= 20 {
            break;
        }
    }
    assert!(nudged >= 20, "{nudged} nudges");
    assert_eq!(caught, nudged, "every early lock is reported");
}

/// A console whose menus accept the game but whose game never becomes playable (as a B-type
/// game or a wrong RAM map would look): the driver gives up with a clear error, not a hang.
#[test]
fn a_game_that_never_becomes_playable_is_an_error() {
    struct NeverReady(Vec<u8>, u64);
    impl Console for NeverReady {
        fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
            self.1 += 1;
            if pad.intersects(PadState::START) {
                self.0[0xC0] = 4; // gameMode: play, but gameModeState stays 0
            }
            Ok(())
        }
        fn ram(&self) -> &[u8] {
            &self.0
        }
        fn frame_number(&self) -> u64 {
            self.1
        }
    }
    let mut ram = vec![0u8; 0x800];
    ram[0xC0] = 3; // level menu
    ram[0x67] = 9; // cursor on 9: A held, then Start gives 19
    let console = NeverReady(ram, 0);
    let mut d = driver_at(console, 9).unwrap();
    let err = (0..1000)
        .find_map(|_| d.step().err())
        .expect("the driver gives up");
    assert!(matches!(err, DriverError::NotStarting { .. }), "{err}");
    assert!(err.to_string().contains("did not become playable"), "{err}");
}

#[test]
fn a_frozen_game_is_reported_within_a_second_with_what_it_showed() {
    for counter_runs in [false, true] {
        // Frames 1-1499 played, the freeze on frame 1500.
        let how = if counter_runs {
            Stop::Counter
        } else {
            Stop::Frozen
        };
        let console = Stopping::new(model(9), 1499, how);
        let mut d = driver(console);
        let err = (0..5000)
            .find_map(|_| d.step().err())
            .expect("the freeze is detected");
        let game = d.console().inner.game();
        match &err {
            DriverError::Frozen {
                frame,
                what,
                level,
                lines,
                score,
                ..
            } => {
                assert!(
                    (1500..=1500 + u64::from(FREEZE_FRAMES)).contains(frame),
                    "{frame}"
                );
                assert_eq!(
                    (*level, *lines, *score),
                    (game.level, game.lines(), game.score())
                );
                let expected = if counter_runs {
                    "game loop stopped"
                } else {
                    "frame counter stopped"
                };
                assert!(what.contains(expected), "{what}");
            }
            e => panic!("{e}"),
        }
        assert!(err.to_string().contains("froze at frame"), "{err}");
    }
}

/// Plays a model game poked to `level` with `lines` (BCD) until it tops out or `max` pieces.
fn play_from(level: u8, lines: [u8; 2], seed: u64, max: u32) -> Driver<ModelConsole, Standard> {
    let mut game = Game::seeded(level, seed);
    game.lines = lines;
    let mut d = driver(ModelConsole::new(game, AddressMap::default()));
    loop {
        let step = d.step().expect("no driver error");
        assert!(!matches!(step, Step::Desync { .. }), "{step:?}");
        if matches!(step, Step::GameOver { .. }) || d.game().pieces >= max {
            return d;
        }
    }
}

#[test]
fn a_game_through_the_level_29_transition_counts_the_lines_after_it() {
    // Level 28 with 199 lines: the next line is the 200th, and 200 lines lift level 28 to 29.
    let d = play_from(28, [0x99, 0x01], 21, 400);
    let (g, model) = (d.game(), d.console().game());
    assert!(g.level >= 29, "level {}", g.level);
    // The clear that made the 200th line may have made up to three more.
    let at = g.lines_at_29.expect("reached 29");
    assert!((200..=203).contains(&at), "{at}");
    assert_eq!((g.lines, g.level), (model.lines(), model.level));
    assert_eq!(g.lines_after_29(), model.lines() - at);
    assert!(g.lines_after_29() > 0, "the bot cleared lines at level 29");
}

#[test]
fn a_level_up_past_100_is_followed() {
    // Level 99 with 639 lines: at 640 the packed tens (0x64 = 100) pass 99.
    let d = play_from(99, [0x39, 0x06], 22, 400);
    let (g, model) = (d.game(), d.console().game());
    assert!(g.level >= 100, "level {}", g.level);
    assert_eq!((g.lines, g.level), (model.lines(), model.level));
    assert_eq!(g.lines_at_29, Some(639), "a game that starts past 29");
    assert_eq!(g.lines_after_29(), model.lines() - 639);
}
