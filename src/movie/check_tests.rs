//! Movie-check tests on the rules model: games the driver recorded pass under the profile they
//! were played with; presses placed by hand are found at their frame, and only they.

use super::*;
use crate::game::state::Game;
use crate::movegen::profile::Profile;
use crate::nes::{Driver, DriverConfig, ModelConsole, Step};
use crate::search::eval::Standard;

const LEVEL: u8 = 19;

fn model(seed: u64) -> ModelConsole {
    ModelConsole::new(Game::seeded(LEVEL, seed), AddressMap::default())
}

fn planner(profile: &Profile) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = profile.clone();
    p
}

fn profile(text: &str) -> Profile {
    Profile::from_toml(text, "test.toml", "test").expect("a valid profile")
}

fn check(movie: &Movie, seed: u64, profile: &Profile, reaction: ReactionCheck) -> CheckReport {
    check_movie(
        movie,
        &mut model(seed),
        &AddressMap::default(),
        &mut planner(profile),
        reaction,
    )
    .expect("the movie replays")
}

/// The driver plays `pieces` pieces (or to the top-out) under `profile`; the movie, and the
/// frame number of each piece's first frame as the driver's spawn reports date it.
fn record(seed: u64, profile: &Profile, pieces: u32) -> (Movie, Vec<u64>) {
    let map = AddressMap::default();
    let mut d = Driver::new(
        model(seed),
        map,
        planner(profile),
        DriverConfig { level: LEVEL },
    )
    .unwrap();
    let mut movie = Movie::new_recording("nestor-model", [0; 16], vec![]);
    let mut firsts = vec![1];
    loop {
        let step = d.step().unwrap();
        movie.push(d.last_pad());
        assert!(!matches!(step, Step::Desync { .. }), "{step:?}");
        match step {
            Step::Spawned { .. } => firsts.push(d.console().frame_number() + 1),
            Step::GameOver { .. } => break,
            _ if d.game().pieces >= pieces => break,
            _ => {}
        }
    }
    (movie, firsts)
}

/// A movie of `frames` frames pressing nothing, and each piece's first frame.
fn idle(seed: u64, frames: usize) -> (Movie, Vec<u64>) {
    let mut game = Game::seeded(LEVEL, seed);
    let mut movie = Movie::new_recording("nestor-model", [0; 16], vec![]);
    let mut firsts = vec![1];
    for f in 1..=frames as u64 {
        let was = game.play_state;
        game.step(PadState::NONE);
        movie.push(PadState::NONE);
        if game.play_state == PlayState::Control && was != PlayState::Control {
            firsts.push(f + 1);
        }
    }
    (movie, firsts)
}

/// Sets the pad of frame number `frame` (1 = the first replayed frame).
fn press(movie: &mut Movie, frame: u64, pad: PadState) {
    movie.frames[Replay::movie_index(frame as usize - 1)].port0 = pad;
}

fn breaches(r: &CheckReport) -> Vec<(u64, Breach)> {
    r.violations.iter().map(|v| (v.frame, v.breach)).collect()
}

#[test]
fn a_game_the_driver_recorded_passes_under_its_profile() {
    for (name, _) in crate::movegen::profile::PRESETS {
        let p = Profile::preset(name).unwrap();
        let (movie, firsts) = record(5, &p, 80);
        // The reaction's plans are made with each next piece too: none may change them.
        let r = check(&movie, 5, &p, ReactionCheck::EveryNext);
        assert!(r.passed(), "{name}: {:?}", r.violations.first());
        assert_eq!(r.pieces as usize, firsts.len().min(80), "{name}: {r:?}");
        assert_eq!(r.frames, movie.gameplay_frames().len());
    }
}

#[test]
fn the_unlimited_bot_breaks_15hz_at_its_first_press_off_the_timeline() {
    let (movie, firsts) = record(6, &Profile::default(), 60);
    let pads = movie.gameplay_pads();
    // Found apart from the check: the first new Left/Right/A/B press whose frame, counted
    // from its piece's first frame, is not a multiple of 4.
    let mut want = None;
    for (i, &first) in firsts.iter().enumerate() {
        let end = firsts.get(i + 1).copied().unwrap_or(pads.len() as u64 + 1);
        let off = (first..end).find(|&f| {
            let held = if f >= 2 {
                pads[f as usize - 2]
            } else {
                PadState::NONE
            };
            let new = pads[f as usize - 1].bits() & !held.bits() & 0xC3;
            new != 0 && (f - first) % 4 != 0
        });
        if off.is_some() {
            want = off;
            break;
        }
    }
    let want = want.expect("the 30 Hz bot presses off a 15 Hz timeline somewhere");
    let r = check(
        &movie,
        6,
        &Profile::preset("15hz").unwrap(),
        ReactionCheck::AsSeen,
    );
    assert!(!r.passed());
    let first = r.violations[0];
    assert_eq!(first.frame, want, "{first}");
    assert!(
        matches!(first.breach, Breach::OffTimeline { .. }),
        "{first}"
    );
}

