//! A position's target from the game that followed it: the discounted lines it went on to
//! clear, or the λ-return that trusts the current value for the far part of the game.

// The plain target (λ = 1) is what the play that recorded the position earned, so positions kept
// from earlier rounds keep the worth of the weaker play of their round. The λ-return mixes in
// the current value at every later position, (1 − λ) at the first step, less further on, so a
// relabelling with the newest fit values old positions by how the newest play goes on from
// them, and a game stopped at the piece cap is valued on from its last board instead of as if
// it had topped out there.

use crate::search::eval::encode_rows;
use crate::search::weights::LearnedValue;

use super::Sample;

/// How a target is made from the game that followed its position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Returns {
    /// Each later piece's lines count this much less than the one before (0 < gamma ≤ 1).
    pub gamma: f64,
    /// The weight of the game itself against the current value at each later step
    /// (0 ≤ lambda ≤ 1; 1: the game alone).
    pub lambda: f64,
}

/// The targets of a game whose spawns had cleared `lines_at` lines so far and which ended
/// with `final_lines`: minus the lines from each spawn on, the k-th piece later × gammaᵏ.
pub fn targets(lines_at: &[u32], final_lines: u32, gamma: f64) -> Vec<f64> {
    let mut out = vec![0.0; lines_at.len()];
    let mut ahead = 0.0;
    let mut next = final_lines;
    for (i, &l) in lines_at.iter().enumerate().rev() {
        ahead = f64::from(next - l) + gamma * ahead;
        next = l;
        out[i] = -ahead;
    }
    out
}

/// Sets the targets of one game's samples (in order) to their λ-returns under `value`:
/// minus the piece's lines, plus gamma × the next position's worth, which is (1 − λ) × its
/// value plus λ × its own target. After the last sample comes `end` (the board where the
/// piece cap stopped the game), valued by `value`, or nothing (the game topped out).
pub fn relabel(samples: &mut [Sample], end: Option<&[u16; 20]>, value: &LearnedValue, r: Returns) {
    let after = end.map_or(0.0, |rows| value.value_of(&encode_rows(rows)));
    let (mut next_value, mut next_target) = (after, after);
    for s in samples.iter_mut().rev() {
        let ahead = (1.0 - r.lambda) * next_value + r.lambda * next_target;
        s.target = -f64::from(s.lines) + r.gamma * ahead;
        next_value = value.value_of(&encode_rows(&s.rows));
        next_target = s.target;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::weights::learned::{REALS, TABLE_LEN};

    fn value(bias: f64) -> LearnedValue {
        LearnedValue {
            bias,
            table: vec![0.0; TABLE_LEN],
            features: [0.0; REALS],
        }
    }

    fn game(lines: &[u32]) -> Vec<Sample> {
        lines
            .iter()
            .enumerate()
            .map(|(i, &lines)| {
                let mut rows = [0u16; 20];
                rows[19] = i as u16;
                Sample {
                    rows,
                    target: f64::NAN,
                    lines,
                }
            })
            .collect()
    }

    #[test]
    fn targets_discount_each_later_pieces_lines() {
        // Spawns after 0, 0, 2 and 3 lines; the game ended at 3.
        let t = targets(&[0, 0, 2, 3], 3, 0.5);
        // From the last spawn nothing more; from the third, its piece's 1 line; from the
        // second, its piece's 2 then half of 1; from the first, nothing then half of 2.5.
        assert_eq!(t, vec![-1.25, -2.5, -1.0, -0.0]);
        assert_eq!(targets(&[], 7, 0.9), Vec::<f64>::new());
    }

    #[test]
    fn lambda_one_is_the_games_own_lines_and_zero_the_next_value() {
        let r = |lambda| Returns { gamma: 0.5, lambda };
        // Lines 0, 2, 1, 0 (spawns after 0, 0, 2, 3), topped out: the plain targets.
        let mut g = game(&[0, 2, 1, 0]);
        relabel(&mut g, None, &value(-8.0), r(1.0));
        let t: Vec<f64> = g.iter().map(|s| s.target).collect();
        assert_eq!(t, vec![-1.25, -2.5, -1.0, 0.0]);
        // λ 0: each target is its lines plus half the next board's value (−8), the last one's
        // nothing (topped out).
        relabel(&mut g, None, &value(-8.0), r(0.0));
        let t: Vec<f64> = g.iter().map(|s| s.target).collect();
        assert_eq!(t, vec![-4.0, -6.0, -5.0, 0.0]);
    }

    #[test]
    fn a_game_stopped_at_the_cap_is_valued_on_from_its_last_board() {
        let r = Returns {
            gamma: 0.5,
            lambda: 0.5,
        };
        let mut g = game(&[1, 0]);
        relabel(&mut g, Some(&[0; 20]), &value(-4.0), r);
        // The last: 0 lines then half of −4 (value and target of the end alike): −2. The
        // first: −1 then half of (half of −4 and half of −2): −2.5.
        assert_eq!(g[1].target, -2.0);
        assert_eq!(g[0].target, -2.5);
        // Topped out instead: the last is worth its lines alone.
        relabel(&mut g, None, &value(-4.0), r);
        assert_eq!(g[1].target, 0.0);
        assert_eq!(g[0].target, -1.0 + 0.5 * (0.5 * -4.0 + 0.5 * 0.0));
    }
}
