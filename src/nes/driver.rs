//! The bot loop on a `Console`, one call per frame: menus through `MenuNav`, then plan at each
//! spawn from RAM, press the plan's buttons, check the piece every frame and re-plan on a desync
//! or where the plan asks (a reaction time), counting the piece's progress from its spawn.

use super::addresses::AddressMap;
use super::console::Console;
pub use super::driver_report::{DriverError, GameCounts, Step};
use super::freeze::FreezeWatch;
pub use super::freeze::FREEZE_FRAMES;
use super::menu::{MenuGoal, MenuNav};
use super::observe::RamSnapshot;
use crate::game::piece::Piece;
use crate::game::score::bcd_value;
use crate::game::state::PlayState;
use crate::game::{PadState, Pos};
use crate::search::eval::Evaluator;
pub use crate::search::follow::LEVEL_29;
use crate::search::follow::{line_count, Crash, Follower, Seen, Tally};
use crate::search::plan::{Plan, Planner};
use crate::search::profile::PieceProgress;

/// Frames the play screen may take to load after the menus (the cartridge needs about 5).
const START_LIMIT: u32 = 300;

/// Where the driver is.
#[derive(Clone, Debug)]
enum Mode {
    Menu(MenuNav),
    /// `gameMode` 4 reached; waiting for `initGameState` to finish (the screen loads), for
    /// this many frames so far.
    Starting(u32),
    Playing,
    /// The cartridge crashed or hung (what RAM showed): nothing more to play.
    Crashed(String),
}

impl Mode {
    /// Where a driver that first sees `now` is: playing a game in progress; on a finished
    /// game's screens (curtain, high-score entry, ending), pressing through them to the level
    /// menu and a new game, as after its own top-outs; else in the menus.
    fn of(now: &RamSnapshot, config: DriverConfig) -> Result<Mode, DriverError> {
        Ok(if now.game_over_shown() {
            Mode::Menu(MenuNav::back_to_level_menu())
        } else if now.in_play() {
            Mode::Playing
        } else {
            Mode::Menu(MenuNav::start_game(config.level)?)
        })
    }
}

/// How the driver starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverConfig {
    /// A-type start level for every game the driver starts from the menus (0-19).
    pub level: u8,
}

/// The bot playing a console: call `step` once per frame.
pub struct Driver<C: Console, E: Evaluator> {
    console: C,
    map: AddressMap,
    planner: Planner<E>,
    config: DriverConfig,
    mode: Mode,
    /// RAM at the end of the last frame.
    now: RamSnapshot,
    /// Plans, presses and checks the piece under control.
    follower: Follower,
    last_pad: PadState,
    game: GameCounts,
    /// The games over so far, summed.
    finished: GameCounts,
    /// `finished` with the game in progress's pieces, tetrises and desyncs.
    total: GameCounts,
    /// `game` is in `finished` (it is over).
    game_counted: bool,
    games_over: u32,
    /// Watches the play frames for a game that stopped.
    stuck_frames: FreezeWatch,
    /// The run-ahead check: from which level, and what it found.
    run_ahead: RunAhead,
    /// Released frames on the level menu before each start press (`MenuNav::with_wait`).
    menu_wait: u32,
}

impl<C: Console, E: Evaluator> Driver<C, E> {
    /// A driver for `console` as it is now: in play (`gameMode` 4, e.g. the rules model
    /// started with `Game::seeded`) it plays at once; otherwise it navigates the menus to an
    /// A-type game at `config.level`.
    pub fn new(
        console: C,
        map: AddressMap,
        planner: Planner<E>,
        config: DriverConfig,
    ) -> Result<Self, DriverError> {
        let now = RamSnapshot::read(console.ram(), &map);
        let mode = Mode::of(&now, config)?;
        if now.game_over_shown() {
            log::info!(
                "frame {}: a finished game's screen (curtain, high scores or ending): pressing \
                 Start through it to a new game",
                console.frame_number()
            );
        }
        let mut d = Driver {
            console,
            map,
            planner,
            config,
            mode,
            now,
            follower: Follower::default(),
            last_pad: PadState::NONE,
            game: GameCounts::default(),
            finished: GameCounts::default(),
            total: GameCounts::default(),
            game_counted: false,
            games_over: 0,
            stuck_frames: FreezeWatch::default(),
            run_ahead: RunAhead::default(),
            menu_wait: 0,
        };
        d.start_counts();
        d.ensure_plan()?;
        Ok(d)
    }

