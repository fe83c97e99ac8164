//! `nestor learn`: a phase's board value learned from self-play in the exact model, round by
//! round (play, fit, play with the fit), its data and every round's weights kept in a folder.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use nestor::io::{Output, OutputSet};
use nestor::lab::learn::{
    play_round, relabel, with_learned, GameSamples, Normal, Returns, RoundConfig, Sample,
};
use nestor::search::eval::encode_rows;
use nestor::search::weights::LearnedValue;

use nestor::search::weights::Phase;
use nestor::search::Weights;

use super::args::{Bot, BotArgs, OverwriteArg};
use super::interrupt::{Interrupt, EXIT_INTERRUPTED};
use super::progress;
use super::sim::threads;

/// Positions (spread over the whole data) written with the chosen value, for the bit-for-bit
/// check.
const CHECK_POSITIONS: usize = 256;

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// The weights the first round plays (and whose other phases the result keeps), and the
    /// profile every game is played under.
    #[command(flatten)]
    pub bot: BotArgs,
    /// Start level of every game.
    #[arg(long, default_value_t = 29, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
    /// The phase learned (`[phase.NAME]` of the weights): positions are recorded only at its
    /// levels [default: the phase that plays level 29, the killscreen's].
    #[arg(long, value_name = "NAME")]
    pub phase: Option<String>,
    /// Rounds of play and fit (each round plays with the previous round's fit).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub rounds: u32,
    /// Games a round (round k plays seeds seed + (k − 1) × games onwards).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop a game after this many pieces.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_pieces: u32,
    /// How much less each later piece's lines count in a position's target (0 < gamma ≤ 1).
    #[arg(long, default_value_t = 0.98, value_parser = parse_gamma)]
    pub gamma: f64,
    /// How far a target trusts the game that followed its position against the current fit
    /// (0 ≤ lambda ≤ 1): 1 counts the discounted lines the game went on to clear and nothing
    /// after a stop at the piece cap; below 1, after each round's plain fit, every kept
    /// position is valued again by its λ-return under the fit and fitted again (`--sweeps`
    /// times), the cap's board valued on.
    #[arg(long, default_value_t = 1.0, value_parser = parse_lambda, allow_negative_numbers = true)]
    pub lambda: f64,
    /// With lambda below 1: how many times a round values the positions again and fits.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub sweeps: u32,
    /// The ridge term of the fit (larger: weights nearer 0 where the data say little).
    #[arg(long, default_value_t = 1.0, value_parser = parse_ridge)]
    pub ridge: f64,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// Folder for the data (created if missing): round-K.csv (every position and its target),
    /// round-K.toml (the weights after round K), check.csv (positions and their learned values).
    #[arg(long, default_value = "learn-data", value_name = "DIR")]
    pub data: PathBuf,
    /// The learned weights (TOML), with the command in its header: of the fits a round played,
    /// the one whose round cleared the most lines a game (the last fit is played by none).
    #[arg(long, default_value = "learned.toml", value_name = "FILE.toml")]
    pub out: PathBuf,
    #[command(flatten)]
    pub output: OverwriteArg,
}

fn parse_gamma(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(g) if g > 0.0 && g <= 1.0 => Ok(g),
        _ => Err(format!("{s:?} is not a number above 0 and at most 1")),
    }
}

fn parse_lambda(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(l) if (0.0..=1.0).contains(&l) => Ok(l),
        _ => Err(format!("{s:?} is not a number from 0 to 1")),
    }
}

fn parse_ridge(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(r) if r > 0.0 && r.is_finite() => Ok(r),
        _ => Err(format!("{s:?} is not a positive number")),
    }
}

/// The outputs, checked before any game: the folder's files for every round, and `--out`.
struct Outputs {
    rounds: Vec<(Output, Output)>,
    check: Output,
    out: Output,
}

fn check_outputs(args: &LearnArgs) -> Result<Outputs> {
    let mut set = OutputSet::new(Vec::new(), args.output.overwrite);
    let mut names = Vec::new();
    for k in 1..=args.rounds {
        names.push(format!("round-{k}.csv"));
        names.push(format!("round-{k}.toml"));
    }
    names.push("check.csv".into());
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut files = set.folder("--data", &args.data, &refs)?.into_iter();
    let mut rounds = Vec::new();
    for _ in 1..=args.rounds {
        if let (Some(csv), Some(toml)) = (files.next(), files.next()) {
            rounds.push((csv, toml));
        }
    }
    let check = files.next().context("the check file's output")?;
    let out = set.file("--out", &args.out)?;
    Ok(Outputs { rounds, check, out })
}

