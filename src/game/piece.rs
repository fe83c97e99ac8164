//! The seven tetriminoes and the cartridge's 19 orientation ids (nes-tetris.md §3):
//! cell offsets, A/B rotation successors, spawn orientations and block tiles, as const tables.

/// A piece type, in the cartridge's type order (statistics and picker table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// T, spawn id $02.
    T = 0,
    /// J, spawn id $07.
    J = 1,
    /// Z, spawn id $08.
    Z = 2,
    /// O, spawn id $0A.
    O = 3,
    /// S, spawn id $0B.
    S = 4,
    /// L, spawn id $0E.
    L = 5,
    /// I, spawn id $12.
    I = 6,
}

impl Piece {
    /// Number of piece types.
    pub const NUM: usize = 7;
    /// Every piece, in type order.
    pub const ALL: [Piece; 7] = [
        Piece::T,
        Piece::J,
        Piece::Z,
        Piece::O,
        Piece::S,
        Piece::L,
        Piece::I,
    ];

    /// Position in type order (0 = T … 6 = I): the index of statistics and tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The orientation the piece spawns in (and that `nextPiece` $BF holds).
    #[inline]
    pub const fn spawn(self) -> Orientation {
        Orientation(SPAWN_IDS[self as usize])
    }

    /// The piece's letter (`T`, `J`, …).
    pub const fn letter(self) -> char {
        ['T', 'J', 'Z', 'O', 'S', 'L', 'I'][self as usize]
    }

    /// The piece whose spawn orientation id is `id`, if `id` is one.
    pub fn from_spawn_id(id: u8) -> Option<Piece> {
        SPAWN_IDS
            .iter()
            .position(|&s| s == id)
            .map(|i| Piece::ALL[i])
    }
}

/// Spawn-orientation ids in type order: the picker's `spawnTable`.
pub const SPAWN_IDS: [u8; 7] = [0x02, 0x07, 0x08, 0x0A, 0x0B, 0x0E, 0x12];

/// `currentPiece` value meaning "no piece shown" (line clear, curtain).
pub const HIDDEN_ID: u8 = 0x13;

/// One of the 19 orientation ids $00-$12; orders by id. The default is $00 (T up), a filler
/// for tables sized before their piece is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orientation(u8);

impl Orientation {
    /// Number of orientation ids ($00-$12).
    pub const NUM: usize = 19;

    /// The orientation with id `id`, if it is one of $00-$12.
    #[inline]
    pub const fn new(id: u8) -> Option<Orientation> {
        if (id as usize) < Self::NUM {
            Some(Orientation(id))
        } else {
            None
        }
    }

    /// The orientation of a searched piece's id, which the search keeps real: checked in debug
    /// builds only, since the lock searches build millions of places a second.
    #[inline(always)]
    pub(crate) const fn of_searched(id: u8) -> Orientation {
        debug_assert!(
            (id as usize) < Self::NUM,
            "a searched piece has a real orientation"
        );
        Orientation(id)
    }

    /// Every orientation, in id order.
    pub fn all() -> impl Iterator<Item = Orientation> {
        (0..Self::NUM as u8).map(Orientation)
    }

    /// The cartridge's id ($00-$12).
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The piece this orientation belongs to.
    #[inline]
    pub const fn piece(self) -> Piece {
        Piece::ALL[PIECE_OF[self.0 as usize] as usize]
    }

    /// Cells as (dx, dy) from the pivot; dy grows downward.
    #[inline]
    pub const fn cells(self) -> [(i8, i8); 4] {
        CELLS[self.0 as usize]
    }

    /// A (clockwise) successor.
    #[inline]
    pub const fn cw(self) -> Orientation {
        Orientation(ROTATE[self.0 as usize].0)
    }

    /// B (counter-clockwise) successor.
    #[inline]
    pub const fn ccw(self) -> Orientation {
        Orientation(ROTATE[self.0 as usize].1)
    }

    /// The playfield byte this orientation locks as ($7B T/O/I, $7C Z/L, $7D J/S).
    #[inline]
    pub const fn tile(self) -> u8 {
        TILE_OF_PIECE[PIECE_OF[self.0 as usize] as usize]
    }

