//! The analysis loop: fed the console's RAM after every frame, it ranks every placement of
//! each new piece at its spawn frame and rates the player's lock when the piece locks.

// A decision is the state at the end of the spawn frame, exactly what the driver plans from.
// A new game shows stale RAM for a few frames (the last game's field, a half-initialised
// state): as the driver does, the first piece of a game is taken only once the first-piece
// delay is armed. A pause keeps the piece under control and the pending decision with it.

use crate::game::piece::Piece;
use crate::game::score::bcd_value;
use crate::game::state::PlayState;
use crate::game::PadState;
use crate::game::Pos;
use crate::nes::addresses::AddressMap;
use crate::nes::console::{Console, ConsoleError};
use crate::nes::modes::{GMS_PLAY, GMS_QUIRK};
use crate::nes::observe::RamSnapshot;
use crate::search::eval::Evaluator;
use crate::search::rank::{Ranker, Ranking};
use crate::search::{Planner, Situation};

use serde::Serialize;

use super::advice::Advice;
use super::classes::{Class, Thresholds};

/// `ary` bit 7: the first-piece delay armed by the game's initialisation.
const FIRST_PIECE_DELAY_BIT: u8 = 0x80;

/// Which piece of which game a rating is about, its frames, and the counters at its spawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Moment {
    /// Game number within the run, from 1.
    pub game: u32,
    /// Piece number within the game, from 1.
    pub piece_number: u32,
    /// The spawn frame (frames since power-on; the decision is the state at its end).
    pub frame: u64,
    /// The frame the piece locked.
    pub lock_frame: u64,
    /// `levelNumber` at the spawn.
    pub level: u8,
    /// Lines at the spawn (BCD decoded).
    pub lines: u32,
    /// Score at the spawn (BCD decoded).
    pub score: u32,
}

/// How the player's placement compares with the others the move set reaches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The player's rank among the placements (1 = best; equal values share a rank).
    pub rank: usize,
    /// Placements the move set reaches.
    pub placements: usize,
    /// The player's value and the best value (`None`: the rules reject every pair after it).
    pub value: Option<f64>,
    /// The best placement's value (`None`: the rules reject every pair after it).
    pub best_value: Option<f64>,
    /// Player's value − best value; `None` when only the player's placement is rejected.
    pub loss: Option<f64>,
    /// The class the loss falls in.
    pub class: Class,
    /// The profile's move set reaches the player's lock; if not, it was valued directly.
    pub reachable: bool,
}

/// The rating of one placement the player made.
#[derive(Clone, Debug)]
pub struct Rating {
    /// Which piece, when, and the counters at its spawn.
    pub at: Moment,
    /// The piece the player placed.
    pub piece: Piece,
    /// The next piece, if the decision knew it.
    pub next: Option<Piece>,
    /// Where the player locked the piece.
    pub player: Pos,
    /// The best placement (the planner's choice).
    pub best: Pos,
    /// How the player's placement compares with the best.
    pub verdict: Verdict,
    /// The decision: the state at the end of the spawn frame (the field without the piece).
    pub situation: Situation,
}

/// Why the analysis could not go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The console failed.
    #[error(transparent)]
    Console(#[from] ConsoleError),
    /// The movie holds no A-type game with a placed piece.
    #[error(
        "no game in it: {frames} frames replayed and no piece was ever placed in an A-type game"
    )]
    NoGame {
        /// Frames replayed.
        frames: u64,
    },
}

/// What one observed frame brought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observed {
    /// Nothing to report.
    Nothing,
    /// A new piece was ranked (see [`Analyzer::pending`]).
    Ranked,
    /// The player's lock was rated (the last of [`Analyzer::ratings`]).
    Rated,
    /// The game topped out.
    GameOver,
}

#[derive(Clone, Debug)]
struct Pending {
    frame: u64,
    ranking: Ranking,
    score: u32,
    advice: Option<Advice>,
}

