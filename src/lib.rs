//! nestor: plays NES Tetris on the real cartridge inside tetanes-core, with a rules model
//! that matches the cartridge frame for frame and a gravity-aware gamepad-state search.

#![warn(missing_docs)]

#[cfg(feature = "native")]
pub mod coach;
pub mod game;
pub mod io;
#[cfg(feature = "native")]
pub mod lab;
pub mod movegen;
#[cfg(feature = "native")]
pub mod movie;
#[cfg(feature = "native")]
pub mod nes;
pub mod search;
#[cfg(feature = "native")]
pub mod serve;
#[cfg(feature = "native")]
pub mod trace;
#[cfg(feature = "native")]
pub mod ui;
