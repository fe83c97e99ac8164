//! `nestor serve` driven over the bridge protocol by the rules model standing in for the
//! emulator (no ROM): it plays pieces with no desync, over the pipes and over loopback TCP,
//! re-plans after a reset or a loaded state, survives a client that vanishes, and assists.

#![cfg(unix)]

mod serve_client;

use std::time::Duration;

use nestor::game::PadState;
use nestor::nes::{AddressMap, Console, ModelConsole, RamSnapshot};
use nestor::serve::protocol::Ranges;
use nestor::serve::ServerMsg;
use serve_client::{fifo_session, model, play, send_frame, start, summary_value, Conn, Server};

/// A server on a free loopback TCP port, a client connected to it and greeted in `mode`.
fn tcp_session(mode: &str) -> (Server, Conn, Ranges) {
    let server = start(&["--no-fifo", "--tcp", "127.0.0.1:0"], None);
    let mut conn = Conn::tcp(server.addr.as_deref().unwrap());
    let ranges = conn.hello(mode);
    (server, conn, ranges)
}

/// Says `bye` and asserts the summary's values.
fn bye_with(conn: &mut Conn, want: &[(&str, u64)]) {
    let summary = bye(conn);
    for &(key, value) in want {
        assert_eq!(summary_value(&summary, key), value, "{key}: {summary}");
    }
}

fn bye(conn: &mut Conn) -> String {
    conn.send("bye").expect("send bye");
    match conn.msg() {
        Some(ServerMsg::Bye(s)) => s,
        other => panic!("expected bye, got {other:?}"),
    }
}

#[test]
fn plays_sixty_pieces_over_the_pipes_with_no_desync() {
    let (_tmp, dir, mut server, mut conn, ranges) = fifo_session(&["--once", "--json"], "play");
    let mut console = model(0x5E12_0001);
    let (seen, _) = play(&mut conn, &ranges, &mut console, 0, 60, None);
    assert_eq!(seen.pieces, 60, "{seen:?}");
    assert_eq!(
        seen.lock_mismatches, 0,
        "pieces did not land where nestor said"
    );
    let lines = u64::from(nestor::game::score::bcd_value(&console.game().lines));
    bye_with(
        &mut conn,
        &[
            ("desyncs", 0),
            ("pieces", 60),
            ("echo_mismatches", 0),
            ("frames", seen.frames),
            ("lines", lines),
        ],
    );
    assert!(lines >= 10, "60 pieces at level 19 clear lines: {lines}");
    let out = server.wait_stdout(Duration::from_secs(30));
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON summary");
    assert_eq!(json["desyncs"], 0);
    assert_eq!(json["pieces"], 60);
    assert_eq!(json["mode"], "play");
    assert!(json["end"].as_str().unwrap().contains("bye"), "{json}");
    // The pipes are gone with the server.
    assert!(!dir.join("to-nestor").exists() && !dir.join("pid").exists());
}

#[test]
fn a_vanished_client_is_followed_by_the_next_one_over_tcp() {
    let mut server = start(&["--no-fifo", "--tcp", "127.0.0.1:0"], None);
    let addr = server.addr.clone().expect("the port");
    {
        let mut conn = Conn::tcp(&addr);
        let ranges = conn.hello("play");
        let mut console = model(0x5E12_0002);
        let (seen, _) = play(&mut conn, &ranges, &mut console, 0, 8, None);
        assert_eq!((seen.pieces, seen.lock_mismatches), (8, 0));
        // Dropped mid-piece without a bye: the emulator was killed.
    }
    let mut conn = Conn::tcp(&addr);
    let ranges = conn.hello("play");
    let mut console = model(0x5E12_0003);
    let (seen, _) = play(&mut conn, &ranges, &mut console, 0, 12, None);
    assert_eq!((seen.pieces, seen.lock_mismatches), (12, 0));
    bye_with(&mut conn, &[("desyncs", 0), ("pieces", 12)]);
    drop(conn);
    let _ = server.child.kill();
    let err = server.stderr_text();
    assert!(err.contains("closed the connection"), "{err}");
}

