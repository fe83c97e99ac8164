//! The planner's clock for its time limits: `std::time::Instant` natively; in the browser
//! (wasm32-unknown-unknown has no clock in std) a clock that never advances.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

/// On wasm32-unknown-unknown `std::time::Instant::now` panics, so a time limit there never
/// cuts a search short: the page's planner searches as far as it would without one.
#[cfg(target_arch = "wasm32")]
#[derive(Debug, Clone, Copy)]
pub struct Instant;

#[cfg(target_arch = "wasm32")]
impl Instant {
    /// The moment now (every moment is the same one).
    pub fn now() -> Self {
        Instant
    }

    /// No time passes on this clock.
    pub fn elapsed(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}
