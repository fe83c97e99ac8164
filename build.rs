//! Build script: the tests that need the real cartridge are compiled to run only when
//! `NESTOR_ROM` is set at build time; otherwise `cargo test` lists them as ignored, with why.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    // Setting, changing or clearing NESTOR_ROM rebuilds, so the tests follow it.
    println!("cargo::rerun-if-env-changed=NESTOR_ROM");
    println!("cargo::rustc-check-cfg=cfg(nestor_rom)");
    if std::env::var_os("NESTOR_ROM").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=nestor_rom");
    }
}