    /// Waits `frames` released frames on the level menu before each game's start press: the
    /// RNG steps on every frame, so each wait deals a different game (a cartridge batch's
    /// way to vary its games). Applies to a start the driver has not made yet.
    pub fn set_menu_wait(&mut self, frames: u32) {
        self.menu_wait = frames;
        if let Mode::Menu(nav) = &mut self.mode {
            if matches!(nav.goal(), MenuGoal::StartGame { .. }) {
                *nav = nav.clone().with_wait(frames);
            }
        }
    }

    /// The console the driver plays on.
    pub fn console(&self) -> &C {
        &self.console
    }

    /// The console, to change it between frames (load a state, poke RAM).
    pub fn console_mut(&mut self) -> &mut C {
        &mut self.console
    }

    /// Ends the driver and gives the console back.
    pub fn into_console(self) -> C {
        self.console
    }

    /// The planner that chooses each piece's placement.
    pub fn planner(&self) -> &Planner<E> {
        &self.planner
    }

    /// The buttons held in the last frame (for a movie).
    pub fn last_pad(&self) -> PadState {
        self.last_pad
    }

    /// RAM as read at the end of the last frame.
    pub fn snapshot(&self) -> &RamSnapshot {
        &self.now
    }

    /// The plan being followed, if any (for drawing the planned lock).
    pub fn plan(&self) -> Option<&Plan> {
        self.follower.following().map(|f| &f.plan)
    }

    /// The frame whose end state the current plan was made from.
    pub fn planned_at(&self) -> Option<u64> {
        self.follower.following().map(|f| f.planned_at)
    }

    /// What the piece under control has done since its spawn (what a re-plan now would get).
    pub fn piece_progress(&self) -> PieceProgress {
        self.follower.piece_progress()
    }

    /// Plans dropped and made again where they asked (a reaction time), over the run.
    pub fn replans(&self) -> u64 {
        self.follower.replans()
    }

    /// Tests: sets `replan_after` on every plan made at a spawn, before the planner does.
    #[cfg(test)]
    pub(crate) fn override_replan(&mut self, after: Option<usize>) {
        self.follower.override_replan(after);
    }

    /// True while a game is being played (not in the menus or the start-up screens).
    pub fn is_playing(&self) -> bool {
        matches!(self.mode, Mode::Playing)
    }

    /// Counts for the game in progress (or the last one, once it is over).
    pub fn game(&self) -> &GameCounts {
        &self.game
    }

    /// Counts over every game; score, lines and level are summed/maxed at each game over
    /// and include the game in progress only through `game()`.
    pub fn total(&self) -> &GameCounts {
        &self.total
    }

    /// Games that have ended.
    pub fn games_over(&self) -> u32 {
        self.games_over
    }

    /// Starts the game `set_up` puts on the console, without menus: for consoles that begin
    /// games directly, as the rules model does. `set_up` changes the console (e.g. puts a
    /// freshly seeded game in it); the driver then reads RAM and, when it shows a game in
    /// play, plays it as a new game (the run's totals go on).
    pub fn new_game(&mut self, set_up: impl FnOnce(&mut C)) -> Result<(), DriverError> {
        set_up(&mut self.console);
        self.now = RamSnapshot::read(self.console.ram(), &self.map);
        self.follower.reset();
        self.stuck_frames = FreezeWatch::default();
        self.mode = Mode::of(&self.now, self.config)?;
        self.start_counts();
        self.ensure_plan()
    }

    /// A new game's counts, from RAM as it is now (the menus count nothing).
    fn start_counts(&mut self) {
        if !self.game_counted {
            // A game left unfinished (`new_game`) keeps its pieces in the run's counts.
            self.finished += self.game.plays();
        }
        self.game = if self.is_playing() {
            Tally::start(
                bcd_value(&self.now.score_bcd),
                line_count(self.now.lines_bcd),
                self.now.level,
            )
        } else {
            Tally {
                level: self.now.level,
                ..Tally::default()
            }
        };
        self.game_counted = false;
        self.sum_total();
    }

    /// The run's counts: the games over, with the pieces, tetrises and desyncs of the one in
    /// progress.
    fn sum_total(&mut self) {
        self.total = self.finished;
        if !self.game_counted {
            self.total += self.game.plays();
        }
    }