/// A board's visible rows as 80 hex digits, row 0 first.
pub fn rows_hex(rows: &[u16; 20]) -> String {
    rows.iter().fold(String::with_capacity(80), |mut s, r| {
        let _ = write!(s, "{r:04x}");
        s
    })
}

/// A round's positions with the targets its fit was made of (`kept`: the games' samples as
/// the fit left them, in the same order).
fn positions_csv(games: &[GameSamples], kept: &[Sample]) -> String {
    let mut s = String::from("seed,piece,rows,target\n");
    let mut kept = kept.iter();
    for g in games {
        for (i, p) in kept.by_ref().take(g.samples.len()).enumerate() {
            let _ = writeln!(s, "{},{},{},{}", g.seed, i, rows_hex(&p.rows), p.target);
        }
    }
    s
}

/// Each position with its learned value, as the bits of the f64 and as a number.
fn check_csv(samples: &[Sample], value: &LearnedValue) -> String {
    let mut s = String::from("rows,value_bits,value\n");
    let every = (samples.len() / CHECK_POSITIONS).max(1);
    for p in samples.iter().step_by(every).take(CHECK_POSITIONS) {
        let v = value.value_of(&encode_rows(&p.rows));
        let _ = writeln!(s, "{},{:016x},{v}", rows_hex(&p.rows), v.to_bits());
    }
    s
}

/// Mean lines of a round's games.
fn mean_lines(games: &[GameSamples]) -> f64 {
    games.iter().map(|g| f64::from(g.lines)).sum::<f64>() / games.len().max(1) as f64
}

/// One round's figures: the games' lines and how many reached the piece cap.
fn round_line(k: u32, games: &[GameSamples], samples: usize) -> String {
    let capped = games.iter().filter(|g| !g.topped_out).count();
    format!(
        "round {k}: {} games, mean {:.1} lines, {capped} at the piece cap; {samples} positions",
        games.len(),
        mean_lines(games)
    )
}

/// The header every weights file of the run starts with.
fn header(bot: &Bot) -> String {
    format!(
        "# Learned by nestor {} (`nestor learn`), {}.\n# command: nestor {}\n# profile: {}; weights of round 1: {}\n",
        env!("CARGO_PKG_VERSION"),
        jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M UTC"),
        std::env::args().skip(1).collect::<Vec<_>>().join(" "),
        bot.profile.describe(),
        bot.weights_source,
    )
}

/// The phase `--phase` names, or the one that plays level 29.
fn learned_phase_of(args: &LearnArgs, bot: &Bot) -> Result<Phase> {
    let phases = &bot.weights.phases;
    let Some(name) = &args.phase else {
        return Ok(bot.weights.phase(29).clone());
    };
    phases
        .iter()
        .find(|p| &p.name == name)
        .cloned()
        .with_context(|| {
            let names: Vec<&str> = phases.iter().map(|p| p.name.as_str()).collect();
            format!(
                "--phase {name}: the weights ({}) have no such phase (they have {})",
                bot.weights_source,
                names.join(", ")
            )
        })
}

/// What round `k` plays: its own seeds, positions at the learned phase's levels.
fn round_config(args: &LearnArgs, k: u32, threads: usize, phase: &Phase) -> RoundConfig {
    RoundConfig {
        games: args.games,
        level: args.level,
        seed: args
            .seed
            .wrapping_add(u64::from(k - 1) * u64::from(args.games)),
        threads,
        max_pieces: args.max_pieces,
        gamma: args.gamma,
        levels: (phase.from_level, phase.to_level),
    }
}

/// Every position kept so far, and each game's part of them with the board the piece cap
/// stopped it at.
#[derive(Default)]
struct Kept {
    samples: Vec<Sample>,
    games: Vec<(std::ops::Range<usize>, Option<[u16; 20]>)>,
}

