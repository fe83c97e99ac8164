//! Replaying a power-on movie on a `Console`: refuse a movie made for another cartridge
//! (unless forced), skip the FCEUX lead frame, reject commands nestor cannot reproduce, then
//! feed controller 1's pad frame by frame and show the caller the RAM after each frame.

use std::ops::ControlFlow;
use std::path::Path;

use super::error::Error as MovieError;
use super::file::read_text;
use super::header::encode_checksum;
use super::input::commands;
use super::lead::FCEUX_LEAD_FRAMES;
use super::value::Movie;
use crate::game::PadState;
use crate::nes::console::{Console, ConsoleError, Poke};
use crate::nes::rom::hex;

/// Why a movie cannot be replayed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The movie could not be read.
    #[error(transparent)]
    Movie(#[from] MovieError),
    /// A movie file that parses but cannot be replayed: the file, then why.
    #[error("{path}: {source}")]
    InFile {
        /// The movie file.
        path: std::path::PathBuf,
        /// Why it cannot be replayed.
        #[source]
        source: Box<ReplayError>,
    },
    /// Both hashes in both spellings: hex is what `md5sum` users compare, base64 is what
    /// the FM2 header holds.
    #[error(
        "the movie was recorded on another cartridge: its romChecksum is {movie_hex} \
         ({movie_fm2}), this ROM's PRG+CHR MD5 is {rom_hex} ({rom_fm2}); pass --force to \
         replay it anyway"
    )]
    ChecksumMismatch {
        /// The movie's `romChecksum`, in hex.
        movie_hex: String,
        /// The movie's `romChecksum`, as FM2 writes it (base64).
        movie_fm2: String,
        /// The ROM's PRG+CHR MD5, in hex.
        rom_hex: String,
        /// The ROM's PRG+CHR MD5, as FM2 writes it (base64).
        rom_fm2: String,
    },
    /// The movie starts from an FCEUX save state.
    #[error("the movie starts from an FCEUX save state; nestor replays power-on movies only")]
    Savestate,
    /// The movie was recorded on a PAL console.
    #[error("the movie is a PAL recording (palFlag 1); nestor emulates an NTSC console")]
    Pal,
    /// A reset or power cycle after power-on. Where FCEUX's frames line up with nestor's
    /// after a reset was never measured, so nestor refuses rather than guess.
    #[error(
        "line {line}: input line {input_line} has the {what} command ({commands}); nestor can \
         only replay a movie that runs from power-on without resets"
    )]
    Command {
        /// Line in the file, from 1.
        line: usize,
        /// Input line, from 1 (the lead frame is 1).
        input_line: usize,
        /// The line's `commands` bits.
        commands: u8,
        /// Which command: "power" or "soft reset".
        what: &'static str,
    },
    /// The movie's poke comment is malformed (the message names it).
    #[error("{0}")]
    Poke(String),
    /// The console cannot take the RAM the movie's poke comment asks for.
    #[error("the movie writes RAM after frame {0} (its poke comment); this console cannot")]
    PokeRefused(u64),
    /// The console failed.
    #[error(transparent)]
    Console(#[from] ConsoleError),
}

/// How the movie's `romChecksum` compared with the cartridge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChecksumCheck {
    /// The checksums agree.
    Match,
    /// Different, and replayed anyway because the caller forced it.
    ForcedMismatch,
}

/// One replayed frame, as the console left it.
#[derive(Debug)]
pub struct ReplayFrame<'a> {
    /// Index among the replayed frames (the movie's input lines after the lead), from 0.
    pub index: usize,
    /// Frames run since power-on, this one included (1-based, as the cartridge traces count).
    pub frame: u64,
    /// Controller 1 during the frame.
    pub pad: PadState,
    /// CPU RAM at the end of the frame.
    pub ram: &'a [u8],
}

/// What a replay did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayEnd {
    /// Frames run.
    pub frames: usize,
    /// Frames the movie holds after the lead frame.
    pub movie_frames: usize,
    /// The callback stopped the replay before the movie's end.
    pub stopped: bool,
}

/// A movie checked for replay: its frames and the file line of each input line.
#[derive(Clone, Debug)]
pub struct Replay {
    movie: Movie,
    /// 1-based text line of every input line (lead frame included), for error messages.
    lines: Vec<usize>,
    /// RAM the recording wrote during the game (its poke comment), written again here.
    poke: Option<Poke>,
}

/// The 1-based line numbers of the input lines of FM2 text, found as the parser finds them
/// (a line whose first non-blank character is `|`).
fn input_line_numbers(text: &str) -> Vec<usize> {
    text.split('\n')
        .enumerate()
        .filter(|(_, l)| l.trim_start_matches([' ', '\t']).starts_with('|'))
        .map(|(i, _)| i + 1)
        .collect()
}