    /// A crash (the frame counter stopped) or a hang (only the NMI's work moving for long)
    /// ends the game as crashed; RAM no longer describing a game fails.
    fn check_frozen(&mut self, before: &RamSnapshot) -> Result<Option<Step>, DriverError> {
        let Some(freeze) = self.stuck_frames.watch(before, &self.now) else {
            return Ok(None);
        };
        let Some(kind) = freeze.kind else {
            let err = self.frozen(freeze.what, freeze.frames);
            log::warn!("{err}");
            return Err(err);
        };
        let now = &self.now;
        // The last frame that moved: the signs have lasted `freeze.frames` frames since.
        let frame = self.console.frame_number() - u64::from(freeze.frames);
        let (level, lines, score) = (
            now.level,
            line_count(now.lines_bcd),
            bcd_value(&now.score_bcd),
        );
        self.game.crash = Some(Crash {
            kind,
            frame,
            level,
            lines,
        });
        self.follower.reset();
        self.mode = Mode::Crashed(freeze.what.clone());
        log::warn!(
            "the cartridge {} at frame {frame} ({}): level {level}, {lines} lines, score \
             {score}",
            kind.past(),
            freeze.what
        );
        Ok(Some(Step::Crashed {
            kind,
            frame,
            level,
            lines,
            score,
        }))
    }

    /// The error for a game that stopped and cannot go on.
    fn frozen(&self, what: String, frames: u32) -> DriverError {
        let now = &self.now;
        DriverError::Frozen {
            frame: self.console.frame_number(),
            what,
            frames,
            level: now.level,
            lines: line_count(now.lines_bcd),
            score: bcd_value(&now.score_bcd),
        }
    }

    /// Runs one frame: chooses the pad, presses it for the frame, reads RAM and reports.
    pub fn step(&mut self) -> Result<Step, DriverError> {
        if let Mode::Crashed(what) = &self.mode {
            let what = match self.game.crash {
                Some(c) => format!(
                    "{what} (the cartridge {} at frame {})",
                    c.kind.past(),
                    c.frame
                ),
                None => what.clone(),
            };
            return Err(self.frozen(what, 0));
        }
        let menu_pad = if matches!(self.mode, Mode::Menu(_)) {
            self.menu_pad_or_switch()?
        } else {
            None
        };
        let pad = match menu_pad {
            Some(p) => p,
            None => self.play_pad()?,
        };
        // The frame is "controlled" when the piece was under control at its start: only then
        // does the plan say where the piece ends.
        let controlled = self.is_playing() && self.now.play_state == PlayState::Control as u8;
        self.console.frame(pad)?;
        self.last_pad = pad;
        let before = std::mem::replace(
            &mut self.now,
            RamSnapshot::read(self.console.ram(), &self.map),
        );
        let before_state = before.play_state;
        if self.is_playing() {
            if let Some(crashed) = self.check_frozen(&before)? {
                return Ok(crashed);
            }
        }
        match self.mode {
            // Not reached: `step` returns before running a frame on a crashed console.
            Mode::Crashed(ref what) => Err(self.frozen(what.clone(), 0)),
            Mode::Menu(_) => Ok(Step::Menu),
            Mode::Starting(ref mut frames) => {
                *frames += 1;
                if *frames > START_LIMIT {
                    return Err(DriverError::NotStarting {
                        frames: *frames,
                        problems: self.now.problems().iter().map(|b| b.to_string()).collect(),
                    });
                }
                self.start_if_ready()?;
                Ok(Step::Menu)
            }
            Mode::Playing => self.after_play_frame(controlled, before_state),
        }
    }

    /// In a menu: the navigator's pad, or `None` once its goal is reached (the mode then
    /// changes and this frame is played by `play_pad`).
    fn menu_pad_or_switch(&mut self) -> Result<Option<PadState>, DriverError> {
        loop {
            let Mode::Menu(nav) = &mut self.mode else {
                return Ok(None);
            };
            if let Some(pad) = nav.next_pad(self.console.ram(), &self.map)? {
                return Ok(Some(pad));
            }
            match nav.goal() {
                MenuGoal::LevelMenu => {
                    let nav = MenuNav::start_game(self.config.level)?.with_wait(self.menu_wait);
                    self.mode = Mode::Menu(nav);
                }
                MenuGoal::StartGame { .. } => {
                    self.mode = Mode::Starting(0);
                    self.start_if_ready()?;
                }
            }
        }
    }

    /// Leaves `Starting` for `Playing` once the new game is ready, and plans its first piece.
    fn start_if_ready(&mut self) -> Result<(), DriverError> {
        if matches!(self.mode, Mode::Starting(_)) && self.game_is_ready() {
            self.mode = Mode::Playing;
            self.follower.reset();
            self.start_counts();
            self.stuck_frames = FreezeWatch::default();
            log::info!(
                "frame {}: a game starts at level {}",
                self.console.frame_number(),
                self.now.level
            );
            self.ensure_plan()?;
        }
        Ok(())
    }

