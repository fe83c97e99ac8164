//! The hand-written FCEUX-style sample movie: every header key, comment and subtitle read as
//! FCEUX means it, space-released buttons, a soft-reset command, and the unknown key kept.

mod common;

use std::path::PathBuf;

use nestor::game::pad::PadState;
use nestor::movie::{commands, FrameInput, Movie, PortDevice, Subtitle, FCEUX_LEAD_FRAMES};

fn sample_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/movies/fceux-sample.fm2")
}

fn sample() -> Movie {
    Movie::load(&sample_path()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn sample_header_reads_as_fceux_means_it() {
    let h = sample().header;
    assert_eq!(h.emu_version, 20604);
    assert_eq!(h.rerecord_count, 1342);
    assert!(!h.pal);
    assert_eq!(h.rom_filename, "Tetris (U) [!]");
    assert_eq!(h.rom_checksum_text(), "base64:P10g4puOc/NOTZlsboa+qg==");
    assert_eq!(h.rom_checksum[..4], [0x3f, 0x5d, 0x20, 0xe2]);
    assert_eq!(h.guid, "9F3B2A10-77C4-4E01-B2D8-5A6C0E91F4D7");
    assert!(!h.fourscore && !h.microphone && !h.fds);
    assert_eq!(
        (h.port0, h.port1, h.port2),
        (PortDevice::Gamepad, PortDevice::Gamepad, 0)
    );
    assert!(h.new_ppu);
    assert_eq!(h.ram_init_option, Some(0));
    assert_eq!(h.ram_init_seed, Some(-1283746));
    assert_eq!(
        h.comments,
        [
            "author Sample Player",
            "level 19 start, hand-written to test nestor's FM2 reader"
        ]
    );
    assert_eq!(
        h.subtitles,
        [
            Subtitle {
                frame: 0,
                text: "Power on".into()
            },
            Subtitle {
                frame: 7,
                text: "Start pressed".into()
            }
        ]
    );
    // `length` is FCEUX's, unknown to nestor: kept, not interpreted.
    assert_eq!(h.extra, [("length".to_string(), "12".to_string())]);
    assert!(!h.starts_from_savestate());
}

#[test]
fn sample_frames_read_dots_and_spaces_as_released() {
    let movie = sample();
    assert_eq!(movie.frames.len(), 12);
    assert_eq!(movie.frames[1], FrameInput::BLANK, "spaces are released");
    assert_eq!(movie.frames[3].port0, PadState::SELECT);
    assert_eq!(movie.frames[5].port0, PadState::START);
    assert_eq!(movie.frames[7].port0, PadState::RIGHT | PadState::A);
    assert_eq!(movie.frames[7].port1, PadState::LEFT);
    assert_eq!(movie.frames[8].commands, commands::SOFT_RESET);
    assert_eq!(
        movie.frames[9],
        FrameInput {
            commands: 0,
            port0: PadState::LEFT | PadState::UP | PadState::B,
            port1: PadState::RIGHT | PadState::DOWN | PadState::START | PadState::B,
        }
    );
    assert_eq!(movie.frames[10].port0, PadState::DOWN);
    assert_eq!(movie.frames[10].port1, PadState::START | PadState::A);
    assert_eq!(movie.frames[11].port0, PadState(0xFF));
    assert_eq!(movie.gameplay_frames().len(), 12 - FCEUX_LEAD_FRAMES);
    assert_eq!(movie.gameplay_pads()[4], PadState::START);
    assert_eq!(movie.first_command(), Some(8 - FCEUX_LEAD_FRAMES));
}

#[test]
fn sample_rewrites_to_the_same_movie_and_then_byte_identically() {
    let movie = sample();
    let written = movie.to_fm2_string();
    let reparsed = Movie::parse(&written).unwrap();
    assert_eq!(reparsed, movie);
    assert_eq!(reparsed.to_fm2_string(), written);
    // Only the released spaces become dots; the header keeps FCEUX's order.
    let original = std::fs::read_to_string(sample_path()).unwrap();
    let normalised: String = original
        .lines()
        .map(|l| {
            if l.starts_with('|') {
                l.replace(' ', ".")
            } else {
                l.to_string()
            }
        })
        .filter(|l| !l.starts_with("length"))
        .map(|l| l + "\n")
        .collect();
    let written_without_length = common::without_lines(&written, "length");
    assert_eq!(written_without_length, normalised);
}
