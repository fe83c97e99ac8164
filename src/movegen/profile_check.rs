//! Whether one piece's recorded inputs obey a player profile: new presses only on the
//! timeline's X frames, none before the start delay, taps and holds as the profile allows them.

use std::fmt;

use crate::game::pad::PadState;

use super::profile::{Profile, Shift, TIMED};

/// The directions (Left, Right).
const DIRECTIONS: PadState = PadState(0x03);

/// One piece as it was played: the pads of its frames, from its first under control (the
/// plan's `inputs[0]` at its spawn) to the one it locked in.
#[derive(Clone, Copy, Debug)]
pub struct PieceRecord<'a> {
    /// The game's first piece: the profile's start delay applies to it.
    pub first_of_game: bool,
    /// Buttons held in the frame before the piece's first.
    pub prev: PadState,
    /// The pad of each frame, first under control to lock.
    pub inputs: &'a [PadState],
}

/// What a frame did that the profile forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breach {
    /// A new press of Left, Right, A or B on a frame the timeline does not allow.
    OffTimeline {
        /// The timed buttons newly pressed.
        pressed: PadState,
    },
    /// A new press (Down included) on the game's first piece before the start delay ran out.
    BeforeStartDelay {
        /// The buttons newly pressed (Left, Right, A, B, Down).
        pressed: PadState,
    },
    /// A `hold` profile presses each direction once a piece; this is a second press.
    PressedAgain {
        /// The direction pressed a second time.
        direction: PadState,
    },
    /// A `tap` profile presses a direction for one frame; this frame still holds it.
    HeldTap {
        /// The direction still held.
        direction: PadState,
    },
    /// A direction newly pressed in the entry delay (between a lock and the next spawn): a
    /// `tap` profile presses none there, a hold profile one (kept into the next piece, where
    /// the DAS counter the last piece left drives it).
    EntryPress {
        /// The directions newly pressed.
        pressed: PadState,
    },
    /// Before the reaction time ran out, the piece did not do what the plan made at its spawn
    /// (which cannot depend on the next piece) does.
    Reaction {
        /// What the spawn's plan holds on that frame.
        planned: PadState,
        /// What the piece held on that frame, Start left out.
        pressed: PadState,
    },
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Breach::OffTimeline { pressed } => {
                write!(f, "{} newly pressed off the timeline", pressed.to_letters())
            }
            Breach::BeforeStartDelay { pressed } => write!(
                f,
                "{} pressed before the start delay ran out",
                pressed.to_letters()
            ),
            Breach::PressedAgain { direction } => write!(
                f,
                "{} pressed a second time in the piece (a hold profile presses it once)",
                direction.to_letters()
            ),
            Breach::HeldTap { direction } => write!(
                f,
                "{} held a second frame (a tap profile presses it for one)",
                direction.to_letters()
            ),
            Breach::EntryPress { pressed } => write!(
                f,
                "{} newly pressed in the entry delay before the piece (a tap profile presses \
                 no direction there, a hold profile one)",
                pressed.to_letters()
            ),
            Breach::Reaction { planned, pressed } => write!(
                f,
                "{} pressed before the reaction time where the plan made at the spawn \
                 presses {}",
                pressed.to_letters(),
                planned.to_letters()
            ),
        }
    }
}

/// A breach on frame `piece_frame` of a piece (0 = its first frame under control).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceBreach {
    /// The frame, 0-based (for [`check_entry`], counted from the frame after the lock).
    pub piece_frame: usize,
    /// What the frame did wrong.
    pub breach: Breach,
}