    /// The pad for a frame of play (or of the start-up screens): the plan's byte while the
    /// piece is controlled, nothing otherwise. Never Start: it would pause the game.
    fn play_pad(&mut self) -> Result<PadState, DriverError> {
        if !self.is_playing() {
            return Ok(PadState::NONE);
        }
        let in_control = self.plan_piece(self.console.frame_number())?;
        Ok(self.follower.pad(in_control).without(PadState::START))
    }

    /// The follower's plan for the piece under control, made from RAM at `frame` when none is
    /// being followed; true when the piece is under control.
    fn plan_piece(&mut self, frame: u64) -> Result<bool, DriverError> {
        let (now, in_control) = (&self.now, self.now.play_state == PlayState::Control as u8);
        self.follower
            .ensure_plan(&mut self.planner, frame, in_control, || {
                now.to_game()
                    .map_err(|source| DriverError::Snapshot { frame, source })
            })?;
        Ok(in_control)
    }

    /// True once the new game is ready to play (`RamSnapshot::new_game_ready`).
    fn game_is_ready(&self) -> bool {
        self.now.new_game_ready()
    }

    /// Plans the piece under control when no plan is being followed, and checks a new plan
    /// ahead on a copy of the console from the run-ahead level on.
    fn ensure_plan(&mut self) -> Result<(), DriverError> {
        if !self.is_playing() {
            return Ok(());
        }
        let frame = self.console.frame_number();
        let had_plan = self.follower.following().is_some();
        let check = !had_plan && self.run_ahead.from.is_some_and(|l| self.now.level >= l);
        let result = loop {
            self.plan_piece(frame)?;
            if !check {
                break Ok(());
            }
            match self.look_ahead() {
                Ok(Some(lock))
                    if !self.run_ahead.watch && self.planner.exclude.len() < RUN_AHEAD_TRIES =>
                {
                    // Plan again without the lock that crashed the copy.
                    self.planner.exclude.push(lock);
                    self.follower.drop_plan();
                    self.run_ahead.replans += 1;
                }
                Ok(_) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        self.planner.exclude.clear();
        result
    }

    /// Checks the frame against the plan and keeps the counts.
    fn after_play_frame(&mut self, controlled: bool, before: u8) -> Result<Step, DriverError> {
        let frame = self.console.frame_number();
        let s = &self.now;
        let state = s.play_state;
        let seen = Seen {
            frame,
            controlled,
            in_control: state == PlayState::Control as u8,
            piece: Pos::from_ram(s.x, s.y, s.orientation),
        };
        let (score, lines, level) = (bcd_value(&s.score_bcd), line_count(s.lines_bcd), s.level);
        let report = self.follower.seen(self.last_pad, seen);
        self.game.frame(score, lines, level, &report);
        self.sum_total();
        let mut step = match (report.desync, report.locked) {
            (Some(d), _) => Step::Desync {
                frame: d.frame,
                expected: d.expected,
                observed: d.observed,
                planned_at: d.planned_at,
            },
            (None, Some(Pos { x, y, orientation })) => Step::Locked {
                x,
                y,
                id: orientation.id(),
            },
            (None, None) => Step::Playing,
        };
        let curtain = PlayState::Curtain as u8;
        if state == curtain && before != curtain {
            self.follower.reset();
            self.games_over += 1;
            // `frame` just took this frame's score, lines and level into the game's counts.
            self.finished += self.game;
            self.game_counted = true;
            self.sum_total();
            self.mode = Mode::Menu(MenuNav::back_to_level_menu());
            log::info!(
                "frame {frame}: game over at level {level}, {lines} lines, score {score}, {} \
                 pieces, {} desyncs",
                self.game.pieces,
                self.game.desyncs
            );
            return Ok(Step::GameOver {
                score,
                lines,
                level,
            });
        }
        if seen.in_control && before != PlayState::Control as u8 {
            self.follower.reset();
            if let Some(piece) = Piece::from_spawn_id(self.now.orientation) {
                if step == Step::Playing {
                    step = Step::Spawned { piece };
                }
            }
        }
        self.ensure_plan()?;
        Ok(step)
    }
}

#[path = "driver_run_ahead.rs"]
mod run_ahead;
pub use run_ahead::RunAheadCounts;
pub use run_ahead::RUN_AHEAD_LEVEL;
use run_ahead::{RunAhead, RUN_AHEAD_TRIES};

#[cfg(test)]
#[path = "driver_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "driver_crash_tests.rs"]
mod crash_tests;

#[cfg(test)]
#[path = "driver_profile_tests.rs"]
mod profile_tests;
