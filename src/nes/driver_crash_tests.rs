//! Driver tests past level 155 on the rules model (no ROM): a crash and a hang end the game as
//! crashed, and the run-ahead check sees a crash on its copy and plans around it.

use super::*;
use crate::game::Game;
use crate::nes::console::ConsoleError;
use crate::nes::model_console::ModelConsole;
use crate::nes::test_consoles::{driver, Stopping};
use crate::search::eval::Standard;

#[test]
fn a_crash_and_a_hang_end_the_game_as_crashed_with_their_kind_and_frame() {
    use crate::game::CrashKind;
    use crate::search::follow::{line_count, Crash};
    for (kind, level, after) in [
        (CrashKind::Crash, 157u8, FREEZE_FRAMES),
        (CrashKind::Hang, 157, super::super::freeze::HANG_FRAMES),
        (CrashKind::Hang, 60, FREEZE_FRAMES),
    ] {
        let mut game = Game::seeded(19, 12);
        game.level = level;
        game.lines = [0x15, 15];
        let inner = ModelConsole::new(game, AddressMap::default());
        let at = 900;
        let console = Stopping::new(inner, at, kind.into());
        let mut d = driver(console);
        let step = loop {
            let step = d.step().unwrap();
            // Once the console has stopped, a piece the plan expects to move does not: a
            // desync then is the stop seen from the plan, not a fault.
            let desync = matches!(step, Step::Desync { .. }) && d.console().frames <= at;
            assert!(
                !desync && !matches!(step, Step::GameOver { .. }),
                "{step:?} {:?} frame {}",
                d.game(),
                d.console().frames
            );
            if matches!(step, Step::Crashed { .. }) || d.console().frames > at + 5000 {
                break step;
            }
        };
        assert_eq!(
            d.console().frames,
            at + u64::from(after),
            "{kind} at {level}"
        );
        let g = d.console().inner.game();
        let (lines, score) = (line_count(g.lines), g.score());
        assert_eq!(
            step,
            Step::Crashed {
                kind,
                frame: at,
                level: g.level,
                lines,
                score
            }
        );
        let crash = Crash {
            kind,
            frame: at,
            level: g.level,
            lines,
        };
        assert_eq!(d.game().crash, Some(crash));
        assert!(d.game().pieces > 10, "{:?}", d.game());
        assert!(d.step().is_err(), "a crashed console plays no more");
    }
}

/// The play-state-5 frames a console and its copies ran: (piece count, lines), and the pad.
type State5Log = std::rc::Rc<std::cell::RefCell<Vec<((u8, [u8; 2]), PadState)>>>;

/// Which play-state-5 frames [`CrashOnClear`] crashes on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CrashRule {
    /// A clear of two lines or more.
    MultiLine,
    /// A lock without a line near the left wall (x ≤ 2): at levels 249-255 such frames land in
    /// the dispatch windows as a clear's do.
    LinelessLeft,
}

/// A model console whose cartridge crashes on the first play-state-5 frame its `rule` picks at
/// `level` or above (the rules model's crash forced, as the traces past 155 show one): RAM
/// freezes from that frame.
#[derive(Clone)]
struct CrashOnClear {
    inner: ModelConsole,
    level: u8,
    rule: CrashRule,
    last_lock_x: u8,
    frozen: Option<Vec<u8>>,
    frames: u64,
    /// Every play-state-5 frame run, on this console and on its copies (shared): the piece
    /// count and lines it ran at, and the pad held in it.
    state5: State5Log,
}

