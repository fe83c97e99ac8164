//! The logger: `env_logger`'s filter (`RUST_LOG`, default `warn`) and output, except that
//! while the terminal picture owns stderr its lines are held and written when it ends.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, OnceLock};

use log::{Log, Metadata, Record};

/// `env_logger` with a hold: the logger is process-wide by the `log` crate's design, so the
/// hold is too (one `OnceLock`, set once in `main`).
pub struct HeldLogger {
    inner: env_logger::Logger,
    /// `Some` while held: the lines so far, oldest first.
    held: Mutex<Option<Held>>,
}

/// The newest `HELD_LINES` lines and how many older ones were dropped (a long game with
/// `RUST_LOG=debug` logs every piece).
#[derive(Default)]
struct Held {
    lines: VecDeque<String>,
    dropped: u64,
}

const HELD_LINES: usize = 1000;

static LOGGER: OnceLock<HeldLogger> = OnceLock::new();

/// Installs the logger; call once, first thing in `main`.
pub fn init() {
    let inner =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).build();
    let level = inner.filter();
    let logger = LOGGER.get_or_init(|| HeldLogger::new(inner));
    if log::set_logger(logger).is_ok() {
        log::set_max_level(level);
    }
}

/// Holds the log lines until the returned guard is dropped, then writes them to stderr.
/// Without an installed logger (tests) it holds nothing.
pub fn hold() -> Hold {
    if let Some(l) = LOGGER.get() {
        l.start_holding();
    }
    Hold(())
}

/// The newest line held so far, for the picture's last line.
pub fn newest_held() -> Option<String> {
    LOGGER.get().and_then(HeldLogger::newest)
}

/// While alive, log lines are held (see `hold`).
pub struct Hold(());

impl Drop for Hold {
    fn drop(&mut self) {
        if let Some(l) = LOGGER.get() {
            for line in l.release() {
                eprintln!("{line}");
            }
        }
    }
}

impl HeldLogger {
    pub fn new(inner: env_logger::Logger) -> HeldLogger {
        HeldLogger {
            inner,
            held: Mutex::new(None),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<Held>> {
        // A panic while holding the lock leaves the lines intact: keep using them.
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn start_holding(&self) {
        self.lock().get_or_insert_with(Held::default);
    }

    /// Ends the hold and gives back the lines held, oldest first, after a line saying how
    /// many older ones were dropped, if any.
    pub fn release(&self) -> Vec<String> {
        let Some(held) = self.lock().take() else {
            return Vec::new();
        };
        let dropped = (held.dropped > 0).then(|| {
            format!(
                "({} earlier log lines dropped while the picture was drawn)",
                held.dropped
            )
        });
        dropped.into_iter().chain(held.lines).collect()
    }

    pub fn newest(&self) -> Option<String> {
        self.lock().as_ref().and_then(|h| h.lines.back().cloned())
    }
}

impl Log for HeldLogger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        self.inner.enabled(metadata)
    }

    fn log(&self, record: &Record) {
        if !self.inner.matches(record) {
            return;
        }
        let mut held = self.lock();
        match held.as_mut() {
            Some(h) => {
                if h.lines.len() == HELD_LINES {
                    h.lines.pop_front();
                    h.dropped += 1;
                }
                h.lines.push_back(format!(
                    "[{} {}] {}",
                    record.level(),
                    record.target(),
                    record.args()
                ));
            }
            None => {
                drop(held);
                self.inner.log(record);
            }
        }
    }

    fn flush(&self) {
        self.inner.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logger(filter: &str) -> HeldLogger {
        HeldLogger::new(env_logger::Builder::new().parse_filters(filter).build())
    }

    fn warn(l: &HeldLogger, text: &str) {
        l.log(
            &Record::builder()
                .level(log::Level::Warn)
                .target("nestor::nes::driver")
                .args(format_args!("{text}"))
                .build(),
        );
    }

    #[test]
    fn held_lines_come_back_in_order_when_released_and_not_after() {
        let l = logger("warn");
        l.start_holding();
        warn(&l, "first");
        warn(&l, "second");
        assert_eq!(
            l.newest().as_deref(),
            Some("[WARN nestor::nes::driver] second")
        );
        assert_eq!(
            l.release(),
            [
                "[WARN nestor::nes::driver] first",
                "[WARN nestor::nes::driver] second"
            ]
        );
        // Released: lines go to stderr again, nothing is held any more.
        warn(&l, "third");
        assert_eq!(l.newest(), None);
        assert!(l.release().is_empty());
    }

    #[test]
    fn a_long_hold_keeps_the_newest_lines_and_says_how_many_went() {
        let l = logger("warn");
        l.start_holding();
        for i in 0..HELD_LINES + 5 {
            warn(&l, &i.to_string());
        }
        let lines = l.release();
        assert_eq!(lines.len(), HELD_LINES + 1);
        assert_eq!(
            lines[0],
            "(5 earlier log lines dropped while the picture was drawn)"
        );
        assert_eq!(lines[1], "[WARN nestor::nes::driver] 5");
        assert_eq!(
            lines.last().map(String::as_str),
            Some(format!("[WARN nestor::nes::driver] {}", HELD_LINES + 4).as_str())
        );
    }

    #[test]
    fn the_filter_still_applies_while_holding() {
        let l = logger("error");
        l.start_holding();
        warn(&l, "below the filter");
        assert!(l.release().is_empty());
    }
}
