//! Fuzz target `weights_toml`: feeds libFuzzer's bytes to the shared entry point of the same name
//! (`tests/fuzz_entries`), which `tests/fuzz_regressions.rs` also runs on stable.

#![no_main]

#[path = "../../tests/fuzz_entries/mod.rs"]
mod entries;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = entries::weights_toml(data);
});