/// A loaded save state (frame numbers jump forward into another game) and a reset (back to
/// frame 0, a fresh game): nestor drops its plan, re-plans from what it sees, and does not
/// count either as a desync.
#[test]
fn resets_and_loaded_states_are_replanned_from_not_desyncs() {
    let (_tmp, _dir, _server, mut conn, ranges) = fifo_session(&[], "play");
    let mut a = model(0x5E12_0004);
    let (seen, n) = play(&mut conn, &ranges, &mut a, 100, 5, None);
    assert_eq!(seen.pieces, 5);
    // Mid-piece of another game, thousands of frames later.
    let mut b = model(0x5E12_0005);
    for _ in 0..30 {
        b.frame(PadState::NONE).unwrap();
    }
    let (seen, _) = play(&mut conn, &ranges, &mut b, n + 5000, 6, None);
    assert_eq!((seen.pieces, seen.lock_mismatches), (6, 0), "{seen:?}");
    let mut c = model(0x5E12_0006);
    let (seen, _) = play(&mut conn, &ranges, &mut c, 0, 6, None);
    assert_eq!((seen.pieces, seen.lock_mismatches), (6, 0), "{seen:?}");
    bye_with(&mut conn, &[("jumps", 2), ("desyncs", 0)]);
}

/// A soft reset keeps the frame numbers going but shows the menus: nestor leaves the game it
/// was playing for the menus (pressing Start on the title screen), not a desync.
#[test]
fn a_soft_reset_sends_nestor_back_to_the_menus() {
    let (_server, mut conn, ranges) = tcp_session("play");
    let mut console = model(0x5E12_0009);
    let (_, mut n) = play(&mut conn, &ranges, &mut console, 0, 3, None);
    // Power-on RAM: gameMode 0, the legal screen.
    let zeros = vec![0u8; ranges.total()];
    let mut hex = String::new();
    nestor::serve::protocol::encode_hex(&zeros, &mut hex);
    let mut starts = 0;
    for _ in 0..40 {
        conn.send(&format!("frame {n} {hex}")).unwrap();
        n += 1;
        match conn.msg() {
            Some(ServerMsg::Pad { pad, .. }) => starts += u32::from(pad.contains(PadState::START)),
            other => panic!("expected pad, got {other:?}"),
        }
    }
    assert!(starts > 0, "nestor never pressed Start on the title screen");
    bye_with(&mut conn, &[("desyncs", 0), ("jumps", 1)]);
}

/// The emulator paused: nothing arrives for a while, then play goes on where it was.
#[test]
fn a_pause_is_just_a_wait() {
    let (_server, mut conn, ranges) = tcp_session("play");
    let mut console = model(0x5E12_0007);
    let (first, n) = play(&mut conn, &ranges, &mut console, 0, 3, None);
    std::thread::sleep(Duration::from_millis(1500));
    let (seen, _) = play(&mut conn, &ranges, &mut console, n, 5, first.pending);
    assert_eq!((seen.pieces, seen.lock_mismatches), (5, 0));
    bye_with(&mut conn, &[("desyncs", 0)]);
}

/// Assist: nestor presses nothing and shows a lock for each piece soon after it appears.
#[test]
fn assist_shows_a_lock_for_every_piece_and_presses_nothing() {
    let (_server, mut conn, ranges) = tcp_session("assist");
    let mut console = model(0x5E12_0008);
    let (mut shown, mut pieces, mut lock_now) = (0, 0, false);
    for n in 0..600u64 {
        send_frame(&mut conn, &ranges, n, &console);
        let Some(ServerMsg::Pad { pad, lock, .. }) = conn.msg() else {
            panic!("expected a pad");
        };
        assert_eq!(pad, PadState::NONE, "assist pressed buttons");
        if lock.is_some() && !lock_now {
            shown += 1;
        }
        lock_now = lock.is_some();
        // The person: holds Down on even pieces, so pieces come fast.
        let down = if pieces % 2 == 0 {
            PadState::DOWN
        } else {
            PadState::NONE
        };
        console.frame(down).unwrap();
        if console.events().locked.is_some() {
            pieces += 1;
        }
        if console.game().is_over() {
            break;
        }
    }
    assert!(pieces >= 5, "{pieces}");
    assert!(shown >= pieces, "{shown} locks shown for {pieces} pieces");
    let summary = bye(&mut conn);
    assert!(summary_value(&summary, "pieces") >= pieces, "{summary}");
}