impl Replay {
    /// Reads a movie file; every error names the file (once), parse errors the line too.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = read_text(path)?;
        let movie = Movie::parse(&text).map_err(|e| e.in_file(path))?;
        let lines = input_line_numbers(&text);
        Replay::checked(movie, lines).map_err(|e| ReplayError::InFile {
            path: path.to_path_buf(),
            source: Box::new(e),
        })
    }

    /// A movie already in memory; error lines are those of the text nestor would save.
    pub fn from_movie(movie: Movie) -> Result<Replay, ReplayError> {
        let lines = input_line_numbers(&movie.to_fm2_string());
        Replay::checked(movie, lines)
    }

    fn checked(movie: Movie, lines: Vec<usize>) -> Result<Replay, ReplayError> {
        if movie.header.starts_from_savestate() {
            return Err(ReplayError::Savestate);
        }
        if movie.header.pal {
            return Err(ReplayError::Pal);
        }
        let poke = movie.header.poke().map_err(ReplayError::Poke)?;
        let replay = Replay { movie, lines, poke };
        for (i, f) in replay.movie.frames.iter().enumerate() {
            let reset = f.commands & (commands::SOFT_RESET | commands::POWER);
            // A reset or power cycle on the very first line acts on a console that has just
            // been switched on: the state is power-on either way. FDS and VS-coin bits do
            // nothing on a cartridge console, so they are ignored.
            if reset != 0 && i > 0 {
                return Err(ReplayError::Command {
                    line: replay.lines.get(i).copied().unwrap_or(0),
                    input_line: i + 1,
                    commands: f.commands,
                    what: if reset & commands::POWER != 0 {
                        "power"
                    } else {
                        "soft reset"
                    },
                });
            }
        }
        Ok(replay)
    }

    /// The movie replayed.
    pub fn movie(&self) -> &Movie {
        &self.movie
    }

    /// Controller 1 for each frame nestor runs (the lead frame skipped).
    pub fn pads(&self) -> Vec<PadState> {
        self.movie.gameplay_pads()
    }

    /// Compares the movie's `romChecksum` with the cartridge's PRG+CHR MD5; a mismatch is an
    /// error unless `force`.
    pub fn check_rom(
        &self,
        prg_chr_md5: &[u8; 16],
        force: bool,
    ) -> Result<ChecksumCheck, ReplayError> {
        let movie = &self.movie.header.rom_checksum;
        if movie == prg_chr_md5 {
            return Ok(ChecksumCheck::Match);
        }
        if force {
            return Ok(ChecksumCheck::ForcedMismatch);
        }
        Err(ReplayError::ChecksumMismatch {
            movie_hex: hex(movie),
            movie_fm2: encode_checksum(movie),
            rom_hex: hex(prg_chr_md5),
            rom_fm2: encode_checksum(prg_chr_md5),
        })
    }

    /// Runs every frame after the lead on `console` (which must be freshly powered on) and
    /// calls `on_frame` after each; `ControlFlow::Break` stops early. A movie that ends before
    /// the game does simply stops there.
    pub fn run<C: Console + ?Sized>(
        &self,
        console: &mut C,
        mut on_frame: impl FnMut(&ReplayFrame<'_>) -> ControlFlow<()>,
    ) -> Result<ReplayEnd, ReplayError> {
        let frames = self.movie.gameplay_frames();
        let mut end = ReplayEnd {
            frames: 0,
            movie_frames: frames.len(),
            stopped: false,
        };
        for (index, input) in frames.iter().enumerate() {
            console.frame(input.port0)?;
            end.frames += 1;
            if let Some(p) = self.poke.as_ref().filter(|p| p.frame == end.frames as u64) {
                if !p.apply(console) {
                    return Err(ReplayError::PokeRefused(p.frame));
                }
            }
            let frame = ReplayFrame {
                index,
                frame: console.frame_number(),
                pad: input.port0,
                ram: console.ram(),
            };
            if on_frame(&frame).is_break() {
                end.stopped = index + 1 < frames.len();
                break;
            }
        }
        Ok(end)
    }

    /// The file line of input line `index` (0-based, lead frame included).
    pub fn line_of(&self, index: usize) -> Option<usize> {
        self.lines.get(index).copied()
    }

    /// Index in `movie().frames` of replayed frame `index` (the lead frame comes first).
    pub const fn movie_index(index: usize) -> usize {
        index + FCEUX_LEAD_FRAMES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movie::FrameInput;
    use crate::nes::testcart::{self, HELD};
    use crate::nes::{NesDeck, Video};

    fn movie(pads: &[u8]) -> Movie {
        let mut m = Movie::new_recording("t", [7; 16], vec![]);
        for &p in pads {
            m.push(PadState(p));
        }
        m
    }

    #[test]
    fn the_movies_poke_is_written_after_its_frame() {
        use crate::game::Game;
        use crate::nes::{AddressMap, ModelConsole};
        let map = AddressMap::default();
        let mut m = movie(&[0; 6]);
        let poke = Poke {
            frame: 3,
            bytes: vec![(map.level, 77)],
        };
        m.header
            .comments
            .push(crate::movie::Header::poke_comment(&poke));
        let replay = Replay::from_movie(m).unwrap();
        let mut console = ModelConsole::new(Game::seeded(19, 9), map.clone());
        let mut levels = Vec::new();
        replay
            .run(&mut console, |f| {
                levels.push(f.ram[usize::from(map.level)]);
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(levels, [19, 19, 77, 77, 77, 77]);
        // A console whose RAM cannot be written refuses the movie at that frame.
        let mut deck = NesDeck::from_image("t", &testcart::nrom_image(), Video::Headless).unwrap();
        struct ReadOnly<'a>(&'a mut NesDeck);
        impl Console for ReadOnly<'_> {
            fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
                self.0.frame(pad)
            }
            fn ram(&self) -> &[u8] {
                self.0.ram()
            }
            fn frame_number(&self) -> u64 {
                self.0.frame_number()
            }
        }
        let e = replay.run(&mut ReadOnly(&mut deck), |_| ControlFlow::Continue(()));
        assert!(matches!(e, Err(ReplayError::PokeRefused(3))), "{e:?}");
    }

    #[test]
    fn lead_frame_is_skipped_and_frames_count_from_one() {
        let pads: Vec<u8> = (0..40).map(|i| (i * 37) as u8).collect();
        let replay = Replay::from_movie(movie(&pads)).unwrap();
        let mut deck = NesDeck::from_image("t", &testcart::nrom_image(), Video::Headless).unwrap();
        let mut seen = Vec::new();
        let end = replay
            .run(&mut deck, |f| {
                seen.push((f.index, f.frame, f.pad.bits(), f.ram[usize::from(HELD)]));
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(end.frames, 40);
        assert!(!end.stopped);
        for (i, &(index, frame, pad, _)) in seen.iter().enumerate() {
            assert_eq!((index, frame, pad), (i, i as u64 + 1, pads[i]));
        }
        // Once the cart's NMI runs, it stores each frame's pad.
        assert!(seen[10..].iter().all(|s| s.2 == s.3));
    }

    #[test]
    fn break_stops_early() {
        let replay = Replay::from_movie(movie(&[0; 20])).unwrap();
        let mut deck = NesDeck::from_image("t", &testcart::nrom_image(), Video::Headless).unwrap();
        let end = replay
            .run(&mut deck, |f| {
                if f.index == 4 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .unwrap();
        assert_eq!((end.frames, end.stopped), (5, true));
    }

    #[test]
    fn checksum_mismatch_names_both_hashes_unless_forced() {
        let replay = Replay::from_movie(movie(&[0])).unwrap();
        assert_eq!(
            replay.check_rom(&[7; 16], false).unwrap(),
            ChecksumCheck::Match
        );
        let e = replay
            .check_rom(&[0xAB; 16], false)
            .unwrap_err()
            .to_string();
        assert!(e.contains(&"07".repeat(16)), "{e}");
        assert!(e.contains(&"ab".repeat(16)), "{e}");
        assert!(e.contains("base64:BwcHBwcHBwcHBwcHBwcHBw=="), "{e}");
        assert!(e.contains("base64:q6urq6urq6urq6urq6urqw=="), "{e}");
        assert_eq!(
            replay.check_rom(&[0xAB; 16], true).unwrap(),
            ChecksumCheck::ForcedMismatch
        );
    }

    #[test]
    fn reset_after_power_on_names_its_line() {
        let mut m = movie(&[0, 0, 0]);
        m.frames[0].commands = commands::POWER;
        assert!(Replay::from_movie(m.clone()).is_ok());
        m.frames[2] = FrameInput {
            commands: commands::SOFT_RESET,
            ..FrameInput::BLANK
        };
        let header_lines = m
            .to_fm2_string()
            .lines()
            .take_while(|l| !l.starts_with('|'))
            .count();
        match Replay::from_movie(m) {
            Err(ReplayError::Command {
                line, input_line, ..
            }) => {
                assert_eq!(input_line, 3);
                assert_eq!(line, header_lines + 3);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn input_lines_skip_blank_lines_like_the_parser() {
        assert_eq!(
            input_line_numbers("version 3\n\n|0|\n  |1|\nx\n"),
            vec![3, 4]
        );
    }
}