/// Rates every placement of the games it observes.
pub struct Analyzer<E: Evaluator> {
    ranker: Ranker<E>,
    /// Under a reaction delay, the planner that says the hover and the taps (`set_advice`).
    advisor: Option<Planner<E>>,
    map: AddressMap,
    thresholds: Thresholds,
    pending: Option<Pending>,
    /// Outside play since the last game: the next game's first piece must show its delay.
    fresh: bool,
    was_curtain: bool,
    games: u32,
    pieces_in_game: u32,
    ratings: Vec<Rating>,
    frames: u64,
}

impl<E: Evaluator + Clone> Analyzer<E> {
    /// An analyzer that ranks with `evaluator`, reads RAM through `map` and classes losses
    /// with `thresholds`.
    pub fn new(evaluator: E, map: AddressMap, thresholds: Thresholds) -> Analyzer<E> {
        Analyzer {
            ranker: Ranker::new(evaluator),
            advisor: None,
            map,
            thresholds,
            pending: None,
            fresh: true,
            was_curtain: false,
            games: 0,
            pieces_in_game: 0,
            ratings: Vec::new(),
            frames: 0,
        }
    }

    /// The ratings so far, in lock order.
    pub fn ratings(&self) -> &[Rating] {
        &self.ratings
    }

    /// The ratings, in lock order.
    pub fn into_ratings(self) -> Vec<Rating> {
        self.ratings
    }

    /// The ranking of the piece under control, from its spawn frame until it locks.
    pub fn pending(&self) -> Option<&Ranking> {
        self.pending.as_ref().map(|p| &p.ranking)
    }

    /// Games seen so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Ranks under `profile`: the locks its player can reach (`unlimited` unless set).
    pub fn set_profile(&mut self, profile: crate::movegen::profile::Profile) {
        if let Some(p) = &mut self.advisor {
            p.profile = profile.clone();
        }
        self.ranker.set_profile(profile);
    }

    /// With `on`, each piece ranked before the profile's reaction frame also gets its
    /// [`Advice`]: the hover, then the taps for the next piece that came.
    pub fn set_advice(&mut self, on: bool) {
        self.advisor = on.then(|| {
            let mut p = Planner::new(self.ranker.evaluator.clone());
            p.profile = self.ranker.profile().clone();
            p
        });
    }

    /// The advice for the piece under control (with [`Analyzer::set_advice`] and a reaction
    /// delay).
    pub fn advice(&self) -> Option<&Advice> {
        self.pending.as_ref()?.advice.as_ref()
    }

    /// Where the piece under control should go as of the last frame observed: with advice,
    /// the hover until the reaction frame and then the lock for the next piece that came;
    /// otherwise the ranking's best.
    pub fn suggestion(&self) -> Option<Pos> {
        let p = self.pending.as_ref()?;
        match &p.advice {
            Some(a) => Some(a.target(self.frames.saturating_sub(p.frame))),
            None => p.ranking.best().map(|e| e.lock),
        }
    }

    /// The ranker (its evaluator, e.g. for explanations).
    pub fn ranker(&self) -> &Ranker<E> {
        &self.ranker
    }

    /// Looks at the RAM the console left at the end of frame `frame` (0 = before any frame).
    pub fn observe(&mut self, frame: u64, ram: &[u8]) -> Observed {
        self.frames = self.frames.max(frame);
        let s = RamSnapshot::read(ram, &self.map);
        if !s.in_play() {
            self.pending = None;
            self.fresh = true;
            self.was_curtain = false;
            return Observed::Nothing;
        }
        let control = s.play_state == PlayState::Control as u8;
        let curtain = s.topped_out();
        let mut observed = Observed::Nothing;
        if let Some(p) = &self.pending {
            if !control {
                let p = p.clone();
                self.pending = None;
                self.rate(p, &s, frame);
                observed = Observed::Rated;
            }
        } else if control && self.ready(&s) {
            observed = self.decide(&s, frame);
        }
        if curtain && !self.was_curtain {
            self.pending = None;
            observed = Observed::GameOver;
        }
        self.was_curtain = curtain;
        observed
    }

