//! Tests of the bridge protocol: every message parses and formats back, bad lines say what is
//! wrong, RAM hex has one length, the default map's ranges round-trip, a line read is bounded.

use super::*;

#[test]
fn client_lines_parse_and_format_back() {
    for line in [
        "hello 1 fceux play",
        "hello 1 bizhawk assist",
        "frame 42 00ff7A",
        "bye",
    ] {
        let msg = ClientMsg::parse(line).unwrap();
        let mut out = String::new();
        msg.format(&mut out);
        assert_eq!(out, line);
    }
}

#[test]
fn bad_client_lines_say_what_is_wrong() {
    let err = |l: &str| ClientMsg::parse(l).unwrap_err().to_string();
    assert!(err("hello 2 fceux play").contains("version 2"));
    assert!(err("hello 1 fceux dance").contains("dance"));
    assert!(err("frame x 00").contains("not a decimal"));
    assert!(err("frame 1 0").contains("even number"));
    assert!(err("frame 1 zz").contains("hex"));
    assert!(err("frame 99999999999999999999999 00").contains("out of range"));
    assert!(err("frame 1 00 extra").contains("extra"));
    assert!(err("launch").contains("unknown message `launch`"));
    assert_eq!(ClientMsg::parse("  "), Err(ProtocolError::Empty));
    assert_eq!(
        ClientMsg::parse("frame 1 \u{1}"),
        Err(ProtocolError::NotText)
    );
}

#[test]
fn hex_decodes_only_at_the_expected_length() {
    let mut out = [0u8; 3];
    decode_hex("00fFa5", &mut out).unwrap();
    assert_eq!(out, [0, 0xFF, 0xA5]);
    let e = decode_hex("00ff", &mut out).unwrap_err().to_string();
    assert!(e.contains("2 RAM bytes, expected 3"), "{e}");
    let mut s = String::new();
    encode_hex(&out, &mut s);
    assert_eq!(s, "00ffa5");
}

#[test]
fn default_map_ranges_cover_every_address_and_round_trip() {
    let map = AddressMap::default();
    let r = Ranges::of_map(&map);
    for (a, len) in map.spans() {
        for addr in a..a + len {
            assert!(
                r.spans().iter().any(|&(s, l)| (s..s + l).contains(&addr)),
                "${addr:04X} not covered by {r}"
            );
        }
    }
    // The page and the zero-page block, merged: a handful of ranges, under 400 bytes.
    assert!(
        r.spans().len() <= 6 && r.total() < 400,
        "{r} ({} bytes)",
        r.total()
    );
    assert_eq!(Ranges::parse(r.to_string().split(' ')).unwrap(), r);
    let ram: Vec<u8> = (0..RAM_SIZE).map(|i| (i * 7) as u8).collect();
    let mut bytes = Vec::new();
    r.gather(&ram, &mut bytes);
    assert_eq!(bytes.len(), r.total());
    let mut back = vec![0u8; RAM_SIZE];
    r.scatter(&bytes, &mut back);
    for &(s, l) in r.spans() {
        let s = usize::from(s);
        assert_eq!(back[s..s + usize::from(l)], ram[s..s + usize::from(l)]);
    }
}

#[test]
fn server_lines_round_trip() {
    let msgs = [
        ServerMsg::Hello {
            version: 1,
            nestor: "0.1.0".into(),
            mode: Mode::Assist,
            ranges: Ranges::of_map(&AddressMap::default()),
        },
        ServerMsg::Pad {
            number: 7,
            pad: PadState::LEFT | PadState::A,
            lock: Some([(4, 18), (5, 18), (6, 18), (5, 19)]),
        },
        ServerMsg::Pad {
            number: 8,
            pad: PadState::NONE,
            lock: None,
        },
        ServerMsg::Note("re-planning".into()),
        ServerMsg::Error("line 3: too long".into()),
        ServerMsg::Bye("frames=1".into()),
    ];
    for m in msgs {
        let mut s = String::new();
        m.format(&mut s);
        assert_eq!(ServerMsg::parse(&s), Ok(m), "{s}");
    }
    let mut s = String::new();
    ServerMsg::Pad {
        number: 7,
        pad: PadState::LEFT | PadState::A,
        lock: None,
    }
    .format(&mut s);
    assert_eq!(s, "pad 7 .L.....A");
    let mut s = String::new();
    ServerMsg::Note("two\nlines".into()).format(&mut s);
    assert_eq!(s, "note two lines");
    // A tab in a text line (the fuzzer's find): read as the space it is written back as.
    let tab = ServerMsg::parse("error 7 \tx").unwrap();
    let mut s = String::new();
    tab.format(&mut s);
    assert_eq!(ServerMsg::parse(&s), Ok(tab));
}

#[test]
fn read_line_bounds_what_it_holds() {
    let long = vec![b'a'; MAX_LINE + 10];
    let mut input: &[u8] = &long;
    let mut buf = Vec::new();
    let r = read_line(&mut input, &mut buf).unwrap().unwrap();
    assert_eq!(r, Err(ProtocolError::TooLong { limit: MAX_LINE }));
    assert!(buf.len() <= MAX_LINE + 1);
    let mut input: &[u8] = b"bye\r\nframe 1 00\n";
    assert_eq!(read_line(&mut input, &mut buf).unwrap(), Some(Ok("bye")));
    assert_eq!(
        read_line(&mut input, &mut buf).unwrap(),
        Some(Ok("frame 1 00"))
    );
    assert_eq!(read_line(&mut input, &mut buf).unwrap(), None);
}
