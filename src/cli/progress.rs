//! Progress on stderr for the long-running commands: a bar when the length is known, a
//! spinner otherwise; hidden when stderr is not a terminal (logs, pipes, tests).

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

fn hidden_unless_terminal(bar: ProgressBar) -> ProgressBar {
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    } else {
        ProgressBar::hidden()
    }
}

/// A bar over `len` steps of `unit` (e.g. "frames", "games") with elapsed time and ETA.
pub fn bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    let template = format!(
        "{{spinner}} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {unit}, ETA {{eta}} {{msg}}"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        let one = unit.strip_suffix('s').unwrap_or(unit).to_string();
        bar.set_style(style.with_key(
            "eta",
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&eta_text(state.pos(), state.eta(), &one));
            },
        ));
    }
    hidden_unless_terminal(bar)
}

/// The estimate once a step is done: before, indicatif's would say "0s" (a game of `sim
/// compare` can take many seconds on each thread before the first one ends).
fn eta_text(pos: u64, eta: Duration, one: &str) -> String {
    if pos == 0 {
        format!("after the first {one}")
    } else {
        HumanDuration(eta).to_string()
    }
}

/// `line` above the bar, or on stderr by itself when the bar is hidden: a run logged to a file
/// (nohup, a batch system) still shows each finished step, which indicatif's `println` drops.
pub fn println(bar: &ProgressBar, line: impl AsRef<str>) {
    if bar.is_hidden() {
        eprintln!("{}", line.as_ref());
    } else {
        bar.println(line);
    }
}

/// A spinner with elapsed time and a message, for runs of unknown length.
pub fn spinner() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    hidden_unless_terminal(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_waits_for_the_first_step_then_is_a_duration() {
        assert_eq!(eta_text(0, Duration::ZERO, "game"), "after the first game");
        assert_eq!(eta_text(3, Duration::from_secs(900), "game"), "15 minutes");
    }
}
