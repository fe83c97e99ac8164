//! Play mode: a person plays the rules model one frame at a time with the page's keys (the
//! model's DAS and gravity are the cartridge's); assist outlines the bot's lock and rates each.

use nestor::game::pad::PadState;
use nestor::game::state::{Game, PlayState};
use nestor::game::Pos;
use nestor::search::rank::{Ranker, Ranking};
use nestor::search::{Planner, Situation, Standard};
use serde::Serialize;

use crate::analyse::{planner_for, profile_named};
use crate::view::View;

/// How a person's lock ranked among the piece's reachable placements at its spawn.
#[derive(Clone, Serialize)]
pub struct Rating {
    pub piece: u32,
    /// 1 for the best value (placements of equal value share a rank).
    pub rank: Option<usize>,
    pub of: usize,
    /// The lock's value minus the best (0 for the best; lower values are better).
    pub loss: Option<f64>,
}

/// A person's game.
pub struct Person {
    pub game: Game,
    planner: Planner<Standard>,
    ranker: Ranker<Standard>,
    /// The bot's lock for the piece under control (computed at its spawn).
    advice: Option<Pos>,
    ranking: Option<Ranking>,
    pub pieces: u32,
    pub ratings: Vec<Rating>,
    was_in_control: bool,
}

impl Person {
    pub fn new(level: u8, seed: u64, profile: &str) -> Result<Person, String> {
        let (planner, ranker) = planner_for(profile_named(profile)?)?;
        Ok(Person {
            game: Game::seeded(level, seed),
            planner,
            ranker,
            advice: None,
            ranking: None,
            pieces: 0,
            ratings: Vec::new(),
            was_in_control: false,
        })
    }

    pub fn over(&self) -> bool {
        self.game.is_over() || self.game.crashed.is_some()
    }

    /// One frame with `buttons` held (the NES pad byte: A $80, B $40, Select $20, Start $10,
    /// Up $08, Down $04, Left $02, Right $01). `assist` plans and ranks each new piece.
    pub fn step(&mut self, buttons: u8, assist: bool) {
        if self.over() {
            return;
        }
        let in_control = self.game.play_state == PlayState::Control;
        if in_control && !self.was_in_control && assist {
            let s = Situation::of(&self.game);
            self.advice = self.planner.plan(&s).map(|p| p.lock);
            self.ranking = self.ranker.rank(&s);
        }
        self.was_in_control = in_control;
        let ev = self.game.step(PadState(buttons));
        if let Some(pos) = ev.locked {
            self.pieces += 1;
            if let Some(ranking) = self.ranking.take() {
                self.rate(&ranking, &pos);
            }
            self.advice = None;
        }
    }

    fn rate(&mut self, ranking: &Ranking, at: &Pos) {
        let played = ranking.find(at);
        let best = ranking.best().and_then(|b| b.value);
        self.ratings.push(Rating {
            piece: self.pieces,
            rank: played.map(|p| p.rank),
            of: ranking.entries.len(),
            loss: played.and_then(|p| Some(p.value? - best?)),
        });
        if self.ratings.len() > 50 {
            self.ratings.remove(0);
        }
    }

    /// The game as drawn, with assist's lock outlined when asked.
    pub fn view(&self, assist: bool) -> View {
        View::of(&self.game, self.advice.as_ref().filter(|_| assist))
    }
}
