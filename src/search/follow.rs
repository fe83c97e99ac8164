//! The one plan follower, for self-play in the model and the driver on the cartridge alike: it
//! plans the piece under control, gives each frame's pad, checks the frame against the plan.
//!
//! It lives in `search/` (above `game/`, below `nes/` and `lab/`) because both of its users sit
//! above it and it needs nothing but the planner and the game's rules: what the frame showed comes
//! in as plain data ([`Seen`]), read from the model (`lab::selfplay`) or from RAM (`nes::driver`),
//! and what it meant goes out as a [`Report`]; [`Tally`] builds a game's counts from those reports,
//! in one place for both.

use std::borrow::Borrow;

use crate::game::crash::CrashKind;
pub use crate::game::score::line_count;
use crate::game::score::CRASH_LEVEL;
use crate::game::{Game, PadState, Pos};

use super::eval::Evaluator;
use super::piece_log::PieceLog;
use super::plan::{Plan, Planner, Situation};
use crate::movegen::profile::PieceProgress;

/// The level from which gravity stays at one row per frame (the "killscreen" of the figures).
pub const LEVEL_29: u8 = 29;

/// The plan being followed.
#[derive(Clone, Debug)]
pub struct Following {
    /// The plan made for the piece under control.
    pub plan: Plan,
    /// Inputs of the plan already played and checked.
    pub cursor: usize,
    /// The frame whose end state the plan was made from.
    pub planned_at: u64,
}

/// What one frame showed, as its caller read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The frame just run (its number).
    pub frame: u64,
    /// The piece was under control at the frame's start: its pad counted.
    pub controlled: bool,
    /// The piece is under control at the frame's end.
    pub in_control: bool,
    /// The piece's place at the frame's end (RAM keeps a locked piece where it locked);
    /// `None` when no piece is shown.
    pub piece: Option<Pos>,
}

/// The plan's place for the frame differs from the one seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desync {
    /// The frame that showed the difference.
    pub frame: u64,
    /// The plan's place for that frame; `None` when the plan had run out.
    pub expected: Option<Pos>,
    /// The place seen at the frame's end; `None` when no piece was shown.
    pub observed: Option<Pos>,
    /// The frame whose end state the dropped plan was made from.
    pub planned_at: u64,
}

/// What the follower made of a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The piece left the plan (already dropped: the next pad plans again from what was seen).
    pub desync: Option<Desync>,
    /// The piece locked in this frame, here.
    pub locked: Option<Pos>,
    /// The plan was dropped where it asked to be made again (a reaction time).
    pub replanned: bool,
}

/// Plans, presses and checks, one frame at a time.
#[derive(Clone, Debug, Default)]
pub struct Follower {
    following: Option<Following>,
    /// The planner found nothing for this piece: wait for the next one instead of searching
    /// again every frame.
    stuck: bool,
    /// The piece under control since its spawn: what a re-plan inside it counts from.
    piece: PieceLog,
    /// Plans dropped where they asked (`Plan::replan_after`).
    replans: u64,
    /// Tests: sets `replan_after` on every plan made at a spawn, before the planner does.
    #[cfg(test)]
    replan_override: Option<usize>,
    /// Held from the lock of a followed plan to the next spawn (`Plan::entry_hold`).
    entry: PadState,
}

impl Follower {
    /// Tests: sets `replan_after` on every plan made at a spawn, before the planner does.
    #[cfg(test)]
    pub(crate) fn override_replan(&mut self, after: Option<usize>) {
        self.replan_override = after;
    }

    /// The plan being followed, if any.
    pub fn following(&self) -> Option<&Following> {
        self.following.as_ref()
    }

    /// What the piece under control has done since its spawn (what a re-plan now would get).
    pub fn piece_progress(&self) -> PieceProgress {
        self.piece.progress()
    }

    /// Plans dropped and made again where they asked.
    pub fn replans(&self) -> u64 {
        self.replans
    }

    /// Drops the plan being followed (the piece goes on: the next plan counts from its spawn).
    pub fn drop_plan(&mut self) {
        self.following = None;
    }

    /// A new piece, a game over or a new game: nothing of the last piece carries on.
    pub fn reset(&mut self) {
        self.following = None;
        self.entry = PadState::NONE;
        self.stuck = false;
        self.piece.end();
    }

