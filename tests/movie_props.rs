//! Property tests of the FM2 reader and writer: no input panics the parser (random text,
//! random bytes, every truncation and random edits of valid movies), and any movie survives
//! write → parse → write byte for byte. `long_fuzz` is the same, much longer (`--ignored`).

use nestor::game::pad::PadState;
use nestor::movie::{FrameInput, Header, Movie, PortDevice, Subtitle};
use proptest::prelude::*;

/// Keys the parser interprets; generated unknown keys avoid them.
const INTERPRETED: [&str; 19] = [
    "version",
    "emuVersion",
    "rerecordCount",
    "palFlag",
    "romFilename",
    "romChecksum",
    "guid",
    "fourscore",
    "microphone",
    "port0",
    "port1",
    "port2",
    "FDS",
    "NewPPU",
    "RAMInitOption",
    "RAMInitSeed",
    "comment",
    "subtitle",
    "binary",
];

fn sample_text() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/movies/fceux-sample.fm2"
    );
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn port() -> impl Strategy<Value = PortDevice> {
    prop_oneof![Just(PortDevice::None), Just(PortDevice::Gamepad)]
}

prop_compose! {
    fn header()(
        numbers in (any::<u32>(), any::<u32>(), any::<bool>(), any::<bool>(), any::<bool>(),
                    any::<bool>()),
        rom_filename in "\\PC{0,30}",
        rom_checksum in any::<[u8; 16]>(),
        guid in "[0-9A-F-]{0,36}|\\PC{0,10}",
        ports in (port(), port()),
        ram in (proptest::option::of(any::<u32>()), proptest::option::of(any::<i32>())),
        extra in proptest::collection::vec(
            ("[A-Za-z][A-Za-z0-9_]{0,12}".prop_filter("not interpreted", |k| {
                !INTERPRETED.contains(&k.as_str())
            }), "\\PC{0,20}"),
            0..4,
        ),
        comments in proptest::collection::vec("\\PC{0,40}|[ \t\r\n]{0,3}", 0..4),
        subtitles in proptest::collection::vec((any::<u32>(), "\\PC{0,20}"), 0..3),
    ) -> Header {
        let (emu_version, rerecord_count, pal, microphone, fds, new_ppu) = numbers;
        Header {
            emu_version,
            rerecord_count,
            pal,
            rom_filename,
            rom_checksum,
            guid,
            fourscore: false,
            microphone,
            port0: ports.0,
            port1: ports.1,
            port2: 0,
            fds,
            new_ppu,
            ram_init_option: ram.0,
            ram_init_seed: ram.1,
            extra,
            comments,
            subtitles: subtitles
                .into_iter()
                .map(|(frame, text)| Subtitle { frame, text })
                .collect(),
        }
    }
}

prop_compose! {
    fn movie()(header in header(), frames in proptest::collection::vec(any::<(u8, u8, u8)>(), 0..40))
        -> Movie {
        // A port with no device records nothing, so its pad is always released.
        let keep = |device, pad| if device == PortDevice::Gamepad { PadState(pad) } else { PadState::NONE };
        let frames = frames
            .into_iter()
            .map(|(commands, p0, p1)| FrameInput {
                commands,
                port0: keep(header.port0, p0),
                port1: keep(header.port1, p1),
            })
            .collect();
        Movie { header, frames }
    }
}

