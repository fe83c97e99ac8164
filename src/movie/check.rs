//! The movie check: replays a recorded game and says whether its inputs obey a player profile,
//! piece by piece from each spawn the RAM shows, with the frame of every breach.

use std::fmt;

use super::replay::{Replay, ReplayError};
use super::value::Movie;
use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::game::state::PlayState;
use crate::movegen::profile_check::{
    check_entry, check_piece, check_reaction, Breach, PieceRecord,
};
use crate::nes::{AddressMap, Console, RamSnapshot};
use crate::search::eval::Evaluator;
use crate::search::plan::{Planner, Situation};

/// One input that breaks the profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Frames since power-on, this one included (input line `frame` + the FCEUX lead frame
    /// in the FM2 input log, as `Replay` counts).
    pub frame: u64,
    /// The piece, counted from 1 over the whole movie (for an entry-delay breach, the piece
    /// that follows the delay).
    pub piece: u32,
    /// The frame within the piece (0 = its first frame under control); for an entry-delay
    /// breach, within the entry delay (0 = the frame after the lock).
    pub piece_frame: usize,
    /// Which profile rule the input breaks.
    pub breach: Breach,
    /// For a reaction breach found with `every_next`: the next piece the spawn's plan that the
    /// inputs do not follow was made with.
    pub next: Option<Piece>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "frame {} (piece {}, its frame {}): {}",
            self.frame, self.piece, self.piece_frame, self.breach
        )?;
        if let Some(n) = self.next {
            write!(f, " (the plan made with {n:?} as the next piece)")?;
        }
        Ok(())
    }
}

/// What the check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Pieces seen (a piece still falling when the movie ends included).
    pub pieces: u32,
    /// Frames replayed.
    pub frames: usize,
    /// Pieces whose reaction frames could not be checked: RAM at the spawn did not convert
    /// to a game, so there was no plan to compare with (0 on any game nestor recorded).
    pub unplanned: u32,
    /// Every breach, in frame order.
    pub violations: Vec<Violation>,
}

impl CheckReport {
    /// True when no input breaks the profile and every piece could be checked.
    pub fn passed(&self) -> bool {
        self.violations.is_empty() && self.unplanned == 0
    }
}

/// How the check plans at each spawn, for the reaction rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReactionCheck {
    /// The plan made from the spawn's RAM, as the driver makes it.
    #[default]
    AsSeen,
    /// Also the plans made with each of the seven next pieces in its place: the reaction's
    /// frames must not depend on the next piece (seven more plans a piece).
    EveryNext,
}

/// The piece under control, since its spawn.
struct Live {
    number: u32,
    /// Frame number of the piece's first frame (its `inputs[0]`).
    first_frame: u64,
    record_prev: PadState,
    first_of_game: bool,
    inputs: Vec<PadState>,
    /// The plans made at the spawn, each with the next piece it assumed (`None`: as seen).
    plans: Vec<(Option<Piece>, Vec<PadState>)>,
}

