//! Where one piece locked, the one position type every lock set converts to: the pair
//! enumerator, the evaluation and the plan all speak of places as a [`Placement`].

use crate::game::Orientation;

use super::bfs::Lock;
use super::reach::ReachLock;

/// Where one piece locked: pivot (x, y) as `Collide::fits` takes it (y wraps below 0 for the
/// hidden rows) and its orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Pivot column (0-based).
    pub x: u8,
    /// Pivot row (0 = top visible row; 254 and 255 are the hidden rows −2 and −1).
    pub y: u8,
    /// The orientation it locked in.
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