    /// A state the planner can start from: the main loop in play, RAM a valid game, and for a
    /// new game's first piece the delay armed (before it, RAM is still the last game's).
    fn ready(&self, s: &RamSnapshot) -> bool {
        matches!(s.game_mode_state, GMS_PLAY | GMS_QUIRK)
            && s.problems().is_empty()
            && (!self.fresh || s.soft_drop & FIRST_PIECE_DELAY_BIT != 0)
    }

    fn decide(&mut self, s: &RamSnapshot, frame: u64) -> Observed {
        let Ok(game) = s.to_game() else {
            return Observed::Nothing;
        };
        if self.fresh {
            self.fresh = false;
            self.games += 1;
            self.pieces_in_game = 0;
        }
        let situation = Situation::of(&game);
        match self.ranker.rank(&situation) {
            Some(ranking) => {
                let advice = match (&mut self.advisor, situation.next) {
                    (Some(p), Some(next)) => {
                        p.adjustments(&situation).and_then(|a| Advice::new(a, next))
                    }
                    _ => None,
                };
                self.pending = Some(Pending {
                    frame,
                    ranking,
                    score: bcd_value(&s.score_bcd),
                    advice,
                });
                Observed::Ranked
            }
            None => Observed::Nothing,
        }
    }

    fn rate(&mut self, p: Pending, s: &RamSnapshot, frame: u64) {
        let Some(player) = Pos::from_ram(s.x, s.y, s.orientation) else {
            return;
        };
        let ranking = &p.ranking;
        let Some(best) = ranking.best().copied() else {
            return;
        };
        let (value, rank, reachable) = match ranking.find(&player) {
            Some(e) => (e.value, e.rank, true),
            None => {
                let (v, _) = self.ranker.value_of(&ranking.situation, &player);
                (v, ranking.rank_of_value(v), false)
            }
        };
        let loss = match (value, best.value) {
            (Some(v), Some(b)) => Some((v - b).max(0.0)),
            (None, None) => Some(0.0),
            (Some(_), None) => Some(0.0),
            (None, Some(_)) => None,
        };
        self.pieces_in_game += 1;
        let sit = &ranking.situation;
        self.ratings.push(Rating {
            at: Moment {
                game: self.games,
                piece_number: self.pieces_in_game,
                frame: p.frame,
                lock_frame: frame,
                level: sit.level,
                lines: bcd_value(&sit.lines),
                score: p.score,
            },
            piece: player.orientation.piece(),
            next: sit.next,
            player,
            best: best.lock,
            verdict: Verdict {
                rank,
                placements: ranking.entries.len(),
                value,
                best_value: best.value,
                loss,
                class: self.thresholds.class(loss),
                reachable,
            },
            situation: *sit,
        });
    }

    /// Replays `pads` on `console` (freshly started: its RAM is observed first as frame 0),
    /// observing every frame; `on_frame` sees each frame's result (for progress bars and
    /// interruption: return false to stop). Fails when no placement was rated.
    pub fn run<C: Console + ?Sized>(
        &mut self,
        console: &mut C,
        pads: impl IntoIterator<Item = PadState>,
        mut on_frame: impl FnMut(&Analyzer<E>, Observed) -> bool,
    ) -> Result<(), AnalysisError> {
        let first = self.observe(console.frame_number(), console.ram());
        if on_frame(self, first) {
            for pad in pads {
                console.frame(pad)?;
                let o = self.observe(console.frame_number(), console.ram());
                if !on_frame(self, o) {
                    break;
                }
            }
        }
        if self.ratings.is_empty() {
            return Err(AnalysisError::NoGame {
                frames: console.frame_number(),
            });
        }
        Ok(())
    }
}