    /// Smallest and largest dx and dy of the cells.
    pub const fn extent(self) -> (i8, i8, i8, i8) {
        let c = CELLS[self.0 as usize];
        let mut i = 0;
        let (mut x0, mut x1, mut y0, mut y1) = (i8::MAX, i8::MIN, i8::MAX, i8::MIN);
        while i < 4 {
            let (dx, dy) = c[i];
            if dx < x0 {
                x0 = dx;
            }
            if dx > x1 {
                x1 = dx;
            }
            if dy < y0 {
                y0 = dy;
            }
            if dy > y1 {
                y1 = dy;
            }
            i += 1;
        }
        (x0, x1, y0, y1)
    }
}

/// Cell offsets per orientation id; index 19 is the hidden "piece" ($13, four cells on the pivot).
pub const CELLS: [[(i8, i8); 4]; 20] = [
    [(-1, 0), (0, 0), (1, 0), (0, -1)],  // $00 T up
    [(0, -1), (0, 0), (1, 0), (0, 1)],   // $01 T right
    [(-1, 0), (0, 0), (1, 0), (0, 1)],   // $02 T down (spawn)
    [(0, -1), (-1, 0), (0, 0), (0, 1)],  // $03 T left
    [(0, -1), (0, 0), (-1, 1), (0, 1)],  // $04 J left
    [(-1, -1), (-1, 0), (0, 0), (1, 0)], // $05 J up
    [(0, -1), (1, -1), (0, 0), (0, 1)],  // $06 J right
    [(-1, 0), (0, 0), (1, 0), (1, 1)],   // $07 J down (spawn)
    [(-1, 0), (0, 0), (0, 1), (1, 1)],   // $08 Z horizontal (spawn)
    [(1, -1), (0, 0), (1, 0), (0, 1)],   // $09 Z vertical
    [(-1, 0), (0, 0), (-1, 1), (0, 1)],  // $0A O (spawn)
    [(0, 0), (1, 0), (-1, 1), (0, 1)],   // $0B S horizontal (spawn)
    [(0, -1), (0, 0), (1, 0), (1, 1)],   // $0C S vertical
    [(0, -1), (0, 0), (0, 1), (1, 1)],   // $0D L right
    [(-1, 0), (0, 0), (1, 0), (-1, 1)],  // $0E L down (spawn)
    [(-1, -1), (0, -1), (0, 0), (0, 1)], // $0F L left
    [(1, -1), (-1, 0), (0, 0), (1, 0)],  // $10 L up
    [(0, -2), (0, -1), (0, 0), (0, 1)],  // $11 I vertical
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],  // $12 I horizontal (spawn)
    [(0, 0), (0, 0), (0, 0), (0, 0)],    // $13 hidden
];

/// (A → id, B → id) per orientation id.
const ROTATE: [(u8, u8); 19] = [
    (0x01, 0x03),
    (0x02, 0x00),
    (0x03, 0x01),
    (0x00, 0x02),
    (0x05, 0x07),
    (0x06, 0x04),
    (0x07, 0x05),
    (0x04, 0x06),
    (0x09, 0x09),
    (0x08, 0x08),
    (0x0A, 0x0A),
    (0x0C, 0x0C),
    (0x0B, 0x0B),
    (0x0E, 0x10),
    (0x0F, 0x0D),
    (0x10, 0x0E),
    (0x0D, 0x0F),
    (0x12, 0x12),
    (0x11, 0x11),
];

/// Piece type index per orientation id.
const PIECE_OF: [u8; 19] = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 4, 5, 5, 5, 5, 6, 6];

