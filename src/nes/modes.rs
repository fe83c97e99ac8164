//! The values the cartridge keeps in its mode bytes (nes-tetris.md §1.2, §2.1): `gameMode`
//! ($C0), `gameModeState` ($A7) and `renderMode` ($BD), named once for the whole host.

/// `gameMode`: the legal screen.
pub const GAME_MODE_LEGAL: u8 = 0;
/// `gameMode`: the title screen.
pub const GAME_MODE_TITLE: u8 = 1;
/// `gameMode`: the game-type menu (A-type / B-type).
pub const GAME_MODE_TYPE_MENU: u8 = 2;
/// `gameMode`: the level menu.
pub const GAME_MODE_LEVEL_MENU: u8 = 3;
/// `gameMode`: play (also during the game-over curtain and the high-score entry).
pub const GAME_MODE_PLAY: u8 = 4;
/// `gameMode`: the attract-mode demo.
pub const GAME_MODE_DEMO: u8 = 5;

/// `gameModeState` at the end of the frame that ran `initGameState` (it waits one NMI).
pub const GMS_INIT: u8 = 1;
/// `gameModeState` at the end of every frame whose game logic ran.
pub const GMS_PLAY: u8 = 2;
/// `gameModeState` in the ending's wait after a game of 30,000 points or more.
pub const GMS_ENDING: u8 = 4;
/// `gameModeState` at the end of a game-logic frame that ran with Down+Left+Right held.
pub const GMS_QUIRK: u8 = 7;

/// The soft-drop byte (`ary`) bit 7: the first-piece delay `initGameState` arms (§5.3).
pub const FIRST_PIECE_DELAY_BIT: u8 = 0x80;

/// `renderMode`: the high-score name entry.
pub const RENDER_MODE_HIGH_SCORE: u8 = 2;
/// `renderMode`: the play screen.
pub const RENDER_MODE_PLAY: u8 = 3;
/// `renderMode`: the ending animation.
pub const RENDER_MODE_ENDING: u8 = 4;
