//! Where a piece is: column, row and orientation id, as the cartridge keeps them in RAM
//! ($40, $41, $42). One type for the planner's expected path, lock events and desync reports.

use super::active::Active;
use super::piece::Orientation;

/// A piece's place: `x` and `y` of its pivot (row −2..19 as `Active` counts it) and its
/// orientation id (0..18, or $13 when no piece is shown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Pivot column ($40).
    pub x: u8,
    /// Pivot row ($41): row −2..19 as a wrapping `u8`.
    pub y: u8,
    /// The orientation id ($42), not a rotation count: it names the piece too.
    pub id: u8,
}

impl Pos {
    /// The place with pivot (x, y) and orientation id `id`.
    pub const fn new(x: u8, y: u8, id: u8) -> Pos {
        Pos { x, y, id }
    }

    /// Where `a` is.
    pub const fn of(a: &Active) -> Pos {
        Pos::new(a.x, a.y, a.id)
    }

    /// The orientation, `None` for an id that names none (no piece shown).
    pub fn orientation(self) -> Option<Orientation> {
        Orientation::new(self.id)
    }
}

impl From<(u8, u8, u8)> for Pos {
    fn from((x, y, id): (u8, u8, u8)) -> Pos {
        Pos::new(x, y, id)
    }
}

impl From<Pos> for (u8, u8, u8) {
    fn from(p: Pos) -> (u8, u8, u8) {
        (p.x, p.y, p.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_an_active_piece_and_back_to_a_tuple() {
        let a = Active::spawn(2, 0, 0);
        let p = Pos::of(&a);
        assert_eq!((p.x, p.y, p.id), (a.x, a.y, 2));
        assert_eq!(<(u8, u8, u8)>::from(p), (a.x, a.y, 2));
        assert_eq!(Pos::from((3, 4, 5)), Pos::new(3, 4, 5));
        assert_eq!(p.orientation().map(|o| o.id()), Some(2));
        assert_eq!(Pos::new(0, 0, 0x13).orientation(), None);
    }
}
