//! Menu navigation on the real cartridge (nes-tetris.md §10): from power-on to an A-type game
//! at a chosen start level, and from a game over back to the level menu, confirmed from RAM.

use super::addresses::AddressMap;
use super::console::{Console, ConsoleError};
use crate::game::PadState;

/// Released frames after a cursor press before the next decision (a press, then a release).
const RELEASE: u32 = 1;
/// Released frames after a press that should change the screen, before pressing again.
const TRANSITION: u32 = 8;
/// Released frames after the screen changes: presses during a screen load are lost.
const SCREEN_SETTLE: u32 = 6;
/// Released frames between the Start presses that leave a finished game.
const GAME_OVER_RELEASE: u32 = 2;

use super::modes::{
    GAME_MODE_DEMO as DEMO, GAME_MODE_LEGAL as LEGAL, GAME_MODE_LEVEL_MENU as LEVEL_MENU,
    GAME_MODE_PLAY as PLAY, GAME_MODE_TITLE as TITLE, GAME_MODE_TYPE_MENU as TYPE_MENU,
    RENDER_MODE_ENDING, RENDER_MODE_HIGH_SCORE,
};

/// Where the navigation should end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuGoal {
    /// An A-type game running at this start level (0-19): `gameMode` 4, `levelNumber` = level.
    StartGame {
        /// Start level, 0-19.
        level: u8,
    },
    /// The level menu after a game over (`gameMode` 3), pressing nothing more.
    LevelMenu,
}

impl std::fmt::Display for MenuGoal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MenuGoal::StartGame { level } => write!(f, "an A-type game at level {level}"),
            MenuGoal::LevelMenu => write!(f, "the level menu"),
        }
    }
}

/// Why the menus could not be navigated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MenuError {
    /// The goal asks for a start level past 19.
    #[error("start level {0} is out of range: an A-type game starts at level 0-19")]
    LevelOutOfRange(u8),
    /// The goal was not reached within the frame limit.
    #[error(
        "gave up after {frames} frames trying to reach {goal}: the menus never showed what \
         Tetris (U) [!] shows (RAM: gameMode {game_mode}, playState {play_state}, renderMode \
         {render_mode}, gameType {game_type}, startLevel {start_level})"
    )]
    Timeout {
        /// What the navigation was after.
        goal: MenuGoal,
        /// Frames it tried.
        frames: u64,
        /// `gameMode` ($C0) at the end.
        game_mode: u8,
        /// `playState` ($68) at the end.
        play_state: u8,
        /// `renderMode` ($BD) at the end.
        render_mode: u8,
        /// `gameType` ($C1) at the end.
        game_type: u8,
        /// `startLevel` ($67) at the end.
        start_level: u8,
    },
    /// The game started at another level than asked.
    #[error("the game started at level {got}, not {wanted}")]
    WrongLevel {
        /// The level asked for.
        wanted: u8,
        /// `levelNumber` when the game started.
        got: u8,
    },
    /// The console failed.
    #[error(transparent)]
    Console(#[from] ConsoleError),
}

/// The menu state machine: give it the RAM after each frame, and it gives the buttons to hold
/// in the next frame, or `None` once the goal is confirmed.
#[derive(Clone, Debug)]
pub struct MenuNav {
    goal: MenuGoal,
    limit: u64,
    frames: u64,
    cooldown: u32,
    last_mode: Option<u8>,
    holding_a: bool,
    /// Released frames still to wait on the level menu, the cursor on the level, before the
    /// start press ([`MenuNav::with_wait`]).
    wait: u32,
}

impl MenuNav {
    /// From power-on (or any menu) to an A-type game at `level`.
    pub fn start_game(level: u8) -> Result<MenuNav, MenuError> {
        if level > 19 {
            return Err(MenuError::LevelOutOfRange(level));
        }
        Ok(MenuNav::new(MenuGoal::StartGame { level }, 3000))
    }

    /// From a topped-out game (curtain, high-score entry or ending) to the level menu.
    pub fn back_to_level_menu() -> MenuNav {
        MenuNav::new(MenuGoal::LevelMenu, 6000)
    }

    fn new(goal: MenuGoal, limit: u64) -> MenuNav {
        MenuNav {
            goal,
            limit,
            frames: 0,
            cooldown: 0,
            last_mode: None,
            holding_a: false,
            wait: 0,
        }
    }

    /// Waits `frames` released frames on the level menu, the cursor on the level, before
    /// pressing Start: the RNG steps on every NMI, so each wait deals another game (how a
    /// cartridge batch varies its games, as seeds vary the model's).
    pub fn with_wait(mut self, frames: u32) -> MenuNav {
        self.wait = frames;
        self.limit += u64::from(frames);
        self
    }

