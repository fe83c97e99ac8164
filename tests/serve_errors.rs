//! `nestor serve` against broken clients: each malformed or oversized message gets a clear
//! `error` line and a closed connection while the server goes on serving; non-loopback
//! addresses, squatted pipe paths and SIGTERM are handled.

#![cfg(unix)]

mod serve_client;

use std::io::Write;
use std::time::Duration;

use nestor::serve::ServerMsg;
use serve_client::{model, play, send_frame, start, Conn};

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