/// Block tile per piece type (T, J, Z, O, S, L, I).
const TILE_OF_PIECE: [u8; 7] = [0x7B, 0x7D, 0x7C, 0x7B, 0x7D, 0x7C, 0x7B];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orientation_holds_its_pivot_and_four_distinct_cells() {
        for o in Orientation::all() {
            let c = o.cells();
            assert!(c.contains(&(0, 0)), "{o:?} must contain the pivot");
            for i in 0..4 {
                for j in i + 1..4 {
                    assert_ne!(c[i], c[j], "{o:?}");
                }
            }
        }
    }

    #[test]
    fn rotations_stay_within_the_piece_and_invert() {
        for o in Orientation::all() {
            assert_eq!(o.cw().piece(), o.piece());
            assert_eq!(o.ccw().piece(), o.piece());
            assert_eq!(o.cw().ccw(), o, "B undoes A for {o:?}");
            assert_eq!(o.ccw().cw(), o, "A undoes B for {o:?}");
        }
        // T, J, L cycle through four states; Z, S, I toggle; O stays.
        let t = Piece::T.spawn();
        assert_eq!(t.cw().cw().cw().cw(), t);
        assert_ne!(t.cw().cw(), t);
        assert_eq!(Piece::Z.spawn().cw().cw(), Piece::Z.spawn());
        assert_eq!(Piece::O.spawn().cw(), Piece::O.spawn());
    }

    #[test]
    fn spawn_orientations_occupy_rows_0_and_1_only() {
        for p in Piece::ALL {
            let (_, _, y0, y1) = p.spawn().extent();
            assert!(y0 >= 0 && y1 <= 1, "{p:?}");
            assert_eq!(Piece::from_spawn_id(p.spawn().id()), Some(p));
        }
        assert_eq!(Piece::from_spawn_id(0x00), None);
    }

    /// The orientation table of nes-tetris.md §3.2, copied as text: id, cells, A, B.
    const SPEC_TABLE: &str = "\
$00 | (-1,0) (0,0) (1,0) (0,-1) | $01 | $03
$01 | (0,-1) (0,0) (1,0) (0,1) | $02 | $00
$02 | (-1,0) (0,0) (1,0) (0,1) | $03 | $01
$03 | (0,-1) (-1,0) (0,0) (0,1) | $00 | $02
$04 | (0,-1) (0,0) (-1,1) (0,1) | $05 | $07
$05 | (-1,-1) (-1,0) (0,0) (1,0) | $06 | $04
$06 | (0,-1) (1,-1) (0,0) (0,1) | $07 | $05
$07 | (-1,0) (0,0) (1,0) (1,1) | $04 | $06
$08 | (-1,0) (0,0) (0,1) (1,1) | $09 | $09
$09 | (1,-1) (0,0) (1,0) (0,1) | $08 | $08
$0A | (-1,0) (0,0) (-1,1) (0,1) | $0A | $0A
$0B | (0,0) (1,0) (-1,1) (0,1) | $0C | $0C
$0C | (0,-1) (0,0) (1,0) (1,1) | $0B | $0B
$0D | (0,-1) (0,0) (0,1) (1,1) | $0E | $10
$0E | (-1,0) (0,0) (1,0) (-1,1) | $0F | $0D
$0F | (-1,-1) (0,-1) (0,0) (0,1) | $10 | $0E
$10 | (1,-1) (-1,0) (0,0) (1,0) | $0D | $0F
$11 | (0,-2) (0,-1) (0,0) (0,1) | $12 | $12
$12 | (-2,0) (-1,0) (0,0) (1,0) | $11 | $11";

    #[test]
    fn tables_equal_the_spec() {
        let hex = |s: &str| u8::from_str_radix(s.trim().trim_start_matches('$'), 16).unwrap();
        let mut n = 0;
        for line in SPEC_TABLE.lines() {
            let cols: Vec<&str> = line.split('|').collect();
            let o = Orientation::new(hex(cols[0])).unwrap();
            let cells: Vec<(i8, i8)> = cols[1]
                .split_whitespace()
                .map(|c| {
                    let (x, y) = c
                        .trim_matches(|ch| ch == '(' || ch == ')')
                        .split_once(',')
                        .unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            assert_eq!(o.cells().to_vec(), cells, "{o:?}");
            assert_eq!(o.cw().id(), hex(cols[2]), "A of {o:?}");
            assert_eq!(o.ccw().id(), hex(cols[3]), "B of {o:?}");
            n += 1;
        }
        assert_eq!(n, Orientation::NUM);
    }

    #[test]
    fn tiles_follow_the_cartridge() {
        assert_eq!(Piece::T.spawn().tile(), 0x7B);
        assert_eq!(Piece::O.spawn().tile(), 0x7B);
        assert_eq!(Piece::I.spawn().tile(), 0x7B);
        assert_eq!(Piece::Z.spawn().tile(), 0x7C);
        assert_eq!(Piece::L.spawn().tile(), 0x7C);
        assert_eq!(Piece::J.spawn().tile(), 0x7D);
        assert_eq!(Piece::S.spawn().tile(), 0x7D);
    }
}