impl Console for CrashOnClear {
    fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
        self.frames += 1;
        if self.frozen.is_some() {
            return Ok(());
        }
        let level = self.inner.game().level;
        self.inner.frame(pad)?;
        let ev = self.inner.events();
        if let Some(pos) = ev.locked {
            self.last_lock_x = pos.x;
        }
        if ev.landing > 0 {
            let g = self.inner.game();
            self.state5
                .borrow_mut()
                .push(((g.picker.spawn_count, g.lines), pad));
        }
        let hit = match self.rule {
            CrashRule::MultiLine => ev.cleared >= 2,
            CrashRule::LinelessLeft => ev.landing > 0 && ev.cleared == 0 && self.last_lock_x <= 2,
        };
        if hit && level >= self.level {
            self.inner.game_mut().crashed = Some(crate::game::CrashKind::Crash);
            self.frozen = Some(self.inner.ram().to_vec());
        }
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        self.frozen.as_deref().unwrap_or(self.inner.ram())
    }

    fn frame_number(&self) -> u64 {
        self.frames
    }

    fn save(&self) -> Result<Option<crate::nes::console::Saved>, ConsoleError> {
        Ok(Some(crate::nes::console::Saved(Box::new(self.clone()))))
    }

    fn restore(&mut self, saved: &crate::nes::console::Saved) -> Result<(), ConsoleError> {
        if let Some(c) = saved.0.downcast_ref::<CrashOnClear>() {
            *self = c.clone();
        }
        Ok(())
    }
}

fn crash_driver(level: u8, run_ahead: Option<u8>) -> Driver<CrashOnClear, Standard> {
    crash_driver_with(level, run_ahead, CrashRule::MultiLine)
}

fn crash_driver_with(
    level: u8,
    run_ahead: Option<u8>,
    rule: CrashRule,
) -> Driver<CrashOnClear, Standard> {
    let mut planner = Planner::new(Standard::default());
    // The console crashes on clears the model calls safe: the model's own guard stays out of
    // the way so that only the run-ahead can see them.
    planner.crash_guard.off = true;
    crash_driver_planned(level, run_ahead, rule, planner)
}

/// The level and BCD lines a game from 19 has at its first line of `level`.
fn first_line_of(level: u8) -> (u8, [u8; 2]) {
    let mut at = (19, [0, 0]);
    while at.0 != level {
        at = crate::search::pairs::level_and_lines_after(at.0, at.1, 1);
    }
    at
}

fn crash_driver_planned(
    level: u8,
    run_ahead: Option<u8>,
    rule: CrashRule,
    planner: Planner<Standard>,
) -> Driver<CrashOnClear, Standard> {
    let mut game = Game::seeded(19, 21);
    // Locks without a line come near a window only from 247: a game there to see them.
    (game.level, game.lines) = match rule {
        CrashRule::MultiLine => (157, [0x15, 15]),
        CrashRule::LinelessLeft => first_line_of(level),
    };
    let console = CrashOnClear {
        inner: ModelConsole::new(game, AddressMap::default()),
        level,
        rule,
        last_lock_x: 0,
        frozen: None,
        frames: 0,
        state5: Default::default(),
    };
    let mut d = Driver::new(
        console,
        AddressMap::default(),
        planner,
        DriverConfig { level: 19 },
    )
    .expect("a model console in play needs no menus");
    d.set_run_ahead(run_ahead);
    d
}

/// Steps `d` until its console crashes (at most 40,000 frames): the frames it took.
fn frames_to_crash(d: &mut Driver<CrashOnClear, Standard>) -> u64 {
    (1..=40_000u64)
        .find(|_| matches!(d.step().unwrap(), Step::Crashed { .. }))
        .expect("the cartridge crashes without the run-ahead")
}

/// Steps `d` for `frames` frames, none of them a crash or a desync.
fn plays_on(d: &mut Driver<CrashOnClear, Standard>, frames: u64) {
    for _ in 0..frames {
        let step = d.step().unwrap();
        assert!(
            !matches!(step, Step::Crashed { .. } | Step::Desync { .. }),
            "{step:?}"
        );
    }
}

#[test]
fn the_run_ahead_sees_the_crash_and_plans_around_it() {
    // Without the check the bot makes a multi-line clear sooner or later, and it crashes.
    let mut off = crash_driver(157, None);
    let frames = frames_to_crash(&mut off);
    assert_eq!(off.run_ahead(), RunAheadCounts::default());
    // With it, every such clear is seen on the copy first and planned around.
    let mut on = crash_driver(157, Some(150));
    plays_on(&mut on, frames + 3000);
    let counts = on.run_ahead();
    let (checks, crashes) = (counts.checks, counts.crashes);
    assert!(crashes >= 1 && checks > crashes, "{counts:?}");
    assert_eq!(on.run_ahead_replans(), crashes);
    // The model beside the copy plays on where the copy crashes (the crash is this console's
    // own): every crash it did not leave open is a disagreement, and only those.
    assert!(counts.disagreements >= 1, "{counts:?}");
    assert!(counts.disagreements <= crashes, "{counts:?}");
    assert!(on.game().lines > off.game().lines, "{:?}", on.game());
    assert_eq!(on.game().desyncs, 0);
}

