//! The lines of `sim`'s summary about how far the games got: the levels reached, past the
//! crash level, and how many games a goal or a cap stopped; only what the run could measure.

use nestor::lab::batch::{GameResult, Summary};
use nestor::lab::until::End;
use nestor::lab::Until;
use nestor::search::crash_guard::PREFERRED_MARGIN;

/// The levels `reached level N` is given for.
const LEVELS: [u8; 5] = [29, 39, 49, 99, 155];

/// The crash level: what lies past it is measured only by games that may go there.
const CRASH_LEVEL: u8 = 155;

/// The highest level a game may reach under `until`: `level:N` stops every game at N.
fn ceiling(until: Until) -> u8 {
    match until {
        Until::Level(n) => n,
        _ => u8::MAX,
    }
}

/// True when a game may reach `level` under `until`.
pub fn reaches(until: Until, level: u8) -> bool {
    level <= ceiling(until)
}

/// Prints the levels reached (those the goal lets a game reach), the figures past 155 (when
/// a game may go there), and the games a goal or a cap stopped, with what they count as.
pub fn print(until: Until, s: &Summary, results: &[GameResult]) {
    let top = ceiling(until);
    let rates = [
        s.reached_29_rate,
        s.reached_39_rate,
        s.reached_49_rate,
        s.reached_99_rate,
        s.crash_level_rate,
    ];
    let reached: Vec<String> = LEVELS
        .iter()
        .zip(rates)
        .filter(|(level, _)| **level <= top)
        .map(|(level, rate)| {
            let name = if *level == CRASH_LEVEL {
                "the crash level 155".to_string()
            } else {
                level.to_string()
            };
            format!("{name}: {:.1}%", 100.0 * rate)
        })
        .collect();
    let topped = format!("topped out: {:.1}%", 100.0 * s.top_out_rate);
    if reached.is_empty() {
        println!("{topped}");
    } else {
        println!("reached level {}; {topped}", reached.join(", "));
    }
    if top > CRASH_LEVEL {
        print_past_155(s);
    }
    print_stopped(until, results);
}

fn print_past_155(s: &Summary) {
    if s.crash_level_rate == 0.0 {
        println!("past 155: no game reached the crash level");
        return;
    }
    println!(
        "past 155: reached 200: {:.1}%, 255: {:.1}%, the rebirth (255 -> 0): {:.1}% (mean lines \
         there {:.0}; {:.1}% with no \"may crash\" frame on the way); crashed or hung: {:.1}%, {:.2} per 1,000 line clears past 155 ({} clears); \
         \"may crash\" frames {:.2}, safe frames within {} cycles of a window {:.2} per 1,000 \
         clears past 155",
        100.0 * s.reached_200_rate,
        100.0 * s.reached_255_rate,
        100.0 * s.rebirth_rate,
        s.mean_lines_at_rebirth,
        100.0 * s.strict_rebirth_rate,
        100.0 * s.crash_rate,
        s.crashes_per_1000_clears_past_155,
        s.clears_past_155,
        s.may_crash_per_1000_clears_past_155,
        PREFERRED_MARGIN,
        s.thin_margin_per_1000_clears_past_155,
    );
}

/// The games that ended without dying, by what stopped them; they are not top-outs, and the
/// survival figures count them as alive up to where they stopped.
fn print_stopped(until: Until, results: &[GameResult]) {
    let by = |end: End| results.iter().filter(|r| r.stats.end == end).count();
    let causes: Vec<String> = [
        (End::Until, format!("the goal {until}")),
        (End::CrashLevel, "the crash level".to_string()),
        (End::MaxLines, "--max-lines".to_string()),
        (End::MaxPieces, "--pieces".to_string()),
        (End::MaxFrames, "the frame cap".to_string()),
    ]
    .into_iter()
    .filter_map(|(end, name)| match by(end) {
        0 => None,
        n => Some(format!("{n} by {name}")),
    })
    .collect();
    if !causes.is_empty() {
        println!(
            "stopped before dying: {}; a stopped game counts as alive up to where it stopped, \
             not as topped out",
            causes.join(", ")
        );
    }
}