/// The emulator's side of a game over, as the cartridge shows it: the model's curtain (then
/// its wait for Start), then a level menu with the cursor on 9 that starts a fresh model game
/// at level 19 when Start is pressed with A held.
enum AfterTopOut {
    Curtain(ModelConsole),
    LevelMenu(Vec<u8>),
    Loading(Vec<u8>),
    Playing(ModelConsole),
}

impl AfterTopOut {
    fn ram(&self) -> &[u8] {
        match self {
            AfterTopOut::Curtain(c) | AfterTopOut::Playing(c) => c.ram(),
            AfterTopOut::LevelMenu(ram) | AfterTopOut::Loading(ram) => ram,
        }
    }

    fn press(self, pad: PadState) -> AfterTopOut {
        let map = AddressMap::default();
        match self {
            AfterTopOut::Curtain(mut c) => {
                c.frame(pad).unwrap();
                if RamSnapshot::read(c.ram(), &map).play_state != 0 {
                    return AfterTopOut::Curtain(c);
                }
                // Start after the curtain: playState 0, then the level menu.
                let mut ram = c.ram().to_vec();
                ram[usize::from(map.game_mode)] = 3;
                ram[usize::from(map.start_level)] = 9;
                AfterTopOut::LevelMenu(ram)
            }
            AfterTopOut::LevelMenu(mut ram) => {
                ram[usize::from(map.held)] = pad.bits();
                if pad.contains(PadState::START) && pad.contains(PadState::A) {
                    // Level 19 accepted: the game screen loads during the next frame.
                    return AfterTopOut::Loading(ram);
                }
                AfterTopOut::LevelMenu(ram)
            }
            AfterTopOut::Loading(_) => AfterTopOut::Playing(model(0x5E12_0011)),
            AfterTopOut::Playing(mut c) => {
                c.frame(pad).unwrap();
                AfterTopOut::Playing(c)
            }
        }
    }
}

/// nestor (re)connected while the game had topped out (it was not running): the curtain and
/// the wait for Start are no freeze; it presses through them to a new game and plays it.
#[test]
fn a_game_over_found_on_connecting_is_pressed_through_to_a_new_game() {
    let mut topped = model(0x5E12_0010);
    while !topped.game().is_over() {
        topped.frame(PadState::NONE).unwrap();
    }
    let (_server, mut conn, ranges) = tcp_session("play");
    let mut screen = AfterTopOut::Curtain(topped);
    let mut n = 5000;
    let mut pressed = 0;
    while n < 8000 && !matches!(screen, AfterTopOut::Playing(_)) {
        let mut bytes = Vec::new();
        ranges.gather(screen.ram(), &mut bytes);
        let mut line = format!("frame {n} ");
        nestor::serve::protocol::encode_hex(&bytes, &mut line);
        conn.send(&line).unwrap();
        n += 1;
        let Some(ServerMsg::Pad { pad, .. }) = conn.msg() else {
            panic!("expected a pad");
        };
        pressed += u32::from(pad != PadState::NONE);
        screen = screen.press(pad);
    }
    let AfterTopOut::Playing(mut game) = screen else {
        panic!("nestor never left the game over ({pressed} frames pressed)");
    };
    let (seen, _) = play(&mut conn, &ranges, &mut game, n, 10, None);
    assert_eq!((seen.pieces, seen.lock_mismatches), (10, 0), "{seen:?}");
    bye_with(
        &mut conn,
        &[("recoveries", 0), ("desyncs", 0), ("echo_mismatches", 0)],
    );
}
