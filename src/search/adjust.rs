//! A piece played with a reaction delay, as a coach says it: where the plan has the piece when
//! the next piece is seen (the hover), then the taps from there for each next piece.

// The blind plan never reads the next piece, so the frames before the reaction are the same
// whatever comes; from the reaction frame the planner plans again with each of the seven
// next pieces, as the driver does with the one that came. "Hover here, then tap twice right if
// an I comes."

use std::fmt::Write as _;

use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::game::Pos;

use super::eval::Evaluator;
use super::explain::PlacementView;
use super::plan::{Planner, Situation};

/// One next piece's adjustment: the buttons from the reaction frame to the lock.
#[derive(Clone, Debug, PartialEq)]
pub struct Adjustment {
    /// The next piece this adjustment is for.
    pub next: Piece,
    /// One button byte per frame, from the reaction frame on.
    pub inputs: Vec<PadState>,
    /// Where the piece locks.
    pub lock: Pos,
}

/// The hover and the adjustment for every next piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Adjustments {
    /// The buttons from the situation to the reaction frame (the same for every next piece).
    pub hover_inputs: Vec<PadState>,
    /// Where the piece is at the reaction frame.
    pub hover: Pos,
    /// The buttons held on the last hover frame (the adjustments' taps count from it).
    pub held: PadState,
    /// One adjustment per next piece, in `Piece::ALL` order.
    pub by_next: Vec<Adjustment>,
}

impl Adjustments {
    /// In words: "hover x 5 y 7 o 02 (frame 18); I: 2 R → x 7 y 18 o 11; T: none → …".
    pub fn text(&self) -> String {
        let at = |p: &Pos| PlacementView::from(p).words();
        let mut out = format!(
            "hover {} (frame {})",
            at(&self.hover),
            self.hover_inputs.len()
        );
        for a in &self.by_next {
            let taps = taps_in_words(&a.inputs, self.held);
            let _ = write!(out, "; {}: {taps} → {}", a.next.letter(), at(&a.lock));
        }
        out
    }
}

/// The presses in `inputs` (held `prev` before them) in words, as a player counts them:
/// "2 R, 1 A"; Down (the soft drop) is not a tap; "none" without any.
pub fn taps_in_words(inputs: &[PadState], mut prev: PadState) -> String {
    let names = [
        (PadState::LEFT, "L"),
        (PadState::RIGHT, "R"),
        (PadState::A, "A"),
        (PadState::B, "B"),
    ];
    let mut counts = [0u32; 4];
    for &i in inputs {
        let newly = i.newly_from(prev);
        for (k, (button, _)) in names.iter().enumerate() {
            counts[k] += u32::from(newly.intersects(*button));
        }
        prev = i;
    }
    let said: Vec<String> = names
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|((_, name), n)| format!("{n} {name}"))
        .collect();
    if said.is_empty() {
        "none".into()
    } else {
        said.join(", ")
    }
}

