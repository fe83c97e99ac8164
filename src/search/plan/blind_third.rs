//! The blind plan's third piece: at a row a frame, where the blind plan is the placement, the
//! first locks best on average over the next piece re-ranked by the piece after it too.

// Before the reaction the plan knows one piece, so its two-piece expectation (the blind worth)
// looks one piece less far than a plan that sees the preview, which the third-piece layer
// (`search::third`) takes a piece further again. At a row a frame no re-plan moves the piece
// (it has locked, or nearly, by the reaction frame), so the blind choice is the placement and
// that missing depth is what slow taps feel most (benches/README.md, "The blind plan's third
// piece"): the stack must stay reachable for every piece to come. Here the `lookahead.top_k`
// first locks of best worth (every next piece with a pair) are valued again as the expectation
// over the next piece of the third-piece layer's expectation after its best pair, plus the value
// of the lines the first lock clears (which that expectation, of the two locks after it, leaves
// out). Below a row a frame the re-plan at the reaction sees the next piece and runs the layer
// itself.

use crate::game::piece::Piece;
use crate::game::score::drop_speed;
use crate::movegen::LockQuery;
use crate::search::clock::Instant;
use crate::search::eval::Evaluator;
use crate::search::pairs::AfterFirst;
use crate::search::third::{third_piece_odds, Pair};

use super::blind_worth::Blind;
use super::planner::Planner;
use super::situation::Situation;

impl<E: Evaluator> Planner<E> {
    /// The first lock the third piece prefers among the `lookahead.top_k` best of `worths`
    /// (every weighed lock whose next pieces all have a pair, with its index), with its worth;
    /// `None`: the layer off, not at a row a frame, past its deadline (`lookahead.deadline_us`
    /// from the decision's start, `started`, as the preview's layer counts it), or no lock with
    /// an expectation.
    pub(super) fn blind_third(
        &mut self,
        s: &Situation,
        odds: &[f64; Piece::NUM],
        worths: &mut [(Blind, usize)],
        started: Instant,
    ) -> Option<(Blind, usize)> {
        let k = self.lookahead.top_k;
        if k == 0 || drop_speed(s.level) > 1 {
            return None;
        }
        let deadline = self.lookahead.deadline();
        worths.sort_unstable_by(|(a, i), (b, j)| a.order(*i, (b, *j)));
        let mut best: Option<(f64, (Blind, usize))> = None;
        for &(worth, i) in worths.iter().take(k) {
            if deadline.is_some_and(|d| started.elapsed() > d) {
                return None;
            }
            let Some(deep) = self.third_worth(s, odds, i) else {
                continue;
            };
            if best.is_none_or(|(b, _)| deep < b) {
                best = Some((deep, (worth, i)));
            }
        }
        best.map(|(_, chosen)| chosen)
    }

    /// First lock `i`'s worth a piece further: over the next piece (`odds`), the third-piece
    /// layer's expectation after that piece's best pair; `None` when a next piece has no pair
    /// or a third piece no acceptable lock.
    fn third_worth(&mut self, s: &Situation, odds: &[f64; Piece::NUM], i: usize) -> Option<f64> {
        let after = AfterFirst::new(&s.board, s.level, s.lines, self.firsts[i].at);
        let (evaluator, seconds, third) = (&self.evaluator, &mut self.seconds, &mut self.third);
        let (profile, moves) = (&self.profile, self.moves);
        evaluator.with_first_pass(&after, |first| {
            let mut worth = 0.0;
            for next in Piece::ALL {
                let q = LockQuery::spawn(&after.board, next, after.speed, profile, moves);
                let locks = seconds.search_after(&q, &after.first, after.lines);
                let (value, second) = evaluator.best_pair_after(first, locks)?;
                let pair = Pair::of(&after, s.lines, (i, value, 0.0), second);
                let odds_after = third_piece_odds(next);
                let e = third.expectation(evaluator, &pair, &odds_after, profile)?;
                worth += odds[next.index()] * e;
            }
            // The expectation values the two locks after this one: its own lines count too.
            Some(worth + evaluator.lines_value(after.level, after.lines))
        })
    }
}
