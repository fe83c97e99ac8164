//! `--help` of every command and subcommand: every argument and option has a description,
//! defaults are shown, and the rules that bind every command (outputs, presets) are stated.

use std::process::Command;

const COMMANDS: &[&[&str]] = &[
    &[],
    &["demo"],
    &["sim"],
    &["sim", "compare"],
    &["sim", "merge"],
    &["tune"],
    &["tune", "init"],
    &["tune", "score"],
    &["tune", "gather"],
    &["tune", "finish"],
    &["learn"],
    &["play"],
    &["cartridge"],
    &["fceux-replay"],
    &["replay"],
    &["trace"],
    &["trace", "verify"],
    &["trace", "diff"],
    &["analyze"],
    &["assist"],
];

/// The commands that write a file, and so take `--overwrite`.
const WRITERS: &[&[&str]] = &[
    &["sim"],
    &["sim", "merge"],
    &["tune"],
    &["tune", "init"],
    &["tune", "score"],
    &["tune", "finish"],
    &["learn"],
    &["play"],
    &["cartridge"],
    &["trace"],
    &["analyze"],
    &["assist"],
];

fn help(path: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(path)
        .arg("--help")
        .output()
        .expect("run nestor");
    assert!(out.status.success(), "{path:?}");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// (entry, description) of each line of the Arguments and Options sections; clap puts the
/// description on the entry's line (two spaces or more after it) or on the next lines.
fn entries(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut in_list = false;
    for line in text.lines() {
        if line == "Arguments:" || line == "Options:" || line == "Commands:" {
            in_list = true;
            continue;
        }
        if line.is_empty() || !line.starts_with(' ') {
            in_list = line.is_empty() && in_list;
            continue;
        }
        if !in_list {
            continue;
        }
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if indent <= 6 && !trimmed.is_empty() {
            let (entry, description) = match trimmed.find("  ") {
                Some(i) => (&trimmed[..i], trimmed[i..].trim()),
                None => (trimmed, ""),
            };
            out.push((entry.to_string(), description.to_string()));
        } else if let Some(last) = out.last_mut() {
            last.1.push(' ');
            last.1.push_str(trimmed);
        }
    }
    out
}

#[test]
fn every_argument_and_option_is_described() {
    for path in COMMANDS {
        let text = help(path);
        let list = entries(&text);
        assert!(!list.is_empty(), "{path:?}: no entries in\n{text}");
        for (entry, description) in &list {
            assert!(
                !description.trim().is_empty(),
                "{path:?}: `{entry}` has no description:\n{text}"
            );
        }
    }
}

#[test]
fn value_options_show_their_default_or_say_there_is_none() {
    // Options whose absence means "not done" (no output, no file) need no default.
    let no_default = [
        "--out",
        "--plots",
        "--part",
        "--csv",
        "--report",
        "--record",
        "--config",
        "--settings",
        "--shard",
        "--resume",
        "--fields",
        "--movie",
        "--against",
        "--phase",
        "--state",
        "--elite",
    ];
    let mut missing = Vec::new();
    for path in COMMANDS.iter().chain([&["serve"][..]].iter()) {
        let text = help(path);
        for (entry, description) in entries(&text) {
            let Some(name) = entry
                .split([',', ' '])
                .find(|w| w.starts_with("--"))
                .map(str::to_string)
            else {
                continue;
            };
            let takes_value = entry.contains('<');
            if !takes_value || no_default.contains(&name.as_str()) {
                continue;
            }
            // In clap's own form, as every default is said.
            let stated =
                description.contains("[default") || description.contains("[possible values");
            if !stated {
                missing.push(format!("{path:?}: `{entry}`: {description}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no default shown:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_overwrite_rule_is_in_every_writer_s_help() {
    for path in WRITERS {
        let text = help(path);
        assert!(
            text.contains("--overwrite") && text.contains("an existing file is refused"),
            "{path:?}:\n{text}"
        );
    }
    let top = help(&[]);
    assert!(top.contains("Exit codes:") && top.contains("130"), "{top}");
}

#[test]
fn required_arguments_are_shown_as_required() {
    for path in [&["play"][..], &["assist"], &["replay"], &["trace", "diff"]] {
        let text = help(path);
        assert!(!text.contains("[ROM]"), "{path:?}:\n{text}");
        assert!(
            !text.contains("[A]") && !text.contains("[B]"),
            "{path:?}:\n{text}"
        );
    }
    assert!(help(&["play"]).contains("Usage: nestor play [OPTIONS] <ROM>"));
    assert!(help(&["analyze"]).contains("Usage: nestor analyze [OPTIONS] <ROM> <MOVIE.fm2>"));
}

#[test]
fn presets_and_objectives_come_from_their_lists() {
    let sim = help(&["sim"]);
    for (name, _) in nestor::movegen::profile::PRESETS {
        assert!(sim.contains(name), "preset {name} missing:\n{sim}");
    }
    // `--reaction` on every command with `--profile` (one definition), serve's included.
    for path in [
        &["sim"][..],
        &["sim", "compare"],
        &["play"],
        &["demo"],
        &["analyze"],
        &["assist"],
        &["tune"],
        &["learn"],
        &["serve"],
    ] {
        let text = help(path);
        assert!(
            text.contains("--profile") && text.contains("--reaction <FRAMES>"),
            "{path:?}:\n{text}"
        );
        assert!(text.contains("24hz"), "{path:?}:\n{text}");
    }
    let compare = help(&["sim", "compare"]);
    for o in nestor::lab::objective::Objective::ALL {
        assert!(compare.contains(o.name()), "{}:\n{compare}", o.name());
    }
    // `--weights` says the pairing with the profile's set wherever it is, serve's included.
    for path in [&["sim"][..], &["play"], &["serve"], &["tune"], &["analyze"]] {
        let text = help(path);
        assert!(
            text.contains("replacing the set the profile is paired with"),
            "{path:?}:\n{text}"
        );
    }
    // `play --config` takes every option, `explain` included.
    assert!(help(&["play"]).contains("`explain`"));
}

#[test]
fn play_documents_the_run_ahead_options() {
    let play = help(&["play"]);
    let list = entries(&play);
    let find = |name: &str| {
        list.iter()
            .find(|(e, _)| e.split([',', ' ']).any(|w| w == name))
            .map(|(_, d)| d.clone())
            .unwrap_or_else(|| panic!("{name} missing:\n{play}"))
    };
    assert!(
        find("--run-ahead-from").contains("[default: 150]"),
        "{play}"
    );
    assert!(find("--no-run-ahead").contains("150"), "{play}");
}