impl<E: Evaluator> Planner<E> {
    /// The hover and each next piece's adjustment of the piece in `s`, under this planner's
    /// profile. `None` when the profile reacts at once or `s` is past its reaction frame, no
    /// piece is shown, or the plan locks before the reaction frame (nothing left to adjust).
    pub fn adjustments(&mut self, s: &Situation) -> Option<Adjustments> {
        if s.progress.frames >= self.profile.reaction {
            return None;
        }
        let blind = self.plan(s)?;
        let k = blind.replan_after?;
        let hover_inputs = blind.inputs[..k].to_vec();
        let at = s.after(&hover_inputs);
        let hover = Pos::of(&at.active)?;
        let mut by_next = Vec::with_capacity(Piece::NUM);
        for next in Piece::ALL {
            let plan = self.plan(&Situation {
                next: Some(next),
                ..at
            })?;
            by_next.push(Adjustment {
                next,
                inputs: plan.inputs,
                lock: plan.lock,
            });
        }
        Some(Adjustments {
            hover_inputs,
            hover,
            held: at.prev,
            by_next,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::active::Control;
    use crate::game::pad::Buttons;
    use crate::game::score::drop_speed;
    use crate::movegen::profile::Profile;
    use crate::search::eval::Standard;
    use crate::search::fixtures::planner_boards;

    fn planner(profile: &str) -> Planner<Standard> {
        let mut p = Planner::new(Standard::default());
        p.profile = Profile::preset(profile).unwrap();
        p
    }

    /// The grid's 15 Hz cell with 18 frames of reaction.
    fn fifteen_hz_r18() -> Planner<Standard> {
        let mut p = planner("15hz");
        p.profile.reaction = 18;
        p
    }

    /// Plays `inputs` from `s` in the model; where the piece locked, if it did.
    fn locks_at(s: &Situation, inputs: &[PadState]) -> Option<Pos> {
        let (mut a, mut prev) = (s.active, s.prev);
        for &i in inputs {
            if a.frame(Buttons::after(i, prev), drop_speed(s.level), &s.board) == Control::Locked {
                return Pos::of(&a);
            }
            prev = i;
        }
        None
    }

    #[test]
    fn the_hover_then_each_adjustment_locks_where_it_says_and_the_driver_would() {
        let mut p = fifteen_hz_r18();
        let (mut checked, mut moved) = (0, 0);
        for &board in planner_boards().iter() {
            for piece in Piece::ALL {
                let s = Situation::at_spawn(board, piece, 18, [0x30, 0x01], Some(Piece::I));
                let Some(adj) = p.adjustments(&s) else {
                    continue;
                };
                assert_eq!(adj.by_next.len(), Piece::NUM);
                assert_eq!(usize::from(p.profile.reaction), adj.hover_inputs.len());
                for a in &adj.by_next {
                    // The hover, then the adjustment: the lock it names.
                    let mut all = adj.hover_inputs.clone();
                    all.extend_from_slice(&a.inputs);
                    assert_eq!(
                        locks_at(&s, &all),
                        Some(a.lock),
                        "{piece:?} then {:?}",
                        a.next
                    );
                    // The re-plan a fresh planner makes at the reaction frame: the same.
                    let mut fresh = fifteen_hz_r18();
                    let at = s.after(&adj.hover_inputs);
                    let re = fresh.plan(&Situation {
                        next: Some(a.next),
                        ..at
                    });
                    assert_eq!(re.map(|r| r.lock), Some(a.lock));
                    checked += 1;
                }
                let locks: Vec<Pos> = adj.by_next.iter().map(|a| a.lock).collect();
                moved += usize::from(locks.iter().any(|l| *l != locks[0]));
            }
        }
        assert!(checked >= 7 * 20, "{checked} adjustments checked");
        assert!(
            moved > 0,
            "some hover serves different next pieces differently"
        );
    }

    #[test]
    fn a_profile_that_reacts_at_once_has_nothing_to_adjust() {
        let board = planner_boards()[0];
        let s = Situation::at_spawn(board, Piece::T, 18, [0x30, 0x01], Some(Piece::I));
        assert_eq!(planner("30hz").adjustments(&s), None);
        let mut human = planner("human");
        let blind = human.plan(&s).unwrap();
        let k = blind.replan_after.unwrap();
        // Past the reaction frame the next piece is seen: no blind part left.
        assert_eq!(human.adjustments(&s.after(&blind.inputs[..k])), None);
    }

    #[test]
    fn taps_count_presses_not_held_frames() {
        let (r, a, d, n) = (PadState::RIGHT, PadState::A, PadState::DOWN, PadState::NONE);
        assert_eq!(taps_in_words(&[r, r, n, r, d], n), "2 R");
        assert_eq!(taps_in_words(&[r, n, a.union(r)], r), "1 R, 1 A");
        assert_eq!(taps_in_words(&[d, d], n), "none");
        assert_eq!(
            taps_in_words(&[PadState::LEFT, n, PadState::B], n),
            "1 L, 1 B"
        );
    }
}
