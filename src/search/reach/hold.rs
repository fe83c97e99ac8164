//! `Reach::search_hold`: the lock set of a piece under a profile that holds directions (DAS),
//! as one bit set of positions per class of held buttons, DAS counter and pressed directions.

// Without soft drop every state of frame t shares its row and fall timer (as in `Reach`), and
// the rest of the profiled search's key (`bfs/profiled.rs`) is: the buttons held (a direction
// none/Left/Right × A/B none/A/B, the nine `INPUTS`), the DAS counter when a direction is held
// (with none held the next shift is a new press, which resets it, so it is not kept: no path
// is kept either, and so no charge for a next piece), and under `Shift::Hold` the directions
// already pressed. The timeline's phase is the frame's. One class is then a `u64` of
// (orientation lane, column) bits, and a frame moves each class by each input the profile's
// `Rules` allow: the shift splits it into the columns that move and those blocked (the counter
// parks at 16), the turn and gravity are `Reach::frame`'s. A class holding A or B is dropped
// where the same class holding neither has the position: it allows every press the other does,
// with the same result (the tap-set rule of `Bfs::dominated`).

use crate::game::active::{Active, DAS_DELAY, DAS_RESET};
use crate::game::board::{Board, BOARD_ROWS};
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::score::minus;
use crate::search::bfs::Rules;
use crate::search::profile::Shift;

use super::{turn_a, turn_b, Reach, INPUTS, LANES, ROWS};

/// Counter values 0..=16 a class keeps.
const DAS_VALUES: usize = DAS_RESET as usize + 1;
/// Classes: held input (the nine `INPUTS`) × DAS counter × directions pressed.
const CLASSES: usize = INPUTS.len() * DAS_VALUES * 4;

/// The class of a position: `input` its index in `INPUTS`.
#[inline(always)]
fn class(input: usize, das: u8, pressed: u8) -> usize {
    let das = if INPUTS[input] & 0x03 != 0 {
        das as usize
    } else {
        0
    };
    (input * DAS_VALUES + das) * 4 + pressed as usize
}

/// Reusable per-class sets of one frame and the next, with the lists of classes in use.
pub(crate) struct HoldSets {
    cur: Vec<u64>,
    next: Vec<u64>,
    live: Vec<u16>,
    born: Vec<u16>,
}

impl Default for HoldSets {
    fn default() -> Self {
        HoldSets {
            cur: vec![0; CLASSES],
            next: vec![0; CLASSES],
            live: Vec::with_capacity(CLASSES),
            born: Vec::with_capacity(CLASSES),
        }
    }
}

impl HoldSets {
    #[inline(always)]
    fn add(&mut self, k: usize, m: u64) {
        if m != 0 {
            if self.next[k] == 0 {
                self.born.push(k as u16);
            }
            self.next[k] |= m;
        }
    }
}

impl Reach {
    /// Every lock reachable from `start` (settled, DAS counter `start.das`) under `rules`, a
    /// profile that holds directions, from each of `roots` (the buttons held in the frame
    /// before the start: one, or the three entry holds of `Bfs::search_entry`). The same set
    /// as the profiled `Bfs` from those roots (tested below); each lock's `frames` is its first
    /// arrival. `None` for a start this search does not model (soft drop or the first-piece
    /// delay active, off the field, a fall timer past the gravity test, a counter past 16).
    pub(crate) fn search_hold(
        &mut self,
        board: &Board,
        start: Active,
        roots: &[PadState],
        speed: u8,
        rules: Rules,
    ) -> Option<&[ReachLock]> {
        let speed = speed.max(1);
        if !rules.shift.holds()
            || roots.is_empty()
            || roots.len() > 3
            || start.ary != 0
            || start.x >= 10
            || start.y as usize >= BOARD_ROWS
            || start.fall_timer >= speed
            || start.das > DAS_RESET
            || Orientation::new(start.id).is_none()
        {
            return None;
        }
        self.build(board, start.id);
        self.locks.clear();
        let mut held = [0usize; 3];
        for (h, prev) in held.iter_mut().zip(roots) {
            *h = INPUTS.iter().position(|&c| c == prev.0)?;
        }
        let pressed = if rules.shift == Shift::Hold {
            rules.pressed
        } else {
            0
        };
        let mut sets = std::mem::take(&mut self.hold);
        for &h in held.iter().take(roots.len()) {
            sets.add(class(h, start.das, pressed), 1u64 << start.x);
        }
        match self.turns {
            4 => self.run_hold::<4>(&mut sets, start, speed, &rules),
            2 => self.run_hold::<2>(&mut sets, start, speed, &rules),
            _ => self.run_hold::<1>(&mut sets, start, speed, &rules),
        }
        self.hold = sets;
        Some(&self.locks)
    }