    /// Gives up after `frames` frames instead of the default.
    pub fn with_frame_limit(mut self, frames: u64) -> MenuNav {
        self.limit = frames;
        self
    }

    /// Where the navigation ends.
    pub fn goal(&self) -> MenuGoal {
        self.goal
    }

    /// The buttons for the next frame, given RAM at the end of the last one; `Ok(None)` once
    /// the goal is reached.
    pub fn next_pad(
        &mut self,
        ram: &[u8],
        map: &AddressMap,
    ) -> Result<Option<PadState>, MenuError> {
        let b = |addr| AddressMap::byte(ram, addr);
        let mode = b(map.game_mode);
        match self.goal {
            MenuGoal::StartGame { level } if mode == PLAY => {
                // `startLevel` is final (the +10 included) on the frame the game is accepted;
                // `levelNumber` is only copied from it after the play screen has loaded.
                let got = b(map.start_level);
                return if got == level {
                    Ok(None)
                } else {
                    Err(MenuError::WrongLevel { wanted: level, got })
                };
            }
            MenuGoal::LevelMenu if mode == LEVEL_MENU => return Ok(None),
            _ => {}
        }
        if self.frames >= self.limit {
            return Err(MenuError::Timeout {
                goal: self.goal,
                frames: self.frames,
                game_mode: mode,
                play_state: b(map.play_state),
                render_mode: b(map.render_mode),
                game_type: b(map.game_type),
                start_level: b(map.start_level),
            });
        }
        self.frames += 1;
        if self.last_mode != Some(mode) {
            self.last_mode = Some(mode);
            self.cooldown = self.cooldown.max(SCREEN_SETTLE);
            self.holding_a = false;
        }
        if self.cooldown > 0 {
            self.cooldown -= 1;
            return Ok(Some(PadState::NONE));
        }
        let (pad, wait) = match self.goal {
            MenuGoal::StartGame { level } => self.start_game_press(ram, map, mode, level),
            MenuGoal::LevelMenu => {
                let finished = b(map.play_state) == 10;
                let render = b(map.render_mode);
                if mode == PLAY
                    && (finished
                        || render == RENDER_MODE_HIGH_SCORE
                        || render == RENDER_MODE_ENDING)
                {
                    (PadState::START, GAME_OVER_RELEASE)
                } else {
                    (PadState::NONE, 0)
                }
            }
        };
        self.cooldown = wait;
        Ok(Some(pad))
    }

    fn start_game_press(
        &mut self,
        ram: &[u8],
        map: &AddressMap,
        mode: u8,
        level: u8,
    ) -> (PadState, u32) {
        match mode {
            LEGAL | TITLE | DEMO => (PadState::START, RELEASE),
            TYPE_MENU if AddressMap::byte(ram, map.game_type) != 0 => (PadState::LEFT, RELEASE),
            TYPE_MENU => (PadState::START, TRANSITION),
            LEVEL_MENU => {
                let (cur, target) = (AddressMap::byte(ram, map.start_level), level % 10);
                if cur != target {
                    let pad = if (cur < 5) != (target < 5) {
                        if cur < 5 {
                            PadState::DOWN
                        } else {
                            PadState::UP
                        }
                    } else if target > cur {
                        PadState::RIGHT
                    } else {
                        PadState::LEFT
                    };
                    (pad, RELEASE)
                } else if self.wait > 0 {
                    self.wait -= 1;
                    (PadState::NONE, 0)
                } else if level < 10 {
                    (PadState::START, TRANSITION)
                } else if !self.holding_a {
                    // +10: A held on an earlier frame, then Start alone while A is held.
                    self.holding_a = true;
                    (PadState::A, 0)
                } else {
                    self.holding_a = false;
                    (PadState::A.union(PadState::START), TRANSITION)
                }
            }
            _ => (PadState::NONE, 0),
        }
    }
}

/// Runs `nav` on `console` until its goal is confirmed, calling `on_frame` with the buttons
/// of every frame it runs (for a movie). Returns the number of frames run.
pub fn navigate<C: Console>(
    console: &mut C,
    map: &AddressMap,
    mut nav: MenuNav,
    mut on_frame: impl FnMut(PadState),
) -> Result<u64, MenuError> {
    let mut frames = 0;
    while let Some(pad) = nav.next_pad(console.ram(), map)? {
        console.frame(pad)?;
        on_frame(pad);
        frames += 1;
    }
    Ok(frames)
}

#[cfg(test)]
#[path = "menu_tests.rs"]
mod tests;
