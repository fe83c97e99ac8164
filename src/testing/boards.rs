//! Test stacks shared by the unit tests and the integration tests (which include this file by
//! path, so it holds nothing but text): overhangs, caves and slots that exercise tucks and spins.

/// A roof on the left with a cave under it, and a slot on the right.
pub const ROOF: &str = "..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n####......\n#.........\n\
     #.......#.\n##....###.\n###.#####.\n####.####.\n#########.";

/// A T-slot with a lip: spins and tucks.
#[allow(dead_code)] // only the integration tests use it
pub const T_SLOT: &str = "..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n..........\n......###.\n\
     ###.......\n####..####\n####.#####\n####.#####\n#########.";

/// Two caves on both walls and a tall centre column.
pub const TWO_CAVES: &str = "..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n..........\n..........\n\
     ..........\n....##....\n###.##.###\n...####...\n...####...\n\
     #..####..#\n##.####.##\n##.####.##\n##.#####.#\n#########.";

/// A tall ragged stack with holes, a closed box near the top and a cave under an overhang.
pub const TALL: &str = "..........\n..........\n..###.....\n..#.#.....\n..........\n\
     ......#...\n#.....##..\n##.#..##.#\n##.##.##.#\n####..####\n\
     #.##.####.\n####.####.\n##.#######\n####.####.\n#.#######.\n\
     ####.####.\n###.#####.\n#########.\n##.######.\n#########.";