impl Kept {
    fn add(&mut self, games: &[GameSamples]) {
        for g in games {
            let start = self.samples.len();
            self.samples.extend_from_slice(&g.samples);
            self.games.push((start..self.samples.len(), g.end));
        }
    }

    /// The fit after a round: of the plain targets, then (lambda below 1) `sweeps` times of
    /// the λ-returns under the fit before. Every round starts again from the plain targets'
    /// fit of all the kept positions (not from the last round's fit); each sweep moves it
    /// towards the λ-returns' fixed point by a factor of at most γ(1 − λ)/(1 − γλ) (0.975 at
    /// λ 0.8, γ 0.995), so the result lies between the two.
    fn fit(&mut self, args: &LearnArgs) -> Result<LearnedValue> {
        let normal = Normal::new(&self.samples, args.ridge)?;
        let mut value = normal.solve(&self.samples)?;
        if args.lambda < 1.0 {
            let returns = Returns {
                gamma: args.gamma,
                lambda: args.lambda,
            };
            for _ in 0..args.sweeps {
                for (range, end) in &self.games {
                    relabel(
                        &mut self.samples[range.clone()],
                        end.as_ref(),
                        &value,
                        returns,
                    );
                }
                value = normal.solve(&self.samples)?;
            }
        }
        Ok(value)
    }
}

/// A round's fit: its weights, its learned value and the round it came from.
struct Fitted {
    round: u32,
    weights: Weights,
    value: LearnedValue,
}

pub fn run(args: &LearnArgs) -> Result<ExitCode> {
    let bot = args.bot.resolve()?;
    let phase = learned_phase_of(args, &bot)?;
    let outputs = check_outputs(args)?;
    let interrupt = Interrupt::install();
    let threads = threads(args.threads, args.games);
    let mut header = header(&bot);
    let mut kept = Kept::default();
    // The fit the next round plays (none before round 1), and the best one played so far
    // by its round's mean lines.
    let (mut playing, mut best): (Option<Fitted>, Option<(f64, Fitted)>) = (None, None);
    for k in 1..=args.rounds {
        let config = round_config(args, k, threads, &phase);
        let weights = playing.as_ref().map_or(&bot.weights, |f| &f.weights);
        let bar = progress::bar(u64::from(args.games), "games");
        bar.set_message(format!("round {k} of {}", args.rounds));
        let games = play_round(&config, &bot.profile, weights, interrupt.flag(), |n, _| {
            bar.set_position(n as u64)
        });
        bar.finish_and_clear();
        if interrupt.requested() {
            eprintln!(
                "interrupted in round {k}: rounds 1-{} are in {}",
                k - 1,
                args.data.display()
            );
            break;
        }
        let mean = mean_lines(&games);
        if let Some(f) = playing.take() {
            if best.as_ref().is_none_or(|(m, _)| mean > *m) {
                best = Some((mean, f));
            }
        }
        let before = kept.samples.len();
        kept.add(&games);
        let value = kept.fit(args)?;
        let weights = with_learned(&bot.weights, phase.from_level, value.clone());
        let line = round_line(k, &games, kept.samples.len() - before);
        println!("{line}");
        let by = match k {
            1 => "the starting weights".to_string(),
            _ => format!("round {}'s weights", k - 1),
        };
        let _ = writeln!(header, "# {line} (played by {by})");
        let (csv, toml) = &outputs.rounds[(k - 1) as usize];
        write(csv, &positions_csv(&games, &kept.samples[before..]))?;
        write(toml, &format!("{header}{}", weights.to_toml()))?;
        playing = Some(Fitted {
            round: k,
            weights,
            value,
        });
    }
    // The best fit a round played; with one round, its one fit (played by no round).
    let Some(chosen) = best.map(|(_, f)| f).or(playing) else {
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    };
    write(&outputs.check, &check_csv(&kept.samples, &chosen.value))?;
    let _ = writeln!(header, "# chosen: round {}'s weights", chosen.round);
    write(
        &outputs.out,
        &format!("{header}{}", chosen.weights.to_toml()),
    )?;
    println!(
        "learned weights: {} (round {}'s)",
        args.out.display(),
        chosen.round
    );
    Ok(if interrupt.requested() {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}

fn write(out: &Output, text: &str) -> Result<()> {
    out.write(text.as_bytes())
        .with_context(|| format!("writing {}", out.path().display()))
}