#[test]
fn presses_placed_by_hand_are_found_at_their_frame() {
    let (clean, firsts) = idle(9, 1500);
    assert!(firsts.len() > 6, "{firsts:?}");
    let hz15 = Profile::preset("15hz").unwrap();
    assert!(check(&clean, 9, &hz15, ReactionCheck::AsSeen).passed());
    // A Left on frame 3 of the third piece: off the 15 Hz timeline (frames 0, 4, 8, ...).
    let third = firsts[2];
    let mut m = clean.clone();
    press(&mut m, third + 3, PadState::LEFT);
    let r = check(&m, 9, &hz15, ReactionCheck::AsSeen);
    let left = PadState::LEFT;
    assert_eq!(
        breaches(&r),
        vec![(third + 3, Breach::OffTimeline { pressed: left })]
    );
    assert_eq!((r.violations[0].piece, r.violations[0].piece_frame), (3, 3));
    // On frame 4 the press is on the 15 Hz timeline.
    let mut m = clean.clone();
    press(&mut m, third + 4, left);
    assert!(check(&m, 9, &hz15, ReactionCheck::AsSeen).passed());
    // Held two frames: a tap profile never holds; a hold profile presses a direction once.
    press(&mut m, third + 5, left);
    let r = check(
        &m,
        9,
        &Profile::preset("30hz").unwrap(),
        ReactionCheck::AsSeen,
    );
    assert_eq!(
        breaches(&r),
        vec![(third + 5, Breach::HeldTap { direction: left })]
    );
    let das = Profile::preset("das").unwrap();
    assert!(check(&m, 9, &das, ReactionCheck::AsSeen).passed());
    press(&mut m, third + 8, left);
    let r = check(&m, 9, &das, ReactionCheck::AsSeen);
    assert_eq!(
        breaches(&r),
        vec![(third + 8, Breach::PressedAgain { direction: left })]
    );
}

#[test]
fn the_start_delay_counts_on_the_first_piece_only() {
    let (clean, firsts) = idle(10, 800);
    let delayed = profile("timeline = \"30hz\"\nshift = \"tap\"\nreaction = 0\nstart_delay = 18");
    let mut m = clean.clone();
    press(&mut m, firsts[0] + 4, PadState::A);
    press(&mut m, firsts[1] + 4, PadState::A);
    let r = check(&m, 10, &delayed, ReactionCheck::AsSeen);
    assert_eq!(
        breaches(&r),
        vec![(
            5,
            Breach::BeforeStartDelay {
                pressed: PadState::A
            }
        )]
    );
    // From frame 18 on, the first piece may press.
    let mut m = clean;
    press(&mut m, firsts[0] + 18, PadState::A);
    assert!(check(&m, 10, &delayed, ReactionCheck::AsSeen).passed());
}

#[test]
fn before_the_reaction_time_the_inputs_are_the_spawns_plan() {
    let reacting =
        profile("timeline = \"unlimited\"\nshift = \"tap\"\nreaction = 18\nstart_delay = 0");
    // Pressing nothing breaks it where the spawn's plan first presses something.
    let (idle_movie, _) = idle(11, 400);
    let game = Game::seeded(LEVEL, 11);
    let plan = planner(&reacting)
        .plan(&Situation::of(&game))
        .expect("a plan");
    let at = plan.inputs.iter().position(|&p| p != PadState::NONE);
    let r = check(&idle_movie, 11, &reacting, ReactionCheck::AsSeen);
    match at.filter(|&i| i < 18) {
        Some(i) => assert_eq!(
            breaches(&r)[0],
            (
                1 + i as u64,
                Breach::Reaction {
                    planned: plan.inputs[i],
                    pressed: PadState::NONE
                }
            )
        ),
        None => assert!(r.violations.is_empty()),
    }
    // The driver's own game passes; one changed pad before frame 18 of a piece does not.
    let (movie, firsts) = record(12, &reacting, 40);
    assert!(check(&movie, 12, &reacting, ReactionCheck::AsSeen).passed());
    let mut m = movie.clone();
    let f = firsts[5] + 7;
    let was = m.gameplay_pads()[f as usize - 1];
    press(&mut m, f, was.union(PadState::B));
    let r = check(&m, 12, &reacting, ReactionCheck::AsSeen);
    assert_eq!(r.violations[0].frame, f, "{}", r.violations[0]);
    assert!(matches!(r.violations[0].breach, Breach::Reaction { .. }));
    // Past the reaction time, the same change is allowed (if it breaks nothing else).
    let mut m = movie;
    let f = firsts[5] + 18;
    let was = m.gameplay_pads()[f as usize - 1];
    press(&mut m, f, was.union(PadState::DOWN));
    let r = check(&m, 12, &reacting, ReactionCheck::AsSeen);
    assert!(
        r.violations.iter().all(|v| v.frame > f || v.piece != 6),
        "{:?}",
        r.violations.first()
    );
}

