//! Writing FM2 text: the header in FCEUX's key order, then one input line per frame; values
//! are cleaned so that whatever is written parses back to the same movie.

use std::fmt::Write as _;

use super::input::write_line;
use super::value::Movie;

/// A header value as it can survive a round trip: FCEUX ends a line at CR or LF and drops
/// the blanks after the key, so those are replaced or trimmed here rather than on reading.
fn clean(value: &str) -> String {
    value
        .replace(['\r', '\n'], " ")
        .trim_start_matches([' ', '\t'])
        .to_string()
}

pub(super) fn movie_text(movie: &Movie) -> String {
    let h = &movie.header;
    let mut out = String::with_capacity(600 + movie.frames.len() * 24);
    let mut line = |key: &str, value: &dyn std::fmt::Display| {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{key} {}", clean(&value.to_string()));
    };
    line("version", &3);
    line("emuVersion", &h.emu_version);
    line("rerecordCount", &h.rerecord_count);
    line("palFlag", &u8::from(h.pal));
    line("romFilename", &h.rom_filename);
    line("romChecksum", &h.rom_checksum_text());
    line("guid", &h.guid);
    line("fourscore", &u8::from(h.fourscore));
    line("microphone", &u8::from(h.microphone));
    line("port0", &h.port0.code());
    line("port1", &h.port1.code());
    line("port2", &h.port2);
    line("FDS", &u8::from(h.fds));
    line("NewPPU", &u8::from(h.new_ppu));
    if let Some(option) = h.ram_init_option {
        line("RAMInitOption", &option);
    }
    if let Some(seed) = h.ram_init_seed {
        line("RAMInitSeed", &seed);
    }
    for (key, value) in &h.extra {
        line(key, value);
    }
    for comment in &h.comments {
        line("comment", comment);
    }
    for subtitle in &h.subtitles {
        line(
            "subtitle",
            &format_args!("{} {}", subtitle.frame, clean(&subtitle.text)),
        );
    }
    let ports = [h.port0, h.port1];
    for frame in &movie.frames {
        write_line(&mut out, frame, ports);
        out.push('\n');
    }
    out
}
