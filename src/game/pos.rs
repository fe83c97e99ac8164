//! Where a piece is: pivot column, row and orientation, as the cartridge keeps them in RAM
//! ($40, $41, $42). The one place type, from the rules model through move generation up.

use super::active::Active;
use super::piece::Orientation;

/// A piece's place: `x` and `y` of its pivot (row −2..19 as `Active` counts it) and its
/// orientation. "No piece shown" ($13 in RAM) is no place: `Option<Pos>` where it can happen.
///
/// The derived order is (x, y, orientation), the orientation ordering by id: sorts, dedups
/// and maps keyed by places rely on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Pivot column ($40), 0-based.
    pub x: u8,
    /// Pivot row ($41): row −2..19 as a wrapping `u8` (0 = top visible row; 254 and 255 are
    /// the hidden rows −2 and −1).
    pub y: u8,
    /// The orientation ($42): it names the piece too.
    pub orientation: Orientation,
}

impl Pos {
    /// The place with pivot (x, y) in `orientation`.
    #[inline]
    pub const fn new(x: u8, y: u8, orientation: Orientation) -> Pos {
        Pos { x, y, orientation }
    }

    /// The place RAM's bytes name: `None` when `id` is no orientation ($13: no piece shown).
    #[inline]
    pub const fn from_ram(x: u8, y: u8, id: u8) -> Option<Pos> {
        match Orientation::new(id) {
            Some(o) => Some(Pos::new(x, y, o)),
            None => None,
        }
    }

    /// Where `a` is; `None` while it is hidden.
    #[inline]
    pub const fn of(a: &Active) -> Option<Pos> {
        Pos::from_ram(a.x, a.y, a.id)
    }

    /// Where `a` is, for a piece the planner moves: it starts in a real orientation and
    /// rotating keeps it in one (checked in debug builds only: the searches' hot paths).
    #[inline(always)]
    pub(crate) const fn of_searched(a: &Active) -> Pos {
        Pos::new(a.x, a.y, Orientation::of_searched(a.id))
    }

    /// The orientation id ($00-$12) as RAM holds it.
    #[inline]
    pub const fn id(self) -> u8 {
        self.orientation.id()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_an_active_piece_and_of_a_hidden_one() {
        let a = Active::spawn(2, 0, 0);
        let p = Pos::of(&a).expect("a spawned piece is shown");
        assert_eq!((p.x, p.y, p.id()), (a.x, a.y, 2));
        assert_eq!(
            Pos::from_ram(3, 4, 5),
            Orientation::new(5).map(|o| Pos::new(3, 4, o))
        );
        assert_eq!(Pos::from_ram(0, 0, 0x13), None);
        assert_eq!(Pos::of(&Active::spawn(0x13, 0, 0)), None);
    }

    #[test]
    fn orders_as_x_then_y_then_the_raw_id() {
        let raw = [(1, 2, 5), (1, 2, 3), (0, 9, 18), (1, 0, 0), (0, 9, 0)];
        let mut places: Vec<Pos> = raw
            .iter()
            .map(|&(x, y, id)| Pos::from_ram(x, y, id).expect("real ids"))
            .collect();
        places.sort();
        let mut want = raw.to_vec();
        want.sort();
        let got: Vec<_> = places.iter().map(|p| (p.x, p.y, p.id())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn as_small_as_the_three_ram_bytes() {
        assert_eq!(std::mem::size_of::<Pos>(), 3);
        assert_eq!(std::mem::size_of::<Option<Pos>>(), 4);
    }
}
