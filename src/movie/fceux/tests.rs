//! The FCEUX RAM stream judged as the driver judges the console: a live game plays on to its
//! lines and level, a stopped frame counter is a crash from the frame it stopped.

use super::*;
use crate::game::{Game, PadState};
use crate::nes::{Console, ModelConsole};

/// The two pages of every frame of a model game played with no buttons for `frames` frames.
fn stream(frames: usize) -> (Vec<u8>, Game) {
    let map = AddressMap::default();
    let mut c = ModelConsole::new(Game::seeded(19, 7), map);
    let mut out = Vec::new();
    for _ in 0..frames {
        c.frame(PadState::NONE).unwrap();
        for page in PAGES {
            let at = usize::from(page);
            out.extend_from_slice(&c.ram()[at..at + 256]);
        }
    }
    (out, c.game().clone())
}

#[test]
fn a_live_game_is_read_to_its_last_frame_without_a_freeze() {
    let (bytes, game) = stream(600);
    let end = judge(&bytes[..], &AddressMap::default()).unwrap();
    assert_eq!(end.frames, 600);
    assert_eq!(end.froze, None);
    assert_eq!((end.level, end.lines), (game.level, game.line_count()));
    assert_eq!(end.lines_at_rebirth, None);
}

#[test]
fn a_stopped_frame_counter_is_a_crash_from_the_frame_it_stopped() {
    let (mut bytes, game) = stream(300);
    let last = bytes[bytes.len() - RECORD..].to_vec();
    for _ in 0..200 {
        bytes.extend_from_slice(&last);
    }
    let end = judge(&bytes[..], &AddressMap::default()).unwrap();
    let froze = end.froze.expect("the game froze");
    assert_eq!(froze.kind, "crash");
    assert_eq!(froze.frame, 301, "{froze:?}");
    assert_eq!(froze.level, game.level);
    assert_eq!(end.frames, 500);
    // A cut record at the end (FCEUX killed mid-write) is not a frame.
    let end2 = judge(&bytes[..bytes.len() - 7], &AddressMap::default()).unwrap();
    assert_eq!(end2.frames, 499);
}
