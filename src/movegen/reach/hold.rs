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
use crate::movegen::profile::{Rules, Shift};

use super::hold_sets::{class, HoldSets, Open, OpenFrame, OpenKey, CLASSES, DAS_VALUES, OPEN_KEYS};
use super::lanes::{shift, turn_and_drop, INPUTS, ROWS};
use super::lock::ReachLock;
use super::state::Reach;

impl Reach {
    /// Every lock reachable from `start` (settled, DAS counter `start.das`) under `rules`, a
    /// profile that holds directions, from each of `roots` (the buttons held in the frame
    /// before the start: one, or the three entry holds of `Bfs::search_query`'s entry queries). The same set
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
        let mut held = [0u8; 3];
        for (h, prev) in held.iter_mut().zip(roots) {
            if !INPUTS.contains(&prev.0) {
                return None;
            }
            *h = prev.0;
        }
        let key = OpenKey {
            start,
            roots: held,
            n: roots.len() as u8,
            speed,
            rules,
        };
        let mut sets = std::mem::take(&mut self.hold);
        if sets.cur.len() != CLASSES {
            sets.cur = vec![0; CLASSES];
            sets.next = vec![0; CLASSES];
            sets.live.reserve(CLASSES);
            sets.born.reserve(CLASSES);
        }
        // The frames on the empty board, searched once per key and kept.
        let e = match sets.open.position(|o| o.key == Some(key)) {
            Some(e) => e,
            None => {
                let mut open = sets.open.take_oldest(OPEN_KEYS);
                open.key = Some(key);
                open.frames.clear();
                open.sets.clear();
                self.build(&Board::EMPTY, start.id);
                open.fit = self.fit;
                self.locks.clear();
                sets.seed(&key);
                self.run_turns_hold(&mut sets, &key, start, 0, Some(&mut open));
                sets.open.keep(open, OPEN_KEYS)
            }
        };
        self.build(board, start.id);
        self.locks.clear();
        // Frames at row y read the masks of rows y and y + 1: those above the first row where
        // the board differs from the empty board are the empty board's.
        let open = &sets.open[e];
        let same = (0..ROWS)
            .find(|&y| self.fit[y] != open.fit[y])
            .unwrap_or(ROWS);
        let mut from = start;
        match open
            .frames
            .iter()
            .rposition(|f| usize::from(f.y) + 1 < same)
        {
            Some(i) => {
                let f = open.frames[i];
                for j in f.at as usize..f.end as usize {
                    let (k, m) = sets.open[e].sets[j];
                    sets.add(usize::from(k), m);
                }
                (from.y, from.fall_timer) = (f.y, f.fall);
                self.run_turns_hold(&mut sets, &key, from, f.frames, None);
            }
            None => {
                sets.seed(&key);
                self.run_turns_hold(&mut sets, &key, from, 0, None);
            }
        }
        self.hold = sets;
        Some(&self.locks)
    }

    fn run_turns_hold(
        &mut self,
        sets: &mut HoldSets,
        key: &OpenKey,
        from: Active,
        frames: u16,
        record: Option<&mut Open>,
    ) {
        match self.turns {
            4 => self.run_hold::<4>(sets, key, from, frames, record),
            2 => self.run_hold::<2>(sets, key, from, frames, record),
            _ => self.run_hold::<1>(sets, key, from, frames, record),
        }
    }

    /// The frames from `from` (its row and fall timer), `frames` into the search, the sets
    /// before the frame in `sets.next`; with `record`, keeps those sets before each frame
    /// until something locks.
    fn run_hold<const TURNS: usize>(
        &mut self,
        sets: &mut HoldSets,
        key: &OpenKey,
        from: Active,
        mut frames: u16,
        mut record: Option<&mut Open>,
    ) {
        let (speed, rules) = (key.speed, &key.rules);
        let (mut y, mut fall) = (from.y as usize, from.fall_timer);
        let hold_once = rules.shift == Shift::Hold;
        let mut seen = [0u64; ROWS];
        loop {
            if let Some(open) = record.as_deref_mut().filter(|_| self.locks.is_empty()) {
                let at = open.sets.len() as u32;
                open.sets
                    .extend(sets.born.iter().map(|&k| (k, sets.next[k as usize])));
                open.frames.push(OpenFrame {
                    y: y as u8,
                    fall,
                    frames,
                    at,
                    end: open.sets.len() as u32,
                });
            }
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
                    let (moved, blocked) = if tries { shift(m, input, fit) } else { (m, 0) };
                    for (p, das) in [(moved, das), (blocked, DAS_RESET)] {
                        if p == 0 {
                            continue;
                        }
                        let p = turn_and_drop::<TURNS>(p, input, fit, below, gravity, &mut locked);
                        sets.add(class(c, das, pressed), p);
                    }
                }
            }
            self.push_new_locks(&mut seen[y], locked, y, frames);
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::game::piece::Piece;
    use crate::game::score::drop_speed;
    use crate::movegen::bfs::{Bfs, MoveSet, ENTRY_ROOTS};
    use crate::movegen::collision::CollisionMap;
    use crate::movegen::kernel::LockQuery;
    use crate::movegen::profile::{PieceProgress, Profile};

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
    /// at three gravities, each key on two stacks and the empty board in turn (so the second
    /// and third resume from the kept empty-board frames).
    #[test]
    fn the_same_locks_as_the_profiled_bfs_with_carried_charge_and_entry_holds() {
        let boards = super::super::tests::boards();
        let roots: [&[PadState]; 4] = [
            &[PadState::NONE],
            &[PadState::LEFT],
            &[PadState::RIGHT],
            &ENTRY_ROOTS,
        ];
        let mut reach = Reach::new();
        let mut bfs = Bfs::new();
        let mut searched = 0;
        for profile in profiles() {
            let rules = Rules::new(&profile, PieceProgress::default());
            for level in [18u8, 19, 29] {
                let speed = drop_speed(level);
                for piece in Piece::ALL {
                    for das in [0u8, 3, 11, 15, 16] {
                        let start = Active::spawn(piece.spawn().id(), das, 0);
                        for &root in &roots {
                            for (b, board) in boards.iter().enumerate() {
                                let map = CollisionMap::new(board, piece);
                                let q = LockQuery::spawn(
                                    board,
                                    piece,
                                    speed,
                                    &profile,
                                    MoveSet::default(),
                                );
                                let q = LockQuery {
                                    entry: root.len() > 1,
                                    ..q.at(start, root[0], PieceProgress::default())
                                };
                                let want = bfs.search_query(&q, &map);
                                let want: Locks =
                                    want.iter().map(|l| (l.at.x, l.at.y, l.at.id())).collect();
                                let got: Locks = reach
                                    .search_hold(board, start, root, speed, rules)
                                    .expect("a modelled start")
                                    .iter()
                                    .map(|l| (l.at.x, l.at.y, l.at.id()))
                                    .collect();
                                let what = format!(
                                    "{} level {level} {piece:?} das {das} {root:?} board {b}",
                                    profile.name
                                );
                                assert_eq!(got, want, "{what}");
                                searched += 1;
                            }
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
