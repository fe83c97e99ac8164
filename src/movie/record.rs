//! Recording a movie while something plays: a `Console` wrapper that appends every frame's
//! pad to an FM2 movie, so the menus, the bot and scripted inputs record the same way.

use super::value::Movie;
use crate::game::PadState;
use crate::nes::console::{Console, ConsoleError};

/// A console that records every frame it runs. Start it on a freshly powered-on console and
/// a movie from `Movie::new_recording` (which already holds the FCEUX lead frame).
#[derive(Debug)]
pub struct Recorder<C> {
    console: C,
    movie: Movie,
}

impl<C: Console> Recorder<C> {
    /// Records `console`'s frames onto `movie`.
    pub fn new(console: C, movie: Movie) -> Recorder<C> {
        Recorder { console, movie }
    }

    /// The movie recorded so far.
    pub fn movie(&self) -> &Movie {
        &self.movie
    }

    /// The console being recorded.
    pub fn console(&self) -> &C {
        &self.console
    }

    /// The console and the finished movie.
    pub fn into_parts(self) -> (C, Movie) {
        (self.console, self.movie)
    }
}

impl<C: Console> Console for Recorder<C> {
    fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
        self.console.frame(pad)?;
        // Only frames that ran are recorded, so the movie never holds a frame nestor did not
        // emulate.
        self.movie.push(pad);
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        self.console.ram()
    }

    fn frame_number(&self) -> u64 {
        self.console.frame_number()
    }
}
