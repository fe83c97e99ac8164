//! nestor: plays NES Tetris on the real cartridge inside tetanes-core, with a rules model
//! that matches the cartridge frame for frame and a gravity-aware gamepad-state search.

pub mod coach;
pub mod game;
pub mod io;
pub mod lab;
pub mod movegen;
pub mod movie;
pub mod nes;
pub mod search;
pub mod serve;
pub mod trace;
pub mod ui;
