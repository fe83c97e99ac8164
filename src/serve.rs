//! nestor as the brain of a game running in another emulator (FCEUX through `lua/`): the bridge
//! protocol, a `Console` over one connection, the session that plays through it, the transports.

pub mod bridge;
pub mod protocol;
pub mod session;
// Named pipes and the process checks are Unix; the protocol and the session are not.
#[cfg(unix)]
pub mod transport;

pub use bridge::{BridgeConsole, BridgeError};
pub use protocol::{ClientMsg, Mode, ProtocolError, Ranges, ServerMsg, MAX_LINE, VERSION};
pub use session::SessionReport;