/// Replays `movie` on `console` (freshly powered on, or the model console the movie was
/// recorded on) and checks every piece against `planner.profile`. The planner must be the
/// one the movie was played with (same weights and settings) for the reaction rule.
pub fn check_movie<C: Console + ?Sized, E: Evaluator>(
    movie: &Movie,
    console: &mut C,
    map: &AddressMap,
    planner: &mut Planner<E>,
    reaction: ReactionCheck,
) -> Result<CheckReport, ReplayError> {
    let replay = Replay::from_movie(movie.clone())?;
    let mut report = CheckReport::default();
    let mut prev = RamSnapshot::read(console.ram(), map);
    let mut live = None;
    // The entry delay since the last lock: its first frame, the lock frame's pad and the pads
    // since (a hold profile may carry one direction into the next piece).
    let mut entry: Option<(u64, PadState, Vec<PadState>)> = None;
    // A console that starts in play (the rules model) starts with its first piece under
    // control, as the driver takes it.
    let mut fresh = true;
    if prev.in_play() && prev.play_state == PlayState::Control as u8 {
        live = start(
            &prev,
            0,
            PadState::NONE,
            &mut fresh,
            planner,
            reaction,
            &mut report,
        );
    }
    let end = replay.run(console, |f| {
        let now = RamSnapshot::read(f.ram, map);
        if let Some(p) = &mut live {
            if prev.play_state == PlayState::Control as u8 {
                p.inputs.push(f.pad);
            }
        }
        if let Some((_, _, pads)) = &mut entry {
            if prev.play_state != PlayState::Control as u8 {
                pads.push(f.pad);
            }
        }
        if !now.in_play() || now.play_state != PlayState::Control as u8 {
            if let Some(p) = live.take() {
                finish(&p, planner, &mut report);
                let last = p.inputs.last().copied().unwrap_or(p.record_prev);
                entry = Some((f.frame + 1, last, Vec::with_capacity(32)));
            }
        }
        // After the menus, or once the curtain falls (the high-score screens that follow are
        // still `gameMode` 4), the next piece is a new game's first.
        if !now.in_play() || now.topped_out() {
            fresh = true;
            entry = None;
        }
        let control = now.in_play() && now.play_state == PlayState::Control as u8;
        let spawn = if fresh {
            now.new_game_ready()
        } else {
            prev.play_state != PlayState::Control as u8
        };
        if live.is_none() && control && spawn {
            if let Some((first, lock_pad, pads)) = entry.take() {
                let profile = &planner.profile;
                if let Some(b) = check_entry(profile, lock_pad, &pads) {
                    report.violations.push(Violation {
                        frame: first + b.piece_frame as u64,
                        piece: report.pieces + 1,
                        piece_frame: b.piece_frame,
                        breach: b.breach,
                        next: None,
                    });
                }
            }
            live = start(
                &now,
                f.frame,
                f.pad,
                &mut fresh,
                planner,
                reaction,
                &mut report,
            );
        }
        prev = now;
        std::ops::ControlFlow::Continue(())
    })?;
    if let Some(p) = live.take() {
        finish(&p, planner, &mut report);
    }
    report.frames = end.frames;
    report.violations.sort_by_key(|v| v.frame);
    Ok(report)
}

/// A piece spawned at the end of frame `frame` with `pad` held in it: plans it as the driver
/// would (for the reaction rule).
fn start<E: Evaluator>(
    now: &RamSnapshot,
    frame: u64,
    pad: PadState,
    fresh: &mut bool,
    planner: &mut Planner<E>,
    reaction: ReactionCheck,
    report: &mut CheckReport,
) -> Option<Live> {
    report.pieces += 1;
    let mut plans = Vec::new();
    if planner.profile.reaction > 0 {
        match now.to_game() {
            Ok(game) => {
                let seen = Situation::of(&game);
                let mut nexts = vec![None];
                if reaction == ReactionCheck::EveryNext {
                    nexts.extend(Piece::ALL.map(Some));
                }
                for next in nexts {
                    let s = Situation {
                        next: next.or(seen.next),
                        ..seen
                    };
                    let inputs = planner.plan(&s).map(|p| p.inputs).unwrap_or_default();
                    plans.push((next, inputs));
                }
            }
            Err(_) => report.unplanned += 1,
        }
    }
    let first_of_game = std::mem::replace(fresh, false);
    Some(Live {
        number: report.pieces,
        first_frame: frame + 1,
        record_prev: pad,
        first_of_game,
        inputs: Vec::with_capacity(64),
        plans,
    })
}

/// Checks a piece that locked (or that the movie ends in).
fn finish<E: Evaluator>(p: &Live, planner: &Planner<E>, report: &mut CheckReport) {
    let profile = &planner.profile;
    let record = PieceRecord {
        first_of_game: p.first_of_game,
        prev: p.record_prev,
        inputs: &p.inputs,
    };
    let mut found: Vec<_> = check_piece(profile, &record)
        .into_iter()
        .map(|b| (b, None))
        .collect();
    // One reaction breach a piece: the first plan (as seen, then each next piece) it breaks.
    let reaction = p.plans.iter().find_map(|(next, planned)| {
        check_reaction(profile, &p.inputs, planned).map(|b| (b, *next))
    });
    found.extend(reaction);
    report
        .violations
        .extend(found.into_iter().map(|(b, next)| Violation {
            frame: p.first_frame + b.piece_frame as u64,
            piece: p.number,
            piece_frame: b.piece_frame,
            breach: b.breach,
            next,
        }));
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
