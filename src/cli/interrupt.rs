//! Ctrl-C and SIGTERM for long commands: the first signal asks the running command to stop at
//! its next safe point (files complete, summary printed); a second one ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The exit code of a command stopped by Ctrl-C or SIGTERM after it saved its work (128 + SIGINT,
/// as shells report an interrupted program).
pub const EXIT_INTERRUPTED: u8 = 130;

/// A flag the signal handler sets; long loops poll [`Interrupt::requested`] and pass
/// [`Interrupt::flag`] down to library code that takes an `&AtomicBool`.
#[derive(Clone, Debug)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// Installs the handler once per process (ctrlc allows only one) and returns the flag.
    /// If the handler cannot be installed the flag simply never fires: the command still
    /// runs, it only cannot be stopped gracefully, which is said at debug level.
    pub fn install() -> Interrupt {
        static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
        let flag = FLAG.get_or_init(|| {
            let flag = Arc::new(AtomicBool::new(false));
            let handler_flag = Arc::clone(&flag);
            let installed = ctrlc::set_handler(move || {
                if handler_flag.swap(true, Ordering::SeqCst) {
                    // Second signal: the user means it.
                    std::process::exit(i32::from(EXIT_INTERRUPTED));
                }
                eprintln!(
                    "\ninterrupted: finishing what is in hand (press Ctrl-C again to quit now)"
                );
            });
            if let Err(e) = installed {
                log::debug!("no Ctrl-C handler: {e}");
            }
            flag
        });
        Interrupt(Arc::clone(flag))
    }

    /// A flag that is never set by a signal (tests, library callers).
    // Not every build of the binary has a caller (library loops take the flag).
    #[allow(dead_code)]
    pub fn never() -> Interrupt {
        Interrupt(Arc::new(AtomicBool::new(false)))
    }

    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    // Not every build of the binary has a caller (library loops take the flag).
    #[allow(dead_code)]
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}