/// The model behind a power-on screen: for the first `blank` frames RAM is all zeros (the
/// legal screen, `gameMode` 0), then the seeded game runs, as a cartridge leaves its menus
/// for a game whose first piece shows the first-piece delay.
struct AfterMenus {
    blank: u64,
    frames: u64,
    zeros: Vec<u8>,
    inner: ModelConsole,
}

impl Console for AfterMenus {
    fn frame(&mut self, pad: PadState) -> Result<(), crate::nes::ConsoleError> {
        self.frames += 1;
        if self.frames > self.blank {
            self.inner.frame(pad)?;
        }
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        if self.frames >= self.blank {
            self.inner.ram()
        } else {
            &self.zeros
        }
    }

    fn frame_number(&self) -> u64 {
        self.frames
    }
}

#[test]
fn a_game_started_after_the_menus_is_found_from_its_first_piece() {
    let delayed = profile("timeline = \"30hz\"\nshift = \"tap\"\nreaction = 0\nstart_delay = 18");
    let (game, firsts) = record(13, &delayed, 30);
    let blank = 40u64;
    let mut movie = Movie::new_recording("nestor-model", [0; 16], vec![]);
    for _ in 0..blank {
        movie.push(PadState::NONE);
    }
    movie.frames.extend_from_slice(game.gameplay_frames());
    let console = || AfterMenus {
        blank,
        frames: 0,
        zeros: vec![0; 0x800],
        inner: model(13),
    };
    let run = |m: &Movie| {
        check_movie(
            m,
            &mut console(),
            &AddressMap::default(),
            &mut planner(&delayed),
            ReactionCheck::AsSeen,
        )
        .unwrap()
    };
    let r = run(&movie);
    assert!(r.passed(), "{:?}", r.violations.first());
    assert_eq!(r.pieces as usize, firsts.len().min(30));
    // A press on frame 4 of the first piece breaks the start delay: the check knew it was the
    // game's first piece although the console was not in play when the replay began.
    let mut m = movie.clone();
    press(&mut m, blank + 5, PadState::A);
    let r = run(&m);
    assert_eq!(
        breaches(&r)[0],
        (
            blank + 5,
            Breach::BeforeStartDelay {
                pressed: PadState::A
            }
        )
    );
}

#[test]
fn a_das_game_carries_its_charge_through_entry_delays_and_a_second_press_there_is_found() {
    let das = Profile::preset("das").unwrap();
    let (mut movie, firsts) = record(7, &das, 60);
    let pads = movie.gameplay_pads();
    let r = check(&movie, 7, &das, ReactionCheck::AsSeen);
    assert!(r.passed(), "{:?}", r.violations.first());
    // The driver held a direction into some pieces (the carried charge): the pad of the frame
    // before a piece's first frame holds Left or Right.
    let carried: Vec<u64> = firsts[1..]
        .iter()
        .copied()
        .filter(|&f| pads[f as usize - 2].intersects(PadState::LEFT | PadState::RIGHT))
        .collect();
    assert!(carried.len() >= 5, "{carried:?}");
    // Just before the spawn of such a piece: the other direction pressed for one frame, then
    // the carried one again: a second new press in one entry delay.
    let f = carried[0];
    let kept = pads[f as usize - 2];
    let other = if kept.intersects(PadState::LEFT) {
        PadState::RIGHT
    } else {
        PadState::LEFT
    };
    press(&mut movie, f - 3, other);
    press(&mut movie, f - 2, kept);
    let r = check(&movie, 7, &das, ReactionCheck::AsSeen);
    let entry: Vec<_> = breaches(&r)
        .into_iter()
        .filter(|(_, b)| matches!(b, Breach::EntryPress { .. }))
        .collect();
    // The second press is the other direction's when the kept one was pressed in the delay,
    // the kept one's again when it was held from the lock.
    assert!(
        entry == vec![(f - 3, Breach::EntryPress { pressed: other })]
            || entry == vec![(f - 2, Breach::EntryPress { pressed: kept })],
        "{:?}",
        r.violations
    );
    // Under a tap profile the carried direction itself is the breach.
    let (movie, _) = record(7, &das, 60);
    let r = check(
        &movie,
        7,
        &Profile::preset("30hz").unwrap(),
        ReactionCheck::AsSeen,
    );
    assert!(breaches(&r)
        .iter()
        .any(|(_, b)| matches!(b, Breach::EntryPress { .. })));
}
