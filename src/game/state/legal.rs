//! The third outcome of a dispatch window: the corrupted jump runs the legal screen's tail (its
//! two waits, then `inc gameMode`: the attract demo), played frame by frame.

use super::events::{Events, FrameHint};
use super::game_ram::Game;
use super::legal_wait::LegalWait;
use super::wait::Wait;
use crate::game::crash::CrashKind;
use crate::game::pad::PadState;

impl Game {
    /// True once `inc gameMode` has run (gameMode 5): the attract demo drives the game.
    pub fn in_demo(&self) -> bool {
        self.crashed == Some(CrashKind::Demo)
            && !matches!(self.wait, Wait::Crashing(_) | Wait::LegalScreen(_))
    }

    /// `gameMode` as RAM shows it: 4 in play, 5 in the attract demo.
    pub fn game_mode(&self) -> u8 {
        if self.in_demo() {
            5
        } else {
            4
        }
    }

    /// A frame of a game that fell into the legal screen: the jump's NMI, the two waits, then
    /// (with the demo's next piece in `hint`) the demo's game. `None` when the demo plays on:
    /// the caller runs the frame as in play.
    pub(super) fn step_legal(&mut self, input: PadState, hint: FrameHint) -> Option<Events> {
        let ev = Events::default();
        match self.wait {
            // The NMI that lands in the dispatch, as in a crash; its jump reaches the first wait.
            Wait::Crashing(next) => {
                self.nmi(input);
                if next {
                    self.game_mode_state += 1;
                }
                self.wait = Wait::LegalScreen(LegalWait::entered());
                Some(ev)
            }
            Wait::LegalScreen(w) => {
                self.nmi(input);
                match w.step(self.newly) {
                    Some(w) => self.wait = Wait::LegalScreen(w),
                    None => {
                        // `rts` into the main loop, which runs game-mode states 6-8 (state 8
                        // sets $A7 to 2 and waits).
                        self.wait = Wait::None;
                        self.game_mode_state = 2;
                    }
                }
                Some(ev)
            }
            _ if hint.demo_next.is_none() => Some(ev),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{hand_built_games, logic_of, score_frame, score_frame_hinted};
    use super::*;
    use crate::game::crash;
    use crate::game::state::{Branch, PlayState};

    /// Frames of the tail until `inc gameMode`, from the jump's frame (exclusive), with `press`
    /// on the frames where it returns a button.
    fn tail_frames(press: impl Fn(u32) -> PadState) -> (u32, Vec<LegalWait>) {
        let mut w = LegalWait::entered();
        let mut seen = vec![w];
        for n in 1.. {
            match w.step(press(n)) {
                Some(next) => w = next,
                None => return (n, seen),
            }
            seen.push(w);
        }
        unreachable!()
    }

    #[test]
    fn the_tail_waits_three_frames_then_255_asleep_then_255_for_start() {
        let (n, seen) = tail_frames(|_| PadState::NONE);
        // c157-mixed: the jump at t=323, `sleepCounter` 255 at 326, `inc gameMode` at 836.
        assert_eq!(n, 513);
        assert_eq!(seen[3].sleep, 255);
        assert!(seen[..3].iter().all(|w| w.sleep == 0 && w.general == 0));
        for (k, w) in seen[3..3 + 255].iter().enumerate() {
            assert_eq!((w.sleep, w.general), (255 - k as u8, 0), "frame {}", k + 3);
        }
        assert_eq!(seen[258].general, 255);
        assert_eq!(seen[512].general, 1);
        // Any other button, held or pressed, changes nothing.
        assert_eq!(tail_frames(|_| PadState::A).0, 513);
        assert_eq!(
            tail_frames(|n| PadState(if n % 2 == 0 { 0x18 } else { 0 })).0,
            513
        );
    }

    #[test]
    fn start_newly_pressed_ends_the_wait_for_start_not_the_sleep() {
        let start_at = |at: u32| {
            tail_frames(move |n| {
                if n == at {
                    PadState::START
                } else {
                    PadState::NONE
                }
            })
            .0
        };
        // Before the wait for Start (the lead and the sleep) Start is not read.
        assert_eq!(start_at(2), 513);
        assert_eq!(start_at(257), 513);
        // The check right after the sleep returns, and every one after a wait.
        assert_eq!(start_at(258), 258);
        assert_eq!(start_at(300), 300);
        assert_eq!(start_at(512), 512);
        // On the last frame the counter reaches 0 first.
        assert_eq!(start_at(513), 513);
    }

    /// A hand-built state in dispatch window `k`, if one exists.
    fn in_dispatch(k: u8) -> Option<Game> {
        hand_built_games().find(|g| {
            let l = logic_of(&score_frame(g.clone()).0);
            crash::window(l) == Some(crash::Window::Switch(k))
        })
    }

    #[test]
    fn the_legal_screen_branch_waits_514_frames_then_the_demo_plays_only_with_its_pieces() {
        let legal = FrameHint {
            branch: Branch::LegalScreen,
            ..FrameHint::default()
        };
        let mut windows = 0;
        for k in 0..8u8 {
            let Some(g) = in_dispatch(k) else { continue };
            windows += 1;
            let (_, _, model) = score_frame_hinted(g.clone(), FrameHint::default());
            let (ev, next, mut after) = score_frame_hinted(g, legal);
            assert!(ev.may_crash && ev.lag, "dispatch {k}");
            assert_eq!(ev.crashed, Some(CrashKind::Demo), "dispatch {k}");
            assert!(after.is_over() && !next.logic);
            // The jump's frame: its NMI ran and shows the state a crash shows.
            assert_eq!(after.frame_counter, model.frame_counter);
            assert!(matches!(after.wait, Wait::LegalScreen(_)));
            assert_eq!(after.game_mode(), 4);
            let (play_state, field, fall) = (
                after.play_state,
                after.field.clone(),
                after.active.fall_timer,
            );
            // The jump's frame is the first of the 514 after the crash frame (c157-mixed: 323
            // to 836).
            let mut frames = 1;
            while !after.in_demo() {
                let fc = after.frame_counter;
                let ev = after.step(PadState::RIGHT);
                assert!(!ev.logic && ev.crashed.is_none());
                assert_eq!(after.frame_counter, fc.wrapping_add(1));
                assert_eq!(
                    (after.play_state, after.active.fall_timer),
                    (play_state, fall)
                );
                frames += 1;
            }
            assert_eq!(frames, 514, "dispatch {k}");
            assert_eq!((after.game_mode(), after.game_mode_state), (5, 2));
            assert_eq!(after.field, field);
            // Without the demo's pieces the model stops there.
            let frozen = after.clone();
            after.step(PadState::A);
            assert_eq!(after, frozen);
            // With them the demo's game runs on: the next spawn takes the trace's piece and
            // leaves the picker alone.
            let picker = after.picker;
            let demo = FrameHint {
                demo_next: Some(0x12),
                ..FrameHint::default()
            };
            let mut spawned = false;
            for _ in 0..20 {
                let ev = after.step_with(PadState::NONE, demo);
                assert!(ev.logic || ev.lag);
                if ev.spawned {
                    spawned = true;
                    break;
                }
            }
            if play_state != PlayState::Curtain {
                assert!(spawned, "dispatch {k}: {:?}", after.play_state);
                assert_eq!(after.next, 0x12);
                assert_eq!(
                    (after.picker.spawn_id, after.picker.spawn_count),
                    (picker.spawn_id, picker.spawn_count)
                );
            }
            assert_eq!(after.crashed, Some(CrashKind::Demo));
        }
        assert!(
            windows >= 6,
            "{windows} dispatch windows with a hand-built state"
        );
        // Outside a dispatch window the branch is the model's: a confetti or gap frame plays on.
        let gap = hand_built_games()
            .find(|g| (30_097..=30_126).contains(&logic_of(&score_frame(g.clone()).0)))
            .expect("a state in a gap");
        let (ev, _, after) = score_frame_hinted(gap, legal);
        assert!(ev.lag && ev.crashed.is_none() && !after.is_over());
    }
}
