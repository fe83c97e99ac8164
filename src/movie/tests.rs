//! Unit tests of the `Movie` API: the recording header, the lead frame, parse errors and
//! write → parse → write round trips on hand-made movies.

use super::*;
use crate::game::pad::PadState;

const MD5: [u8; 16] = [
    0x3f, 0x5d, 0x20, 0xe2, 0x9b, 0x8e, 0x73, 0xf3, 0x4e, 0x4d, 0x99, 0x6c, 0x6e, 0x86, 0xbe, 0xaa,
];

fn recording() -> Movie {
    let mut movie = Movie::new_recording("Tetris (U) [!]", MD5, vec!["level 19".into()]);
    movie.header.guid = "452DE2C3-EF43-2FA9-77AC-0677FC51543B".into();
    movie.push(PadState::NONE);
    movie.push(PadState::START);
    movie.push(PadState::LEFT | PadState::A);
    movie
}

#[test]
fn recording_header_is_written_as_fceux_writes_it() {
    let text = recording().to_fm2_string();
    let version = env!("CARGO_PKG_VERSION");
    let expected = format!(
        "version 3\n\
         emuVersion 20605\n\
         rerecordCount 0\n\
         palFlag 0\n\
         romFilename Tetris (U) [!]\n\
         romChecksum base64:P10g4puOc/NOTZlsboa+qg==\n\
         guid 452DE2C3-EF43-2FA9-77AC-0677FC51543B\n\
         fourscore 0\n\
         microphone 0\n\
         port0 1\n\
         port1 1\n\
         port2 0\n\
         FDS 0\n\
         NewPPU 0\n\
         RAMInitOption 2\n\
         RAMInitSeed 0\n\
         comment author nestor {version}\n\
         comment level 19\n\
         comment alignment: the first 1 input line(s) are blank lead frames for FCEUX's extra \
         power-on frame; the next line is nestor's (tetanes-core's) first emulated frame\n\
         |0|........|........||\n\
         |0|........|........||\n\
         |0|....T...|........||\n\
         |0|.L.....A|........||\n"
    );
    assert_eq!(text, expected);
}

#[test]
fn gameplay_skips_the_lead_frame() {
    let movie = recording();
    assert_eq!(movie.frames.len(), 4);
    assert_eq!(
        movie.gameplay_pads(),
        [
            PadState::NONE,
            PadState::START,
            PadState::LEFT | PadState::A
        ]
    );
    assert_eq!(movie.first_command(), None);
    let empty = Movie {
        frames: Vec::new(),
        ..recording()
    };
    assert!(empty.gameplay_frames().is_empty());
}

#[test]
fn write_parse_write_is_identical() {
    let mut movie = recording();
    movie.header.extra.push(("length".into(), "4".into()));
    movie.header.subtitles.push(Subtitle {
        frame: 2,
        text: "hello  there ".into(),
    });
    movie.frames[2].commands = commands::SOFT_RESET;
    let text = movie.to_fm2_string();
    let parsed = Movie::parse(&text).unwrap();
    assert_eq!(parsed, movie);
    assert_eq!(parsed.to_fm2_string(), text);
    assert_eq!(parsed.first_command(), Some(1));
}

#[test]
fn header_values_are_cleaned_so_they_round_trip() {
    let mut movie = recording();
    movie.header.rom_filename = "\n  two\nlines\r".into();
    movie.header.comments.push("\t".into());
    let once = movie.to_fm2_string();
    let parsed = Movie::parse(&once).unwrap();
    assert_eq!(parsed.header.rom_filename, "two lines ");
    assert_eq!(parsed.to_fm2_string(), once);
}

fn parse_err(text: &str) -> Error {
    match Movie::parse(text) {
        Ok(m) => panic!("parsed: {m:?}"),
        Err(e) => e,
    }
}

#[test]
fn rejects_what_is_not_version_3() {
    assert!(matches!(parse_err(""), Error::NotVersion3));
    assert!(matches!(parse_err("version 2\n"), Error::NotVersion3));
    assert!(matches!(parse_err(" version 3\n"), Error::NotVersion3));
    assert!(matches!(
        parse_err("version 31\n"),
        Error::Line { line: 1, .. }
    ));
}