    /// Plans the piece under control when no plan is being followed. `game` gives the game as
    /// the frame left it; it is called only when a plan is made.
    pub fn ensure_plan<E: Evaluator, G: Borrow<Game>, X>(
        &mut self,
        planner: &mut Planner<E>,
        frame: u64,
        in_control: bool,
        game: impl FnOnce() -> Result<G, X>,
    ) -> Result<(), X> {
        if !in_control || self.following.is_some() || self.stuck {
            return Ok(());
        }
        let game = game()?;
        let game = game.borrow();
        // The first plan of a piece is made at its spawn; any later one (the reaction's, a
        // desync's) goes on from what the piece has done since, however many plans came between.
        let situation = if self.piece.is_live() {
            Situation {
                progress: self.piece.progress(),
                ..Situation::of(game)
            }
        } else {
            self.piece.start(game.held);
            Situation::of(game)
        };
        match planner.plan(&situation) {
            Some(mut plan) => {
                // Select, newly pressed on the first frame after the lock, toggles $DF before
                // the lock's play-state-5 frame (plans themselves never hold it).
                if plan.hide_preview != game.preview_hidden() {
                    plan.entry_hold = plan.entry_hold.union(PadState::SELECT);
                }
                #[cfg(test)]
                if situation.progress.frames == 0 && self.replan_override.is_some() {
                    plan.replan_after = self.replan_override;
                }
                log::debug!(
                    "frame {frame}: planned a lock at x {}, y {}, orientation {} in {} frames \
                     ({} reachable locks, value {:?})",
                    plan.lock.x,
                    plan.lock.y,
                    plan.lock.orientation.id(),
                    plan.inputs.len(),
                    plan.candidates,
                    plan.value
                );
                self.following = Some(Following {
                    plan,
                    cursor: 0,
                    planned_at: frame,
                });
            }
            None => {
                log::warn!("frame {frame}: no placement found for the piece; pressing nothing");
                self.stuck = true;
            }
        }
        Ok(())
    }

    /// The pad for the next frame (after [`Follower::ensure_plan`]): the plan's byte while the
    /// piece is under control; between pieces the last plan's entry hold (a DAS charge carried
    /// to the next piece), nothing otherwise.
    pub fn pad(&self, in_control: bool) -> PadState {
        if !in_control {
            return self.entry;
        }
        self.following
            .as_ref()
            .and_then(|f| f.plan.inputs.get(f.cursor).copied())
            .unwrap_or(PadState::NONE)
    }

    /// Checks the frame just run with `pad` against the plan.
    pub fn seen(&mut self, pad: PadState, seen: Seen) -> Report {
        let mut report = Report::default();
        if !seen.controlled {
            return report;
        }
        self.piece.push(pad);
        let frame = seen.frame;
        if let Some(f) = &mut self.following {
            let expected = f.plan.expected.get(f.cursor).copied();
            if expected.is_some() && expected == seen.piece {
                f.cursor += 1;
            } else {
                log::info!(
                    "desync at frame {frame}: expected {expected:?}, observed {:?} (plan made \
                     at frame {}); re-planning",
                    seen.piece,
                    f.planned_at
                );
                report.desync = Some(Desync {
                    frame,
                    expected,
                    observed: seen.piece,
                    planned_at: f.planned_at,
                });
                self.following = None;
            }
        }
        if !seen.in_control {
            // RAM keeps the piece where it locked, so a lock that comes earlier than planned
            // can still match the expected position: it must also be the plan's last frame and
            // its lock.
            if let Some(f) = &self.following {
                let l = f.plan.lock;
                if f.cursor != f.plan.inputs.len() || seen.piece != Some(l) {
                    log::info!(
                        "desync at frame {frame}: locked at {:?} after {} of {} planned frames \
                         (plan made at frame {})",
                        seen.piece,
                        f.cursor,
                        f.plan.inputs.len(),
                        f.planned_at
                    );
                    report.desync = Some(Desync {
                        frame,
                        expected: f.plan.expected.get(f.cursor).copied(),
                        observed: seen.piece,
                        planned_at: f.planned_at,
                    });
                }
            }
            let entry = match (&self.following, report.desync) {
                (Some(f), None) => f.plan.entry_hold,
                _ => PadState::NONE,
            };
            self.reset();
            self.entry = entry;
            report.locked = seen.piece;
        } else if let Some(f) = &self.following {
            // The plan's first inputs were all it committed to (made before the next piece was
            // seen): plan again from here, with the piece's progress.
            if f.plan.replan_after == Some(f.cursor) {
                log::debug!(
                    "frame {frame}: re-planning after {} frames of the plan made at frame {}",
                    f.cursor,
                    f.planned_at
                );
                self.following = None;
                self.replans += 1;
                report.replanned = true;
            }
        }
        report
    }
}

/// How a game stopped on a crash: its kind and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Crash {
    /// Crash, hang or hand-over to the attract demo.
    #[serde(with = "kind_name")]
    pub kind: CrashKind,
    /// Where: the console's frame number of the last frame that moved on the cartridge, the
    /// game's frames played in the model.
    pub frame: u64,
    /// Level shown at the crash.
    pub level: u8,
    /// Lines shown at the crash.
    pub lines: u32,
}

