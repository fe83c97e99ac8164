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
use super::piece_log::PieceLog;
use crate::game::piece::Piece;
use crate::game::score::bcd_value;
use crate::game::state::PlayState;
use crate::game::{PadState, Pos};
use crate::search::eval::Evaluator;
use crate::search::plan::{Plan, Planner, Situation};
use crate::search::profile::PieceProgress;

/// Frames the play screen may take to load after the menus (the cartridge needs about 5).
const START_LIMIT: u32 = 300;
/// The level from which gravity stays at one row per frame (the "killscreen" of the figures).
pub const LEVEL_29: u8 = 29;

/// Where the driver is.
#[derive(Clone, Debug)]
enum Mode {
    Menu(MenuNav),
    /// `gameMode` 4 reached; waiting for `initGameState` to finish (the screen loads), for
    /// this many frames so far.
    Starting(u32),
    Playing,
}

/// How the driver starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverConfig {
    /// A-type start level for every game the driver starts from the menus (0-19).
    pub level: u8,
}

/// The plan being followed.
#[derive(Clone, Debug)]
struct Following {
    plan: Plan,
    cursor: usize,
    planned_at: u64,
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
    following: Option<Following>,
    /// The planner found nothing for this piece; wait for the next spawn.
    stuck: bool,
    last_pad: PadState,
    game: GameCounts,
    total: GameCounts,
    games_over: u32,
    /// Watches the play frames for a game that stopped.
    stuck_frames: FreezeWatch,
    /// The piece under control since its spawn: what a re-plan inside it counts from.
    piece: PieceLog,
    /// Plans dropped where they asked (`Plan::replan_after`), over the run.
    replans: u64,
    /// Tests: sets `replan_after` on every plan made at a spawn, before the planner does.
    #[cfg(test)]
    pub(crate) replan_override: Option<usize>,
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
        let mode = if now.in_play() {
            Mode::Playing
        } else {
            Mode::Menu(MenuNav::start_game(config.level)?)
        };
        let mut d = Driver {
            console,
            map,
            planner,
            config,
            mode,
            now,
            following: None,
            stuck: false,
            last_pad: PadState::NONE,
            game: GameCounts::default(),
            total: GameCounts::default(),
            games_over: 0,
            stuck_frames: FreezeWatch::default(),
            piece: PieceLog::default(),
            replans: 0,
            #[cfg(test)]
            replan_override: None,
        };
        d.note_level_29();
        d.game.level = d.now.level;
        d.ensure_plan()?;
        Ok(d)
    }

    pub fn console(&self) -> &C {
        &self.console
    }

    pub fn console_mut(&mut self) -> &mut C {
        &mut self.console
    }

    pub fn into_console(self) -> C {
        self.console
    }

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
        self.following.as_ref().map(|f| &f.plan)
    }

    /// The frame whose end state the current plan was made from.
    pub fn planned_at(&self) -> Option<u64> {
        self.following.as_ref().map(|f| f.planned_at)
    }

    /// What the piece under control has done since its spawn (what a re-plan now would get).
    pub fn piece_progress(&self) -> PieceProgress {
        self.piece.progress()
    }

    /// Plans dropped and made again where they asked (a reaction time), over the run.
    pub fn replans(&self) -> u64 {
        self.replans
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
        self.following = None;
        self.stuck = false;
        self.piece.end();
        self.stuck_frames = FreezeWatch::default();
        self.mode = if self.now.in_play() {
            Mode::Playing
        } else {
            Mode::Menu(MenuNav::start_game(self.config.level)?)
        };
        self.game = GameCounts {
            level: self.now.level,
            ..GameCounts::default()
        };
        self.note_level_29();
        self.ensure_plan()
    }

    /// Remembers the lines at the first frame the level shows 29 or more.
    fn note_level_29(&mut self) {
        if self.game.lines_at_29.is_none() && self.is_playing() && self.now.level >= LEVEL_29 {
            self.game.lines_at_29 = Some(bcd_value(&self.now.lines_bcd));
        }
    }

    /// Fails once the game has looked frozen for `FREEZE_FRAMES` frames.
    fn check_frozen(&mut self, before: &RamSnapshot) -> Result<(), DriverError> {
        let Some(what) = self.stuck_frames.see(before, &self.now) else {
            return Ok(());
        };
        let now = &self.now;
        let err = DriverError::Frozen {
            frame: self.console.frame_number(),
            what,
            frames: FREEZE_FRAMES,
            level: now.level,
            lines: bcd_value(&now.lines_bcd),
            score: bcd_value(&now.score_bcd),
        };
        log::warn!("{err}");
        Err(err)
    }

    /// Runs one frame: chooses the pad, presses it for the frame, reads RAM and reports.
    pub fn step(&mut self) -> Result<Step, DriverError> {
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
        if controlled {
            self.piece.push(pad);
        }
        let before = std::mem::replace(
            &mut self.now,
            RamSnapshot::read(self.console.ram(), &self.map),
        );
        let before_state = before.play_state;
        if self.is_playing() {
            self.check_frozen(&before)?;
        }
        match self.mode {
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
                    self.mode = Mode::Menu(MenuNav::start_game(self.config.level)?);
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
            self.stuck = false;
            self.piece.end();
            self.game = GameCounts {
                level: self.now.level,
                ..GameCounts::default()
            };
            self.stuck_frames = FreezeWatch::default();
            self.note_level_29();
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
        self.ensure_plan()?;
        if self.now.play_state != PlayState::Control as u8 {
            return Ok(PadState::NONE);
        }
        let pad = self
            .following
            .as_ref()
            .and_then(|f| f.plan.inputs.get(f.cursor).copied())
            .unwrap_or(PadState::NONE);
        Ok(pad.without(PadState::START))
    }

    /// True once the new game is ready to play (`RamSnapshot::new_game_ready`).
    fn game_is_ready(&self) -> bool {
        self.now.new_game_ready()
    }

    /// Plans the piece under control when no plan is being followed.
    fn ensure_plan(&mut self) -> Result<(), DriverError> {
        if !self.is_playing()
            || self.following.is_some()
            || self.stuck
            || self.now.play_state != PlayState::Control as u8
        {
            return Ok(());
        }
        let frame = self.console.frame_number();
        let game = self
            .now
            .to_game()
            .map_err(|source| DriverError::Snapshot { frame, source })?;
        // The first plan of a piece is made at its spawn; any later one (the reaction's, a
        // desync's) goes on from what the piece has done since, however many plans came between.
        let situation = if self.piece.is_live() {
            Situation {
                progress: self.piece.progress(),
                ..Situation::of(&game)
            }
        } else {
            self.piece.start(game.held);
            Situation::of(&game)
        };
        match self.planner.plan(&situation) {
            #[allow(unused_mut)] // mutated by the tests' override only
            Some(mut plan) => {
                #[cfg(test)]
                if situation.progress.frames == 0 && self.replan_override.is_some() {
                    plan.replan_after = self.replan_override;
                }
                log::debug!(
                    "frame {frame}: planned a lock at x {}, y {}, orientation {} in {} frames \
                     ({} reachable locks, value {:?})",
                    plan.lock.x,
                    plan.lock.y,
                    plan.lock.orientation.id(),
                    plan.inputs.len(),
                    plan.candidates,
                    plan.value
                );
                self.following = Some(Following {
                    plan,
                    cursor: 0,
                    planned_at: frame,
                })
            }
            None => {
                log::warn!("frame {frame}: no placement found for the piece; pressing nothing");
                self.stuck = true;
            }
        }
        Ok(())
    }

    /// Checks the frame against the plan and keeps the counts.
    fn after_play_frame(&mut self, controlled: bool, before: u8) -> Result<Step, DriverError> {
        let frame = self.console.frame_number();
        let s = &self.now;
        let observed = Pos::new(s.x, s.y, s.orientation);
        let (score, lines) = (bcd_value(&s.score_bcd), bcd_value(&s.lines_bcd));
        let cleared = lines.saturating_sub(self.game.lines);
        if cleared == 4 {
            self.game.tetrises += 1;
            self.total.tetrises += 1;
        }
        self.game.score = score;
        self.game.lines = lines;
        self.game.level = s.level;
        if self.game.lines_at_29.is_none() && s.level >= LEVEL_29 {
            self.game.lines_at_29 = Some(lines);
        }
        let state = s.play_state;
        let mut step = Step::Playing;
        if controlled {
            if let Some(f) = &mut self.following {
                let expected = f.plan.expected.get(f.cursor).copied();
                if expected == Some(observed) {
                    f.cursor += 1;
                } else {
                    log::info!(
                        "desync at frame {frame}: expected {expected:?}, observed {observed:?} \
                         (plan made at frame {}); re-planning",
                        f.planned_at
                    );
                    step = Step::Desync {
                        frame,
                        expected,
                        observed,
                        planned_at: f.planned_at,
                    };
                    self.following = None;
                    self.game.desyncs += 1;
                    self.total.desyncs += 1;
                }
            }
            if state != PlayState::Control as u8 {
                // RAM keeps the piece where it locked, so a lock that comes earlier than
                // planned can still match the expected position: it must also be the plan's
                // last frame and its lock.
                if let Some(f) = &self.following {
                    let l = f.plan.lock;
                    if f.cursor != f.plan.inputs.len()
                        || observed != Pos::new(l.x, l.y, l.orientation.id())
                    {
                        log::info!(
                            "desync at frame {frame}: locked at {observed:?} after {} of {} \
                             planned frames (plan made at frame {})",
                            f.cursor,
                            f.plan.inputs.len(),
                            f.planned_at
                        );
                        step = Step::Desync {
                            frame,
                            expected: f.plan.expected.get(f.cursor).copied(),
                            observed,
                            planned_at: f.planned_at,
                        };
                        self.game.desyncs += 1;
                        self.total.desyncs += 1;
                    }
                }
                self.following = None;
                self.stuck = false;
                self.piece.end();
                self.game.pieces += 1;
                self.total.pieces += 1;
                if step == Step::Playing {
                    step = Step::Locked {
                        x: observed.x,
                        y: observed.y,
                        id: observed.id,
                    };
                }
            } else if let Some(f) = &self.following {
                // The plan's first inputs were all it committed to (made before the next piece
                // was seen): plan again from here, with the piece's progress.
                if f.plan.replan_after == Some(f.cursor) {
                    log::debug!(
                        "frame {frame}: re-planning after {} frames of the plan made at frame {}",
                        f.cursor,
                        f.planned_at
                    );
                    self.following = None;
                    self.replans += 1;
                }
            }
        }
        let curtain = PlayState::Curtain as u8;
        if state == curtain && before != curtain {
            self.following = None;
            self.piece.end();
            self.games_over += 1;
            self.total.score += score;
            self.total.lines += lines;
            self.total.level = self.total.level.max(s.level);
            self.mode = Mode::Menu(MenuNav::back_to_level_menu());
            log::info!(
                "frame {frame}: game over at level {}, {lines} lines, score {score}, {} pieces, \
                 {} desyncs",
                s.level,
                self.game.pieces,
                self.game.desyncs
            );
            return Ok(Step::GameOver {
                score,
                lines,
                level: s.level,
            });
        }
        if state == PlayState::Control as u8 && before != PlayState::Control as u8 {
            self.stuck = false;
            self.following = None;
            self.piece.end();
            if let Some(piece) = Piece::from_spawn_id(s.orientation) {
                if step == Step::Playing {
                    step = Step::Spawned { piece };
                }
            }
        }
        self.ensure_plan()?;
        Ok(step)
    }
}

#[cfg(test)]
#[path = "driver_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "driver_profile_tests.rs"]
mod profile_tests;
