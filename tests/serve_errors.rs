//! `nestor serve` against broken clients: each malformed or oversized message gets a clear
//! `error` line and a closed connection while the server goes on serving; non-loopback
//! addresses, squatted pipe paths and SIGTERM are handled.

#![cfg(unix)]

mod serve_client;

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use nestor::serve::ServerMsg;
use serve_client::{fifo_session, model, play, send_frame, start, Conn};

/// The `error` line nestor sends, after which the connection must end.
fn error_then_closed(conn: &mut Conn) -> String {
    let text = match conn.msg() {
        Some(ServerMsg::Error(t)) => t,
        other => panic!("expected an error line, got {other:?}"),
    };
    assert_eq!(
        conn.line(),
        None,
        "the connection stayed open after: {text}"
    );
    text
}

/// After each bad client, a good one still plays.
/// Greets in play mode and has the model's first frame answered with a pad.
fn first_frame_played(c: &mut Conn) {
    let ranges = c.hello("play");
    send_frame(c, &ranges, 0, &model(3));
    assert!(matches!(c.msg(), Some(ServerMsg::Pad { .. })));
}

fn still_serves(addr: &str) {
    let mut conn = Conn::tcp(addr);
    let ranges = conn.hello("play");
    let mut console = model(0xBAD);
    let (seen, _) = play(&mut conn, &ranges, &mut console, 0, 2, None);
    assert_eq!((seen.pieces, seen.lock_mismatches), (2, 0));
}

#[test]
fn bad_messages_get_an_error_and_the_server_goes_on() {
    let server = start(&["--no-fifo", "--tcp", "127.0.0.1:0"], None);
    let addr = server.addr.clone().unwrap();
    let frame_hex = |c: &mut Conn| {
        let r = c.hello("play");
        (r.total(), r)
    };
    // (what the client does, what the error must say)
    type Case = (&'static str, Box<dyn Fn(&mut Conn)>, &'static str);
    let cases: Vec<Case> = vec![
        (
            "oversized line",
            Box::new(|c| {
                let big = vec![b'f'; 100_000];
                let _ = c.writer.write_all(&big);
                let _ = c.writer.flush();
            }),
            "longer than",
        ),
        (
            "other version",
            Box::new(|c| c.send("hello 9 fceux play").unwrap()),
            "version 9",
        ),
        (
            "frame before hello",
            Box::new(|c| c.send("frame 0 00").unwrap()),
            "`frame` where hello",
        ),
        (
            "binary",
            Box::new(|c| {
                let _ = c.writer.write_all(b"hello \xff\xfe\x00\n");
                let _ = c.writer.flush();
            }),
            "not ASCII",
        ),
        (
            "short RAM",
            Box::new(move |c| {
                let (n, _) = frame_hex(c);
                c.send("frame 0 0011").unwrap();
                assert!(n > 2);
            }),
            "expected",
        ),
        (
            "unknown message mid-game",
            Box::new(|c| {
                first_frame_played(c);
                c.send("launch missiles").unwrap();
            }),
            "unknown message `launch`",
        ),
        (
            "hello twice",
            Box::new(|c| {
                first_frame_played(c);
                c.send("hello 1 again play").unwrap();
            }),
            "`hello` where frame or bye",
        ),
    ];
    for (what, act, says) in cases {
        let mut conn = Conn::tcp(&addr);
        act(&mut conn);
        let text = error_then_closed(&mut conn);
        assert!(
            text.contains(says),
            "{what}: `{text}` does not say `{says}`"
        );
        assert!(text.contains("line "), "{what}: `{text}` names no line");
        still_serves(&addr);
    }
}

#[test]
fn only_loopback_unless_asked() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["serve", "--no-fifo", "--tcp", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a loopback address") && err.contains("--listen-any"),
        "{err}"
    );
    // Asked for: it listens, and warns.
    let mut server = start(&["--no-fifo", "--tcp", "0.0.0.0:0", "--listen-any"], None);
    let _ = server.child.kill();
    let _ = server.child.wait();
    let err = server.early.clone() + &server.stderr_text();
    assert!(err.contains("not only on this machine"), "{err}");
}

#[test]
fn a_squatted_pipe_path_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pipes");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("to-nestor"), "my notes").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nestor"))
        .arg("serve")
        .arg("--fifo")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a named pipe"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("to-nestor")).unwrap(),
        "my notes"
    );
}