    fn run_hold<const TURNS: usize>(
        &mut self,
        sets: &mut HoldSets,
        start: Active,
        speed: u8,
        rules: &Rules,
    ) {
        let (mut y, mut fall) = (start.y as usize, start.fall_timer);
        let hold_once = rules.shift == Shift::Hold;
        let mut seen = [0u64; ROWS];
        let mut frames: u16 = 0;
        loop {
            // The sets just built become this frame's.
            std::mem::swap(&mut sets.cur, &mut sets.next);
            std::mem::swap(&mut sets.live, &mut sets.born);
            sets.born.clear();
            if sets.live.is_empty() {
                break;
            }
            prune_tapped(sets);
            let frame = rules.offset + u32::from(frames);
            fall = fall.wrapping_add(1);
            frames += 1;
            let gravity = !minus(fall, speed);
            let fit = self.fit[y];
            let below = self.fit[(y + 1).min(ROWS - 1)];
            let mut locked = 0u64;
            for l in 0..sets.live.len() {
                let k = sets.live[l] as usize;
                let m = std::mem::take(&mut sets.cur[k]);
                if m == 0 {
                    continue;
                }
                let pressed = (k % 4) as u8;
                let das = ((k / 4) % DAS_VALUES) as u8;
                let prev = PadState(INPUTS[k / 4 / DAS_VALUES]);
                for (c, &input) in INPUTS.iter().enumerate() {
                    let held = PadState(input);
                    if !rules.allows(held, prev, frame, pressed) {
                        continue;
                    }
                    let newly = input & !prev.0;
                    let pressed = if hold_once {
                        pressed | (newly & 0x03)
                    } else {
                        0
                    };
                    // `Active::shift`: a new press resets the counter and moves; a held
                    // direction counts to 16, then moves and restarts at 10; a blocked move
                    // parks the counter at 16.
                    let (tries, das) = if newly & 0x03 != 0 {
                        (true, 0)
                    } else if input & 0x03 == 0 {
                        (false, das)
                    } else if minus(das.wrapping_add(1), DAS_RESET) {
                        (false, das + 1)
                    } else {
                        (true, DAS_DELAY)
                    };
                    let parts = if !tries {
                        [(m, das), (0, 0)]
                    } else if input & 0x01 != 0 {
                        [((m << 1) & fit, das), (m & !(fit >> 1), DAS_RESET)]
                    } else {
                        [((m >> 1) & fit, das), (m & !(fit << 1), DAS_RESET)]
                    };
                    for (mut p, das) in parts {
                        if p == 0 {
                            continue;
                        }
                        if input & 0x80 != 0 {
                            p = (turn_a::<TURNS>(p) & fit) | (p & !turn_b::<TURNS>(fit));
                        } else if input & 0x40 != 0 {
                            p = (turn_b::<TURNS>(p) & fit) | (p & !turn_a::<TURNS>(fit));
                        }
                        p &= LANES;
                        if gravity {
                            locked |= p & !below;
                            p &= below;
                        }
                        sets.add(class(c, das, pressed), p);
                    }
                }
            }
            locked &= !seen[y];
            if locked != 0 {
                seen[y] |= locked;
                self.push_locks(locked, y, frames);
            }
            if gravity {
                fall = 0;
                y += 1;
            }
        }
        for &k in &sets.live {
            sets.cur[k as usize] = 0;
        }
        sets.live.clear();
    }
}

/// Drops from each class holding A or B the positions the same class holding neither has.
#[inline(always)]
fn prune_tapped(sets: &mut HoldSets) {
    const STRIDE: usize = DAS_VALUES * 4;
    for &k in &sets.live {
        let k = k as usize;
        let input = k / STRIDE;
        if INPUTS[input] & 0xC0 == 0 {
            continue;
        }
        // The input without its A or B: none, Left or Right (indices 0, 1, 2).
        let plain = match INPUTS[input] & 0x03 {
            0x02 => 1,
            0x01 => 2,
            _ => 0,
        };
        let twin = plain * STRIDE + k % STRIDE;
        sets.cur[k] &= !sets.cur[twin];
    }
}