/// Every breach of the timeline, the start delay and the tap/hold rule in one piece, in
/// frame order (the reaction is checked apart: it needs the plan).
pub fn check_piece(profile: &Profile, piece: &PieceRecord<'_>) -> Vec<PieceBreach> {
    let mut out = Vec::new();
    let mut held = piece.prev;
    let mut directions = PadState::NONE;
    // Under `adjust = "restart"` the frames from the reaction on tap on the restarted table.
    let from = profile.adjust_from_inputs(piece.inputs, piece.prev);
    for (i, &pad) in piece.inputs.iter().enumerate() {
        let mut breach = |breach| {
            out.push(PieceBreach {
                piece_frame: i,
                breach,
            })
        };
        let new = pad.newly_from(held);
        let timed = PadState(new.bits() & TIMED.bits());
        if timed != PadState::NONE && !profile.timeline.allows_from(i as u32, from) {
            breach(Breach::OffTimeline { pressed: timed });
        }
        // Down too: the start delay is a reaction time, and Down ends the first-piece delay.
        let early = PadState(new.bits() & (TIMED.bits() | PadState::DOWN.bits()));
        if piece.first_of_game && i < usize::from(profile.start_delay) && early != PadState::NONE {
            breach(Breach::BeforeStartDelay { pressed: early });
        }
        let new_directions = PadState(new.bits() & DIRECTIONS.bits());
        match profile.shift {
            Shift::Hold => {
                let again = PadState(new_directions.bits() & directions.bits());
                if again != PadState::NONE {
                    breach(Breach::PressedAgain { direction: again });
                }
            }
            Shift::Tap => {
                // Held from a frame of this piece (a direction held over from before the
                // piece was not pressed in it, and a tap profile never holds one on purpose).
                let kept = PadState(pad.bits() & held.bits() & DIRECTIONS.bits());
                if kept != PadState::NONE && i > 0 {
                    breach(Breach::HeldTap { direction: kept });
                }
            }
            Shift::Both => {}
        }
        directions = directions.union(new_directions);
        held = pad;
    }
    out
}

/// The entry delay as played: `prev` held in the lock frame, `inputs` the pads of the frames
/// after it up to the spawn frame. The first breach of the entry rule ([`Breach::EntryPress`]),
/// `piece_frame` counting the entry delay's frames from 0.
pub fn check_entry(profile: &Profile, prev: PadState, inputs: &[PadState]) -> Option<PieceBreach> {
    let mut held = prev;
    let mut pressed = 0;
    for (i, &pad) in inputs.iter().enumerate() {
        let new = PadState(pad.newly_from(held).bits() & DIRECTIONS.bits());
        held = pad;
        if new == PadState::NONE {
            continue;
        }
        pressed += new.bits().count_ones();
        if profile.shift == Shift::Tap || pressed > 1 {
            return Some(PieceBreach {
                piece_frame: i,
                breach: Breach::EntryPress { pressed: new },
            });
        }
    }
    None
}