/// `CrashKind` by its summary name.
mod kind_name {
    use crate::game::crash::CrashKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(k: &CrashKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(k.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CrashKind, D::Error> {
        match String::deserialize(d)?.as_str() {
            "crash" => Ok(CrashKind::Crash),
            "hang" => Ok(CrashKind::Hang),
            "demo" => Ok(CrashKind::Demo),
            other => Err(serde::de::Error::custom(format!(
                "unknown crash kind `{other}` (crash, hang or demo)"
            ))),
        }
    }
}

/// A game's counts, built from each frame's score, lines, level and follower report.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// Score at the last frame (a run's: the games' sum).
    pub score: u32,
    /// Lines at the last frame (a run's: the games' sum).
    pub lines: u32,
    /// Level at the last frame (a run's: the highest).
    pub level: u8,
    /// Pieces locked.
    pub pieces: u32,
    /// Clears of four lines.
    pub tetrises: u32,
    /// Frames where the piece left the plan.
    pub desyncs: u32,
    /// Lines when the level first showed 29 or more in this game (`None`: never reached).
    pub lines_at_29: Option<u32>,
    /// Score when the level first showed 29 or more.
    #[serde(skip)]
    pub score_at_29: Option<u32>,
    /// The score reached 999,999 before level 29.
    #[serde(skip)]
    pub maxed_before_29: bool,
    /// The highest level shown before any roll-over (255 → 0 is a rebirth).
    #[serde(skip)]
    pub peak_level: u8,
    /// Lines when the level rolled over from 255 to 0 (`None`: it never did).
    #[serde(skip)]
    pub lines_at_rebirth: Option<u32>,
    /// Line clears (not lines) made at level 155 or above, before any roll-over.
    #[serde(skip)]
    pub clears_past_155: u32,
    /// The game ended in a crash or a hang, here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crash: Option<Crash>,
}

impl Tally {
    /// The counts of a game as it stands before its first frame.
    pub fn start(score: u32, lines: u32, level: u8) -> Tally {
        let mut t = Tally {
            level,
            peak_level: level,
            ..Tally::default()
        };
        t.note(score, lines, level);
        t
    }

    /// One frame: the game's score, lines and level at its end and what the follower saw.
    pub fn frame(&mut self, score: u32, lines: u32, level: u8, report: &Report) {
        let cleared = lines.saturating_sub(self.lines);
        if cleared == 4 {
            self.tetrises += 1;
        }
        if cleared > 0 && self.lines_at_rebirth.is_none() && self.level >= CRASH_LEVEL {
            self.clears_past_155 += 1;
        }
        if self.level == 255 && level == 0 && self.lines_at_rebirth.is_none() {
            self.lines_at_rebirth = Some(lines);
        }
        self.desyncs += u32::from(report.desync.is_some());
        self.pieces += u32::from(report.locked.is_some());
        self.note(score, lines, level);
    }

    fn note(&mut self, score: u32, lines: u32, level: u8) {
        self.score = score;
        self.lines = lines;
        self.level = level;
        if self.lines_at_rebirth.is_none() {
            self.peak_level = self.peak_level.max(level);
        }
        if self.lines_at_29.is_none() && level >= LEVEL_29 {
            self.lines_at_29 = Some(lines);
            self.score_at_29 = Some(score);
        }
        if score >= 999_999 && self.score_at_29.is_none() && level < LEVEL_29 {
            self.maxed_before_29 = true;
        }
    }

    /// The game reached `level` (before or after a roll-over).
    pub fn reached(&self, level: u8) -> bool {
        self.lines_at_rebirth.is_some() || self.peak_level >= level
    }

    /// Lines cleared from the level-29 transition on (0 when the game never reached it).
    pub fn lines_after_29(&self) -> u32 {
        self.lines_at_29
            .map_or(0, |at| self.lines.saturating_sub(at))
    }

    /// The pieces, tetrises and desyncs alone: what a game left unfinished adds to its run
    /// (its score, lines and level count only once it is over).
    pub fn plays(&self) -> Tally {
        Tally {
            pieces: self.pieces,
            tetrises: self.tetrises,
            desyncs: self.desyncs,
            ..Tally::default()
        }
    }

    /// Lines cleared by tetrises over all lines (0 when no line was cleared).
    pub fn tetris_rate(&self) -> f64 {
        if self.lines == 0 {
            0.0
        } else {
            f64::from(self.tetrises * 4) / f64::from(self.lines)
        }
    }
}

/// A run's counts from its games': scores, lines, pieces, tetrises and desyncs add up, the
/// level is the highest. The marks of one game (level 29, the rebirth, level 155, the crash)
/// mean nothing for a run and stay empty.
impl std::ops::Add for Tally {
    type Output = Tally;

    fn add(self, other: Tally) -> Tally {
        Tally {
            score: self.score + other.score,
            lines: self.lines + other.lines,
            level: self.level.max(other.level),
            pieces: self.pieces + other.pieces,
            tetrises: self.tetrises + other.tetrises,
            desyncs: self.desyncs + other.desyncs,
            ..Tally::default()
        }
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        *self = *self + other;
    }
}

impl std::iter::Sum for Tally {
    fn sum<I: Iterator<Item = Tally>>(games: I) -> Tally {
        games.fold(Tally::default(), |a, b| a + b)
    }
}

#[cfg(test)]
#[path = "follow_tests.rs"]
mod tests;
