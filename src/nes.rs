//! The emulator host: the cartridge file, the RAM map, the console (tetanes-core or the rules
//! model behind one trait), the RAM observer and the menu navigation.

pub mod addresses;
pub mod console;
pub mod deck;
pub mod driver;
mod driver_report;
pub mod faults;
pub(crate) mod freeze;
pub mod menu;
pub mod model_console;
pub mod modes;
pub mod observe;
#[cfg(test)]
mod palette;
pub mod rom;
pub mod settings;
#[cfg(test)]
pub(crate) mod test_consoles;
pub mod testcart;

pub use addresses::AddressMap;
pub use console::{Console, ConsoleError, Poke};
pub use deck::{NesDeck, Video, SAMPLE_RATE};
pub use driver::{Driver, DriverConfig, DriverError, GameCounts, Step};
pub use faults::{Fault, FaultyPad};
pub use menu::{navigate, MenuError, MenuGoal, MenuNav};
pub use model_console::ModelConsole;
pub use observe::{is_spawn_frame, RamSnapshot, SnapshotError};
pub use rom::Rom;