/// The first of the piece's first `reaction` frames where it did not press what `planned`
/// (the plan made at its spawn) presses; Start is never part of a plan's press.
pub fn check_reaction(
    profile: &Profile,
    inputs: &[PadState],
    planned: &[PadState],
) -> Option<PieceBreach> {
    let n = usize::from(profile.reaction).min(inputs.len());
    (0..n).find_map(|i| {
        let want = planned.get(i).copied().unwrap_or(PadState::NONE);
        let pressed = inputs[i].without(PadState::START);
        (pressed != want.without(PadState::START)).then_some(PieceBreach {
            piece_frame: i,
            breach: Breach::Reaction {
                planned: want,
                pressed,
            },
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: PadState = PadState::LEFT;
    const R: PadState = PadState::RIGHT;
    const A: PadState = PadState::A;
    const D: PadState = PadState::DOWN;
    const O: PadState = PadState::NONE;

    fn preset(name: &str) -> Profile {
        Profile::preset(name).unwrap()
    }

    fn check(profile: &str, first: bool, inputs: &[PadState]) -> Vec<(usize, Breach)> {
        let record = PieceRecord {
            first_of_game: first,
            prev: O,
            inputs,
        };
        check_piece(&preset(profile), &record)
            .into_iter()
            .map(|b| (b.piece_frame, b.breach))
            .collect()
    }

    #[test]
    fn presses_off_the_timeline_are_found_and_down_is_free() {
        // 15 Hz: new presses on frames 0, 4, 8, ...
        let ok = [L, O, O, O, A, D, D, D, R.union(A), O];
        assert_eq!(check("15hz", false, &ok), vec![]);
        let early = [L, O, O, R, O];
        assert_eq!(
            check("15hz", false, &early),
            vec![(3, Breach::OffTimeline { pressed: R })]
        );
        // Unlimited: a Left, then an A the next frame, then the Left again.
        assert_eq!(check("unlimited", false, &[L, A, L, O, L]), vec![]);
        // 30 Hz: that A on an odd frame is off the timeline.
        assert_eq!(
            check("30hz", false, &[L, A, L]),
            vec![(1, Breach::OffTimeline { pressed: A })]
        );
    }

    #[test]
    fn after_the_reaction_a_restart_profile_taps_on_the_restarted_table() {
        use crate::movegen::profile::Adjust;
        let mut p = preset("15hz");
        p.reaction = 18;
        let checked = |p: &Profile, inputs: &[PadState]| {
            let record = PieceRecord {
                first_of_game: false,
                prev: O,
                inputs,
            };
            let b = check_piece(p, &record);
            b.iter().map(|b| b.piece_frame).collect::<Vec<_>>()
        };
        // Two taps (0, 4) before the reaction, then taps on 18 and 22.
        let mut inputs = [O; 30];
        for f in [0, 4, 18, 22] {
            inputs[f] = R;
        }
        assert_eq!(checked(&p, &inputs), [18, 22], "the spawn's table: 20, 24");
        p.adjust = Adjust::Restart;
        assert_eq!(checked(&p, &inputs), Vec::<usize>::new());
        // Five taps (0 to 16): the restart waits for the table's sixth slot, 20.
        for f in [8, 12, 16] {
            inputs[f] = R;
        }
        assert_eq!(checked(&p, &inputs), [18, 22]);
        let mut late = inputs;
        (late[18], late[22], late[20], late[24]) = (O, O, R, R);
        assert_eq!(checked(&p, &late), Vec::<usize>::new());
    }

    #[test]
    fn the_start_delay_holds_only_on_the_first_piece() {
        let inputs = [O, O, L, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, R];
        let b = check("human", true, &inputs);
        assert_eq!(b, vec![(2, Breach::BeforeStartDelay { pressed: L })]);
        assert_eq!(check("human", false, &inputs), vec![]);
        // Down (which ends the first-piece delay) waits for the start delay too.
        assert_eq!(
            check("human", true, &[D, O, O]),
            vec![(0, Breach::BeforeStartDelay { pressed: D })]
        );
    }

    #[test]
    fn hold_presses_each_direction_once_and_tap_never_holds() {
        let hold = [L, L, L, L, O, O, R, R, O];
        assert_eq!(check("das", false, &hold), vec![]);
        assert_eq!(
            check("das", false, &[L, L, O, O, L]),
            vec![(4, Breach::PressedAgain { direction: L })]
        );
        assert_eq!(
            check("30hz", false, &[L, L, O]),
            vec![(1, Breach::HeldTap { direction: L })]
        );
        // A direction held over from before the piece is not a tap held.
        let record = PieceRecord {
            first_of_game: false,
            prev: L,
            inputs: &[L, O, R],
        };
        assert_eq!(check_piece(&preset("30hz"), &record), vec![]);
    }

    #[test]
    fn the_entry_delay_carries_one_held_direction_under_holds_and_none_under_taps() {
        let das = preset("das");
        let tap = preset("30hz");
        // Held from the lock into the next piece: no new press at all.
        assert_eq!(check_entry(&das, R, &[R; 12]), None);
        assert_eq!(check_entry(&tap, O, &[O; 12]), None);
        // Released, then the other direction pressed and held to the spawn: one press.
        let mut switch = [O; 12];
        switch[4..].fill(L);
        assert_eq!(check_entry(&das, R, &switch), None);
        let breach = |i, pressed| {
            Some(PieceBreach {
                piece_frame: i,
                breach: Breach::EntryPress { pressed },
            })
        };
        assert_eq!(check_entry(&tap, R, &switch), breach(4, L));
        // Two presses (again, or both ways) are more than a carried charge needs.
        let mut twice = switch;
        twice[8] = O;
        assert_eq!(check_entry(&das, O, &twice), breach(9, L));
        let both = [L, O, R];
        assert_eq!(check_entry(&das, O, &both), breach(2, R));
        // A and B do nothing in the entry delay and are not counted.
        assert_eq!(check_entry(&tap, O, &[A, O, A]), None);
    }

    #[test]
    fn the_reaction_frames_must_be_the_plan_made_at_the_spawn() {
        let human = preset("human");
        let plan = [O, L, O, L, O, O];
        assert_eq!(check_reaction(&human, &plan, &plan), None);
        // After frame 18 anything goes; before it, the first difference is reported.
        let mut played = vec![O; 30];
        played[1] = L;
        played[3] = L;
        played[20] = R;
        assert_eq!(check_reaction(&human, &played, &plan), None);
        played[7] = A;
        assert_eq!(
            check_reaction(&human, &played, &plan),
            Some(PieceBreach {
                piece_frame: 7,
                breach: Breach::Reaction {
                    planned: O,
                    pressed: A
                }
            })
        );
        assert_eq!(check_reaction(&preset("30hz"), &played, &plan), None);
    }
}