#[test]
fn a_watching_run_ahead_counts_the_crash_and_keeps_the_plan() {
    // Watching, the copy sees the crash coming but the bot keeps its plan: the game crashes
    // on the frame it crashes without the check, and the crash was counted first.
    let mut off = crash_driver(157, None);
    let frames = frames_to_crash(&mut off);
    let mut watch = crash_driver(157, Some(150));
    watch.set_run_ahead_watch(true);
    assert_eq!(frames_to_crash(&mut watch), frames);
    assert_eq!(watch.console().inner.game(), off.console().inner.game());
    let counts = watch.run_ahead();
    assert!(
        counts.crashes >= 1 && counts.checks > counts.crashes,
        "{counts:?}"
    );
    assert_eq!(watch.run_ahead_replans(), 0);
}

#[test]
fn the_run_ahead_leaves_the_game_alone() {
    // The copy changes nothing: the same game with the check on and off.
    let (mut on, mut off) = (crash_driver(200, Some(150)), crash_driver(200, None));
    for _ in 0..6000 {
        on.step().unwrap();
        off.step().unwrap();
    }
    assert_eq!(on.console().inner.game(), off.console().inner.game());
    assert_eq!(on.console().frame_number(), off.console().frame_number());
    let counts = on.run_ahead();
    assert!(counts.checks >= 3 && counts.crashes == 0, "{counts:?}");
    // The model read from the copy's RAM agrees with the copy on every clear.
    assert_eq!(counts.disagreements, 0, "{counts:?}");
    assert_eq!(off.run_ahead(), RunAheadCounts::default());
    assert!(on.game().lines > 1515 + 5, "{:?}", on.game());
}

#[test]
fn the_run_ahead_sees_a_lock_without_a_line_stop_the_copy() {
    // Past 247 a lock that clears nothing can crash the cartridge: without the check the bot
    // sooner or later locks such a piece and the console stops.
    let mut off = crash_driver_with(250, None, CrashRule::LinelessLeft);
    let frames = frames_to_crash(&mut off);
    // With it the copy shows the crash first and the lock is planned around.
    let mut on = crash_driver_with(250, Some(150), CrashRule::LinelessLeft);
    plays_on(&mut on, frames + 3000);
    let counts = on.run_ahead();
    assert!(counts.crashes >= 1, "{counts:?}");
    assert_eq!(on.run_ahead_replans(), counts.crashes);
    assert_eq!(on.game().desyncs, 0);
}

#[test]
fn the_run_ahead_copy_holds_what_the_game_holds_after_the_plan_s_lock() {
    // The game holds the plan's entry buttons (a charged DAS, Select for the preview) from
    // the lock to the next spawn: the copy must run each lock's play-state-5 frame with the
    // same pad, or its outcome is another frame's. No crash here: every plan whose lock clears
    // is checked once, so its frame comes twice in a row, the copy's then the game's.
    // The guard on: its preview lever presses Select after some locks.
    let planner = Planner::new(Standard::default());
    let mut d = crash_driver_planned(255, Some(150), CrashRule::MultiLine, planner);
    for _ in 0..6000 {
        d.step().unwrap();
    }
    let log = d.console().state5.borrow().clone();
    let (mut pairs, mut held, mut unchecked, mut i) = (0, 0, 0, 0);
    while i + 1 < log.len() {
        let ((copy_key, copy_pad), (key, pad)) = (log[i], log[i + 1]);
        if copy_key != key {
            // A lock without a line at 157: the model calls its frame safe, not played ahead.
            unchecked += 1;
            i += 1;
            continue;
        }
        assert_eq!(copy_pad, pad, "at {key:?}");
        held += usize::from(pad != PadState::NONE);
        pairs += 1;
        i += 2;
    }
    assert!(pairs > 15, "{pairs} checked clears in {} frames", log.len());
    assert!(
        unchecked > pairs,
        "{unchecked} locks not checked, {pairs} checked"
    );
    assert!(held > 0, "some plan holds a button after its lock");
}
