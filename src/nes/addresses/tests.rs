//! The address map's parsing, its errors and the built-in map against the cartridge's RAM
//! layout.

use super::*;
use proptest::prelude::*;

#[test]
fn default_map_parses_with_the_spec_addresses() {
    let m = AddressMap::parse(DEFAULT_TOML, DEFAULT_NAME).unwrap();
    assert_eq!(m, AddressMap::default());
    let want = [
        (m.piece_x, 0x60),
        (m.piece_y, 0x61),
        (m.orientation, 0x62),
        (m.next, 0xBF),
        (m.playfield, 0x0400),
        (m.hidden_rows, 0x04EC),
        (m.play_state, 0x68),
        (m.game_mode, 0xC0),
        (m.game_mode_state, 0xA7),
        (m.render_mode, 0xBD),
        (m.game_type, 0xC1),
        (m.display_next_piece, 0xDF),
        (m.level, 0x64),
        (m.start_level, 0x67),
        (m.lines, 0x70),
        (m.score, 0x73),
        (m.fall_timer, 0x65),
        (m.das, 0x66),
        (m.soft_drop, 0x6E),
        (m.hold_down_points, 0x6F),
        (m.frame_counter, 0xB1),
        (m.rng, 0x17),
        (m.spawn_id, 0x19),
        (m.spawn_count, 0x1A),
        (m.held, 0xF7),
        (m.newly, 0xF5),
        (m.vram_row, 0x69),
        (m.completed_lines, 0x76),
        (m.row_y, 0x72),
        (m.curtain_row, 0x78),
        (m.line_index, 0x77),
        (m.completed_rows, 0x6A),
        (m.player_block, 0x60),
        (m.working_block, 0x40),
    ];
    for (i, (got, want)) in want.iter().enumerate() {
        assert_eq!(got, want, "entry {i}");
    }
    assert_eq!(m.empty_tile, 0xEF);
}

fn replace(from: &str, to: &str) -> String {
    assert!(DEFAULT_TOML.contains(from), "{from}");
    DEFAULT_TOML.replacen(from, to, 1)
}

#[test]
fn unknown_key_is_named() {
    let text = replace("held = 0xF7", "held = 0xF7\nheld_p2 = 0xF8");
    let e = AddressMap::parse(&text, "a.toml").unwrap_err();
    assert!(
        matches!(&e, Error::UnknownKey { key, file } if key == "ram.held_p2" && file == "a.toml"),
        "{e}"
    );
    let e = AddressMap::parse(&format!("{DEFAULT_TOML}\n[extra]\n"), "a.toml").unwrap_err();
    assert!(
        matches!(&e, Error::UnknownKey { key, .. } if key == "extra"),
        "{e}"
    );
}

#[test]
fn a_map_written_before_a_key_was_added_still_loads_with_the_cartridges_address() {
    let line = DEFAULT_TOML
        .lines()
        .find(|l| l.trim_start().starts_with("display_next_piece"))
        .expect("the default map has the key");
    let old = DEFAULT_TOML.replace(line, "");
    assert!(!old.contains("display_next_piece"));
    let map = AddressMap::parse(&old, "old.toml").expect("an older map loads");
    assert_eq!(map.display_next_piece, 0xDF);
    assert_eq!(map, AddressMap::default());
}

#[test]
fn missing_key_is_named() {
    let text = replace("next = 0xBF", "");
    let e = AddressMap::parse(&text, "b.toml").unwrap_err();
    assert!(
        matches!(&e, Error::MissingKey { key, .. } if key == "ram.next"),
        "{e}"
    );
    assert!(e.to_string().contains("b.toml") && e.to_string().contains("ram.next"));
    let text = replace("empty_tile = 0xEF", "");
    let e = AddressMap::parse(&text, "b.toml").unwrap_err();
    assert!(matches!(&e, Error::MissingKey { key, .. } if key == "playfield.empty_tile"));
    let e = AddressMap::parse("", "b.toml").unwrap_err();
    assert!(
        matches!(&e, Error::MissingKey { key, .. } if key == "ram"),
        "{e}"
    );
}

#[test]
fn out_of_range_is_named() {
    for (from, to, key) in [
        ("level = 0x64", "level = 0x800", "ram.level"),
        ("level = 0x64", "level = -1", "ram.level"),
        ("score = 0x73", "score = 0x7FE", "ram.score"),
        ("base = 0x0400", "base = 0x0800", "playfield.base"),
        (
            "empty_tile = 0xEF",
            "empty_tile = 0x100",
            "playfield.empty_tile",
        ),
    ] {
        let e = AddressMap::parse(&replace(from, to), "c.toml").unwrap_err();
        assert!(
            matches!(&e, Error::OutOfRange { key: k, .. } if k == key),
            "{to}: {e}"
        );
        assert!(e.to_string().contains(key) && e.to_string().contains("c.toml"));
    }
    let e = AddressMap::parse(&replace("empty_tile = 0xEF", "empty_tile = 0x1EF"), "c")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("0x01ef") && e.contains("a tile value is one byte"),
        "{e}"
    );
    assert!(!e.contains("$0000-$07FF"), "{e}");
    let e = AddressMap::parse(&replace("piece_x = 0x60", "piece_x = -5"), "c")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`ram.piece_x` = -5 is out of range: an address"),
        "{e}"
    );
    // The last byte of a multi-byte field may be $07FF.
    assert!(AddressMap::parse(&replace("score = 0x73", "score = 0x7FD"), "c").is_ok());
}

#[test]
fn wrong_types_and_inconsistent_playfield() {
    let e = AddressMap::parse(&replace("das = 0x66", "das = \"0x66\""), "d").unwrap_err();
    assert!(
        matches!(&e, Error::WrongType { key, .. } if key == "ram.das"),
        "{e}"
    );
    let e = AddressMap::parse(
        &replace("hidden_rows = 0x04EC", "hidden_rows = 0x04F0"),
        "d",
    )
    .unwrap_err();
    assert!(matches!(&e, Error::Inconsistent { key, .. } if key == "playfield.hidden_rows"));
    let e = AddressMap::parse(&replace("base = 0x0400", "base = 0x0410"), "d").unwrap_err();
    assert!(matches!(&e, Error::Inconsistent { key, .. } if key == "playfield.base"));
    let e = AddressMap::parse("ram = [", "d").unwrap_err();
    assert!(matches!(&e, Error::Syntax { .. }), "{e}");
}

#[test]
fn missing_file_is_io_error() {
    let e = AddressMap::load("/nonexistent/addresses.toml").unwrap_err();
    assert!(matches!(e, Error::Io { .. }));
    assert!(e.to_string().contains("/nonexistent/addresses.toml"));
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC*") {
        let _ = AddressMap::parse(&s, "p");
    }

    #[test]
    fn mutated_default_never_panics(at in 0usize..2000, junk in "[\\[\\]=a-z0-9x\"\n. -]{0,12}") {
        let mut text = DEFAULT_TOML.to_string();
        let at = (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        text.insert_str(at, &junk);
        let _ = AddressMap::parse(&text, "p");
    }
}