#[test]
fn sigterm_ends_the_server_and_removes_the_pipes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pipes");
    let mut server = start(&[], Some(&dir));
    assert!(dir.join("to-nestor").exists() && dir.join("pid").exists());
    let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
    assert_eq!(pid.trim(), server.child.id().to_string());
    // A second server on the same folder is refused and leaves the first one's pipes alone.
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_nestor"))
        .arg("serve")
        .arg("--fifo")
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(
        !second.status.success() && err.contains("another nestor serve"),
        "{err}"
    );
    assert!(dir.join("to-nestor").exists() && dir.join("pid").exists());
    // SAFETY: a plain kill(2) on our own child.
    unsafe {
        libc::kill(server.child.id() as i32, libc::SIGTERM);
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while server.child.try_wait().unwrap().is_none() {
        assert!(std::time::Instant::now() < deadline, "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!dir.join("to-nestor").exists() && !dir.join("pid").exists());
}

/// Waits (up to 10 s) for `path` to exist.
fn wait_exists(path: &Path) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !path.exists() {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// Opens `to-nestor` for writing as a second emulator would, without blocking; says hello
/// when it could.
fn second_emulator_tries(dir: &Path) -> bool {
    let opened = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(dir.join("to-nestor"));
    match opened {
        Ok(mut f) => {
            let _ = f.write_all(b"hello 1 second play\n");
            true
        }
        Err(_) => false,
    }
}

/// A second emulator on the same pipes while one plays: it finds no pipes and waits; the
/// first plays on undisturbed, and the second is served after it.
#[test]
fn a_second_emulator_on_the_pipes_waits_and_the_first_plays_on() {
    let (_tmp, dir, _server, mut first, ranges) = fifo_session(&[], "play");
    let mut console = model(0x5EC0);
    let (_, n) = play(&mut first, &ranges, &mut console, 0, 3, None);
    assert!(
        !second_emulator_tries(&dir),
        "a second emulator could write into the live session's pipe"
    );
    let (seen, _) = play(&mut first, &ranges, &mut console, n, 3, None);
    assert_eq!((seen.pieces, seen.lock_mismatches), (3, 0));
    first.send("bye").unwrap();
    assert!(matches!(first.msg(), Some(ServerMsg::Bye(_))));
    drop(first);
    assert!(
        wait_exists(&dir.join("to-nestor")),
        "the pipes never came back"
    );
    let mut second = Conn::fifo(&dir);
    let ranges = second.hello("play");
    let (seen, _) = play(&mut second, &ranges, &mut model(0x5EC1), 0, 2, None);
    assert_eq!((seen.pieces, seen.lock_mismatches), (2, 0));
}

/// A TCP client that connects and says nothing holds nobody: the next one is served once
/// the hello time limit has passed.
#[test]
fn a_silent_tcp_client_does_not_hold_the_next_one() {
    let mut server = start(&["--no-fifo", "--tcp", "127.0.0.1:0"], None);
    let addr = server.addr.clone().unwrap();
    let _silent = std::net::TcpStream::connect(&addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let s = std::net::TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut next = Conn {
        reader: Box::new(std::io::BufReader::new(s.try_clone().unwrap())),
        writer: Box::new(s),
    };
    next.send("hello 1 next play").unwrap();
    let line = next.line();
    assert!(
        line.as_deref()
            .is_some_and(|l| l.starts_with("hello 1 nestor")),
        "the next client was not served: {line:?}"
    );
    let _ = server.child.kill();
    let _ = server.child.wait();
    let err = server.stderr_text();
    assert!(err.contains("no hello within"), "{err}");
}

/// `hello` then `bye` with no frame: the protocol's `bye SUMMARY` answer all the same.
#[test]
fn hello_then_bye_gets_the_summary() {
    let server = start(&["--no-fifo", "--tcp", "127.0.0.1:0"], None);
    let mut conn = Conn::tcp(server.addr.as_deref().unwrap());
    conn.hello("play");
    conn.send("bye").unwrap();
    match conn.msg() {
        Some(ServerMsg::Bye(s)) => assert!(s.contains("frames=0 pressed=0"), "{s}"),
        other => panic!("expected bye, got {other:?}"),
    }
}

/// `--once`, a clean session, then the script trying the pipes again as it quits (the
/// FCEUX plugin may): the summary and nothing about missing pipes. (It was a race between
/// the pipes' removal and the pipe thread waiting again: a dozen sessions show it.)
#[test]
fn once_ends_quietly_after_a_clean_session() {
    for _ in 0..12 {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pipes");
        let mut server = start(&["--once"], Some(&dir));
        let mut conn = Conn::fifo(&dir);
        first_frame_played(&mut conn);
        conn.send("bye").unwrap();
        assert!(matches!(conn.msg(), Some(ServerMsg::Bye(_))));
        drop(conn);
        for _ in 0..20 {
            if second_emulator_tries(&dir) {
                let _ = std::fs::File::open(dir.join("from-nestor"));
            }
        }
        let out = server.wait_stdout(Duration::from_secs(10));
        assert!(out.contains("said bye"), "{out}");
        let err = server.stderr_text();
        assert!(!err.contains("No such file"), "{err}");
    }
}

/// SIGTERM during a session: the session's summary is said before the server ends.
#[test]
fn sigterm_during_a_session_says_its_summary() {
    let (_tmp, _dir, mut server, mut conn, ranges) = fifo_session(&[], "play");
    play(&mut conn, &ranges, &mut model(0x5EC2), 0, 3, None);
    // SAFETY: a plain kill(2) on our own child.
    unsafe {
        libc::kill(server.child.id() as i32, libc::SIGTERM);
    }
    let _ = server.wait_stdout(Duration::from_secs(10));
    let err = server.stderr_text();
    assert!(
        err.contains("test (play) left: the server was stopped; frames=")
            && err.contains("pieces=3"),
        "{err}"
    );
}

/// A bad line ends the connection with one message on the server's side, not two.
#[test]
fn each_serve_error_is_said_once() {
    let mut server = start(&["--no-fifo", "--tcp", "127.0.0.1:0"], None);
    let mut conn = Conn::tcp(server.addr.as_deref().unwrap());
    first_frame_played(&mut conn);
    conn.send("launch missiles").unwrap();
    error_then_closed(&mut conn);
    std::thread::sleep(Duration::from_millis(300));
    let _ = server.child.kill();
    let _ = server.child.wait();
    let err = server.stderr_text();
    assert_eq!(err.matches("unknown message `launch`").count(), 1, "{err}");
}