#[test]
fn missing_keys_are_named() {
    let text = recording().to_fm2_string();
    for key in header::REQUIRED_KEYS {
        let without: String = text
            .lines()
            .filter(|l| l.split(' ').next() != Some(key))
            .map(|l| format!("{l}\n"))
            .collect();
        match parse_err(&without) {
            Error::MissingKey { key: k } => assert_eq!(k, key),
            e => panic!("{key}: {e}"),
        }
    }
}

/// Where a line error points, or None for another error.
fn line_and_column(e: Error) -> Option<(usize, usize)> {
    match e {
        Error::Line { line, column, .. } => Some((line, column)),
        _ => None,
    }
}

#[test]
fn bad_lines_report_line_and_column() {
    let text = recording().to_fm2_string();
    let broken = text.replace("|0|....T...|", "|0|....T..|");
    match parse_err(&broken) {
        Error::Line {
            line,
            column,
            reason,
        } => {
            assert_eq!((line, column), (22, 4), "{reason}");
            assert!(reason.contains("port0"), "{reason}");
        }
        e => panic!("{e}"),
    }
    let broken = text.replace("palFlag 0", "palFlag yes");
    assert_eq!(line_and_column(parse_err(&broken)), Some((4, 9)));
    let broken = text.replace("P10g4puOc/NOTZlsboa+qg==", "P10g4puOc");
    assert!(matches!(
        parse_err(&broken),
        Error::RomChecksum { line: 6, .. }
    ));
    let broken = format!("{text}comment late\n");
    assert!(matches!(parse_err(&broken), Error::Line { line: 24, .. }));
    let broken = text.replace("guid ", "guid 1\n  guid ");
    assert_eq!(line_and_column(parse_err(&broken)), Some((8, 3)));
}

#[test]
fn unsupported_features_are_refused() {
    let text = recording().to_fm2_string();
    for (from, to) in [
        ("fourscore 0", "fourscore 1"),
        ("port1 1", "port1 2"),
        ("port2 0", "port2 1"),
        ("NewPPU 0", "NewPPU 0\nbinary 1"),
    ] {
        let e = parse_err(&text.replace(from, to));
        assert!(matches!(e, Error::Unsupported { .. }), "{to}: {e}");
    }
}

#[test]
fn crlf_blank_lines_and_indent_are_accepted() {
    let text = recording().to_fm2_string();
    let crlf = text
        .replace('\n', "\r\n")
        .replace("|0|....T", "\r\n  |0|....T");
    assert_eq!(Movie::parse(&crlf).unwrap(), Movie::parse(&text).unwrap());
}

#[test]
fn a_lone_cr_ends_a_line_as_in_fceux() {
    // Found by the fm2_parse fuzz target: a CR inside a subtitle was kept on reading but
    // written as a space, so a movie changed on a write and re-read.
    let text = recording().to_fm2_string().replace(
        "comment level 19\n",
        "comment level\r19 x\rsubtitle 7 go\r\n",
    );
    let movie = Movie::parse(&text).unwrap();
    assert_eq!(movie.header.comments[1], "level");
    assert_eq!(movie.header.extra, [("19".to_string(), "x".to_string())]);
    assert_eq!(movie.header.subtitles[0].text, "go");
    assert_eq!(Movie::parse(&movie.to_fm2_string()).unwrap(), movie);
}

#[test]
fn load_and_save_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = dir.join("m.fm2");
    let movie = recording();
    movie.save(&path).unwrap();
    assert_eq!(Movie::load(&path).unwrap(), movie);

    std::fs::write(&path, "version 3\n|0|\n").unwrap();
    let e = Movie::load(&path).unwrap_err();
    assert!(
        e.to_string().starts_with(&path.display().to_string()),
        "{e}"
    );
    assert!(matches!(e.innermost(), Error::MissingKey { .. }));

    let missing = dir.join("missing.fm2");
    let e = Movie::load(&missing).unwrap_err();
    assert!(matches!(e, Error::Io { .. }));
    assert!(e.to_string().contains("missing.fm2"), "{e}");
    // The atomic save leaves no temporary file behind.
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 1);
}
