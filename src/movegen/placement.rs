//! Where one piece locked, the one position type every lock set converts to: the pair
//! enumerator, the evaluation and the plan all speak of places as a [`Placement`].

use crate::game::Orientation;

use super::bfs::Lock;
use super::reach::ReachLock;

/// Where one piece locked: pivot (x, y) as `Collide::fits` takes it (y wraps below 0 for the
/// hidden rows) and its orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub x: u8,
    pub y: u8,
    pub orientation: Orientation,
}

impl From<&Lock> for Placement {
    fn from(l: &Lock) -> Placement {
        Placement {
            x: l.x,
            y: l.y,
            orientation: l.orientation(),
        }
    }
}

impl From<&ReachLock> for Placement {
    fn from(l: &ReachLock) -> Placement {
        Placement {
            x: l.x,
            y: l.y,
            orientation: l.orientation(),
        }
    }
}