use super::ReachLock;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::game::piece::Piece;
    use crate::game::score::drop_speed;
    use crate::search::bfs::{Bfs, MoveSet, ENTRY_ROOTS};
    use crate::search::collision::CollisionMap;
    use crate::search::profile::{PieceProgress, Profile};

    const BOARDS: [&str; 2] = [
        "..........\n..........\n..........\n..........\n..........\n\
         ..........\n..........\n..........\n..........\n..........\n\
         ..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
         #########.\n####.####.\n#########.\n#########.\n#########.",
        "..........\n..........\n..###.....\n..#.#.....\n..........\n\
         ......#...\n#.....##..\n##.#..##.#\n##.##.##.#\n####..####\n\
         #.##.####.\n####.####.\n##.#######\n####.####.\n#.#######.\n\
         ####.####.\n###.#####.\n#########.\n##.######.\n#########.",
    ];

    type Locks = BTreeSet<(u8, u8, u8)>;

    fn profiles() -> Vec<Profile> {
        let both = "timeline = \"X..\"\nshift = \"both\"\nreaction = 0\nstart_delay = 0\n";
        let slow = "timeline = \"X...\"\nshift = \"hold\"\nreaction = 0\nstart_delay = 0\n";
        vec![
            Profile::preset("das").unwrap(),
            Profile::from_toml(both, "both.toml", "both").unwrap(),
            Profile::from_toml(slow, "slow.toml", "slow").unwrap(),
        ]
    }

    /// The bit sets against the profiled `Bfs` (exact by the completeness test): from the
    /// spawn with each carried counter and each entry hold, one root and the three at once,
    /// on the empty board and two stacks, at three gravities.
    #[test]
    fn the_same_locks_as_the_profiled_bfs_with_carried_charge_and_entry_holds() {
        let mut boards: Vec<Board> = BOARDS
            .iter()
            .map(|t| Board::from_text(t).unwrap())
            .collect();
        boards.push(Board::EMPTY);
        let mut reach = Reach::new();
        let mut bfs = Bfs::new();
        let mut searched = 0;
        for profile in profiles() {
            let rules = Rules::new(&profile, PieceProgress::default());
            for board in &boards {
                for level in [18u8, 19, 29] {
                    let speed = drop_speed(level);
                    for piece in Piece::ALL {
                        let map = CollisionMap::new(board, piece);
                        for das in [0u8, 3, 11, 15, 16] {
                            let start = Active::spawn(piece.spawn().id(), das, 0);
                            let what =
                                format!("{} level {level} {piece:?} das {das}", profile.name);
                            for prev in ENTRY_ROOTS {
                                let want: Locks = bfs
                                    .search_profiled(
                                        start,
                                        prev,
                                        speed,
                                        &map,
                                        MoveSet::default(),
                                        &profile,
                                        PieceProgress::default(),
                                    )
                                    .iter()
                                    .map(|l| (l.x, l.y, l.id))
                                    .collect();
                                let got: Locks = reach
                                    .search_hold(board, start, &[prev], speed, rules)
                                    .expect("a modelled start")
                                    .iter()
                                    .map(|l| (l.x, l.y, l.id))
                                    .collect();
                                assert_eq!(got, want, "{what} {prev}");
                                searched += 1;
                            }
                            let want: Locks = bfs
                                .search_entry(start, speed, &map, MoveSet::default(), &profile)
                                .iter()
                                .map(|l| (l.x, l.y, l.id))
                                .collect();
                            let got: Locks = reach
                                .search_hold(board, start, &ENTRY_ROOTS, speed, rules)
                                .expect("a modelled start")
                                .iter()
                                .map(|l| (l.x, l.y, l.id))
                                .collect();
                            assert_eq!(got, want, "{what} entry");
                        }
                    }
                }
            }
        }
        assert!(searched > 1000, "{searched}");
    }

    #[test]
    fn declines_what_it_does_not_model() {
        let mut reach = Reach::new();
        let das = Profile::preset("das").unwrap();
        let rules = Rules::new(&das, PieceProgress::default());
        let mut a = Active::spawn(Piece::T.spawn().id(), 0, 0);
        assert!(reach
            .search_hold(&Board::EMPTY, a, &[PadState::NONE], 2, rules)
            .is_some());
        a.das = 17;
        assert!(reach
            .search_hold(&Board::EMPTY, a, &[PadState::NONE], 2, rules)
            .is_none());
        let taps = Profile::preset("30hz").unwrap();
        let a = Active::spawn(Piece::T.spawn().id(), 0, 0);
        let rules = Rules::new(&taps, PieceProgress::default());
        assert!(reach
            .search_hold(&Board::EMPTY, a, &[PadState::NONE], 2, rules)
            .is_none());
    }
}