/// A valid movie's text with up to four random edits (replace, insert or delete a byte).
fn edited_movie_text() -> impl Strategy<Value = String> {
    let edits =
        proptest::collection::vec((0..3u8, any::<prop::sample::Index>(), any::<u8>()), 1..5);
    (movie(), edits).prop_map(|(movie, edits)| {
        let mut bytes = movie.to_fm2_string().into_bytes();
        for (kind, at, byte) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ => {}
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Text made of FM2's own pieces, so that random input gets past `version 3` and the header.
fn fm2_like_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("version 3\n".to_string()),
        Just("port0 1\nport1 1\nport2 0\n".to_string()),
        Just("emuVersion 1\nromFilename x\nguid g\n".to_string()),
        Just("romChecksum base64:P10g4puOc/NOTZlsboa+qg==\n".to_string()),
        "[|0-9RLDUTSBA. \t\r\n]{0,30}",
        "[A-Za-z0-9 :=+/\t\r\n-]{0,20}",
        "\\PC{0,8}",
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|parts| parts.concat())
}

/// The round-trip property: writing, parsing and writing again gives the same bytes, and the
/// parsed movie has the frames that were written.
fn check_round_trip(movie: &Movie) -> Result<(), TestCaseError> {
    let once = movie.to_fm2_string();
    let parsed = Movie::parse(&once).map_err(|e| TestCaseError::fail(format!("{e}\n{once}")))?;
    prop_assert_eq!(&parsed.frames, &movie.frames);
    prop_assert_eq!(parsed.header.rom_checksum, movie.header.rom_checksum);
    prop_assert_eq!(parsed.to_fm2_string(), once);
    Ok(())
}

proptest! {
    #[test]
    fn parse_never_panics_on_strings(text in "\\PC*|version 3\n\\PC*") {
        let _ = Movie::parse(&text);
    }

    #[test]
    fn parse_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut with_version = b"version 3\n".to_vec();
        with_version.extend_from_slice(&bytes);
        let _ = Movie::parse(&String::from_utf8_lossy(&bytes));
        let _ = Movie::parse(&String::from_utf8_lossy(&with_version));
    }

    #[test]
    fn parse_never_panics_on_fm2_like_text(text in fm2_like_text()) {
        let _ = Movie::parse(&text);
    }

    #[test]
    fn parse_never_panics_on_edited_movies(text in edited_movie_text()) {
        let _ = Movie::parse(&text);
    }

    #[test]
    fn write_parse_write_is_byte_identical(movie in movie()) {
        check_round_trip(&movie)?;
    }
}

#[test]
fn every_truncation_of_a_valid_movie_parses_or_errors() {
    let mut generated = Movie::new_recording("Tetris", [7; 16], vec!["settings".into()]);
    for b in 0..=255u8 {
        generated.push(PadState(b));
    }
    for text in [sample_text(), generated.to_fm2_string()] {
        let bytes = text.as_bytes();
        for end in 0..=bytes.len() {
            let cut = String::from_utf8_lossy(&bytes[..end]);
            let _ = Movie::parse(&cut);
        }
        // Cut just after an input line, the movie is still valid: the same frames, fewer.
        let full = Movie::parse(&text).unwrap();
        let log_start = text.find("\n|").map_or(text.len(), |i| i + 1);
        let mut kept = 0;
        for (end, _) in text.match_indices('\n').filter(|(i, _)| *i >= log_start) {
            kept += 1;
            let cut = Movie::parse(&text[..=end]).unwrap();
            assert_eq!(cut.frames, full.frames[..kept]);
        }
        assert_eq!(kept, full.frames.len());
    }
}

/// The fuzz run: `cargo test --release --test movie_props -- --ignored --nocapture`.
/// `NESTOR_FUZZ_CASES` sets the cases per strategy (default 100,000).
#[test]
#[ignore]
fn long_fuzz() {
    let cases = std::env::var("NESTOR_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let started = std::time::Instant::now();
    for texts in [fm2_like_text().boxed(), edited_movie_text().boxed()] {
        let mut runner = proptest::test_runner::TestRunner::new(config.clone());
        runner
            .run(&texts, |text| {
                let _ = Movie::parse(&text);
                Ok(())
            })
            .unwrap();
    }
    let mut runner = proptest::test_runner::TestRunner::new(config);
    runner
        .run(&movie(), |movie| check_round_trip(&movie))
        .unwrap();
    println!(
        "long_fuzz: {} cases x 3 strategies in {:.1} s, no panic, every round trip identical",
        cases,
        started.elapsed().as_secs_f64()
    );
}
