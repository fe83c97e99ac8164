//! Fuzz target `protocol`: feeds libFuzzer's bytes, as a client's stream, to the shared entry
//! point of the same name (`tests/fuzz_entries`), which `tests/fuzz_regressions.rs` also runs.

#![no_main]

#[path = "../../tests/fuzz_entries/mod.rs"]
mod entries;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = entries::protocol(data);
});
