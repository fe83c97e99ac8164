//! One connection from an emulator's script: in `play` the driver plays through the bridge
//! (menus, plans, desync check and re-plan as in `play`); in `assist` it only shows each lock.

use crate::game::Pos;
use std::fmt;
use std::io::{BufRead, Write};
use std::sync::Mutex;

use super::bridge::{BridgeConsole, BridgeError};
use super::protocol::{Mode, ServerMsg};
use crate::game::state::PlayState;
use crate::game::PadState;
use crate::nes::addresses::AddressMap;
use crate::nes::console::Console;
use crate::nes::{Driver, DriverConfig, DriverError, RamSnapshot, Step};
use crate::search::eval::Evaluator;
use crate::search::plan::{Planner, Situation};

/// What a connection did, for the log and the `bye` answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionReport {
    /// The script's name for itself, from its `hello`.
    pub client: String,
    /// The mode the script asked for (`None` before `hello`).
    pub mode: Option<Mode>,
    /// Frames received from the emulator (each answered, but for the last).
    pub frames: u64,
    /// Pieces locked under nestor's control (play) or pieces shown a lock (assist).
    pub pieces: u64,
    /// Frames at whose end the piece was off the plan (play).
    pub desyncs: u64,
    /// Games that ended (topped out) during the connection.
    pub games: u64,
    /// Jumps in the emulator's frame numbers (resets, loaded states), each re-planned from.
    pub jumps: u64,
    /// Driver errors (a frozen or unreadable game, menus that did not answer) recovered from.
    pub recoveries: u64,
    /// Frames answered with a button held (play).
    pub pressed: u64,
    /// Frames whose buttons the game read (`held` in RAM) differ from the answer's, once the
    /// game has been seen reading a pressed answer: the emulator is not pressing what nestor
    /// says, or a frame late.
    pub echo_mismatches: u64,
    /// Score of the game in progress, or the last one (BCD decoded).
    pub score: u32,
    /// Lines of the game in progress, or the last one (BCD decoded).
    pub lines: u32,
    /// Why the connection ended.
    pub end: String,
}

impl fmt::Display for SessionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "frames={} pressed={} pieces={} desyncs={} games={} jumps={} recoveries={} \
             echo_mismatches={} score={} lines={}",
            self.frames,
            self.pressed,
            self.pieces,
            self.desyncs,
            self.games,
            self.jumps,
            self.recoveries,
            self.echo_mismatches,
            self.score,
            self.lines
        )
    }
}

/// The four cells (column, row) of a lock, as the protocol's `lock` shows them.
pub fn lock_cells(p: &Pos) -> [(i8, i8); 4] {
    p.orientation
        .cells()
        .map(|(dx, dy)| (p.x as i8 + dx, p.y as i8 + dy))
}

/// The report of the session in progress, kept up to date every frame for whoever must
/// tell how it stood when the server is stopped (`None` between sessions).
pub type Live = Mutex<Option<SessionReport>>;

/// Serves one accepted connection to its end; never fails: how it ended is in the report,
/// which `live` holds while the session runs.
pub fn run<R: BufRead, W: Write, E: Evaluator>(
    mut console: BridgeConsole<R, W>,
    map: &AddressMap,
    planner: Planner<E>,
    config: DriverConfig,
    live: &Live,
) -> SessionReport {
    let mut report = SessionReport {
        client: console.client().to_string(),
        mode: Some(console.mode()),
        // The first frame came with the hello.
        frames: u64::from(!console.said_bye()),
        ..SessionReport::default()
    };
    log::info!(
        "{} connected ({}); RAM ranges {}",
        report.client,
        console.mode().word(),
        console.ranges()
    );
    let mut report = Reporter {
        report: &mut report,
        live,
    };
    if console.said_bye() {
        end(&mut console, &BridgeError::Bye, &mut report);
    } else {
        match console.mode() {
            Mode::Play => play(console, map, planner, config, &mut report),
            Mode::Assist => assist(console, map, planner, &mut report),
        }
    }
    let report = std::mem::take(report.report);
    if let Ok(mut l) = live.lock() {
        *l = None;
    }
    log::info!("{} left: {} ({report})", report.client, report.end);
    report
}

/// The session's report, copied to `live` at each `publish`.
struct Reporter<'a> {
    report: &'a mut SessionReport,
    live: &'a Live,
}

impl Reporter<'_> {
    fn publish(&self) {
        if let Ok(mut l) = self.live.lock() {
            match l.as_mut() {
                Some(r) => r.clone_from(self.report),
                None => *l = Some(self.report.clone()),
            }
        }
    }
}

impl std::ops::Deref for Reporter<'_> {
    type Target = SessionReport;
    fn deref(&self) -> &SessionReport {
        self.report
    }
}

impl std::ops::DerefMut for Reporter<'_> {
    fn deref_mut(&mut self) -> &mut SessionReport {
        self.report
    }
}

/// Ends the report on a bridge error, answering a `bye`.
fn end<R: BufRead, W: Write>(
    console: &mut BridgeConsole<R, W>,
    e: &BridgeError,
    report: &mut Reporter,
) {
    if matches!(e, BridgeError::Bye) {
        console.farewell(report.to_string());
    }
    report.end = e.to_string();
}

fn play<R: BufRead, W: Write, E: Evaluator>(
    console: BridgeConsole<R, W>,
    map: &AddressMap,
    planner: Planner<E>,
    config: DriverConfig,
    report: &mut Reporter,
) {
    let held = map.held;
    let mut driver = match Driver::new(console, map.clone(), planner, config) {
        Ok(d) => d,
        Err(e) => {
            // The console went into the driver: closing it is all that is left.
            report.end = format!("could not start playing: {e}");
            return;
        }
    };
    let mut last_note = String::new();
    let mut echo = Echo::default();
    loop {
        report.publish();
        let result = driver.step();
        let g = driver.game();
        (report.score, report.lines) = (g.score, g.lines);
        let e = match result {
            Ok(step) => {
                after_step(&mut driver, step, held, &mut echo, report);
                continue;
            }
            Err(e) => e,
        };
        if let DriverError::Console(ce) = &e {
            match BridgeError::of(ce) {
                Some(BridgeError::Jump { from, to }) => {
                    report.jumps += 1;
                    report.frames += 1;
                    log::info!("{}: frame {from} → {to}: re-planning", report.client);
                    let _ = driver.new_game(|_| {});
                    continue;
                }
                Some(b) => {
                    end(driver.console_mut(), b, report);
                    return;
                }
                None => {}
            }
        }
        // The game is not where the driver can play it (frozen, unreadable, menus that did
        // not answer): say so once, answer the frame with nothing pressed, start over from RAM.
        report.recoveries += 1;
        let text = format!("{e}; starting over from what the emulator shows");
        if text != last_note {
            log::warn!("{}: {text}", report.client);
            let _ = driver.console_mut().send(&ServerMsg::Note(text.clone()));
            last_note = text;
        }
        if driver.console().pending() {
            match driver.console_mut().exchange(PadState::NONE) {
                Ok(()) => report.frames += 1,
                Err(BridgeError::Jump { .. }) => {
                    report.frames += 1;
                    report.jumps += 1;
                }
                Err(b) => {
                    end(driver.console_mut(), &b, report);
                    return;
                }
            }
        }
        let _ = driver.new_game(|_| {});
    }
}

/// The echo check: has the game been seen reading an answer, and the last frame's counter.
#[derive(Default)]
struct Echo {
    live: bool,
    last_counter: Option<u16>,
}

impl Echo {
    /// True when the game polled the pad this frame and read other buttons than `pad`.
    fn mismatch(&mut self, pad: PadState, read: Option<u8>, counter: u16) -> bool {
        // Before the game first reads a pressed answer (power-on, before its NMI polls the
        // pad) the byte is whatever the emulator filled RAM with.
        self.live |= pad != PadState::NONE && read == Some(pad.bits());
        // A frame whose NMI did not run (a screen loading, as the name entry after a game
        // over does) polled nothing: its frame counter stood still.
        let polled = self.last_counter.replace(counter) != Some(counter);
        self.live && polled && read != Some(pad.bits())
    }
}

/// Counts a frame the driver played, sends a note on a desync, goes back to the menus after
/// a reset and shows the planned lock with the next answer.
fn after_step<R: BufRead, W: Write, E: Evaluator>(
    driver: &mut Driver<BridgeConsole<R, W>, E>,
    step: Step,
    held: u16,
    echo: &mut Echo,
    report: &mut Reporter,
) {
    report.frames += 1;
    let pad = driver.last_pad();
    report.pressed += u64::from(pad != PadState::NONE);
    let read = driver.console().ram().get(usize::from(held)).copied();
    if echo.mismatch(pad, read, driver.snapshot().frame_counter) {
        report.echo_mismatches += 1;
        log::debug!(
            "frame {}: answered {pad:?}, the game read {read:02x?}",
            driver.console().frame_number()
        );
    }
    match step {
        Step::Locked { .. } => report.pieces += 1,
        Step::Desync { frame, .. } => {
            report.desyncs += 1;
            // The plugin counts these for its status line.
            let text = format!("desync at frame {frame}: the piece left the plan; re-planning");
            let _ = driver.console_mut().send(&ServerMsg::Note(text));
        }
        Step::GameOver { .. } => report.games += 1,
        _ => {}
    }
    if driver.is_playing() && !driver.snapshot().in_play() {
        // The game left play without a top-out: a reset (the frame numbers go on through a
        // soft reset). Start over from the menus it shows.
        report.jumps += 1;
        log::info!("{}: the game was reset; back to the menus", report.client);
        let _ = driver.new_game(|_| {});
    }
    let lock = driver.plan().map(|p| lock_cells(&p.lock));
    driver.console_mut().show_lock(lock);
}

fn assist<R: BufRead, W: Write, E: Evaluator>(
    mut console: BridgeConsole<R, W>,
    map: &AddressMap,
    mut planner: Planner<E>,
    report: &mut Reporter,
) {
    // The piece under control has been planned (or could not be).
    let mut planned = false;
    loop {
        report.publish();
        let now = RamSnapshot::read(console.ram(), map);
        if now.in_play() && now.play_state == PlayState::Control as u8 {
            if !planned {
                planned = true;
                let lock = now
                    .to_game()
                    .ok()
                    .and_then(|g| planner.plan(&Situation::of(&g)))
                    .map(|p| lock_cells(&p.lock));
                report.pieces += u64::from(lock.is_some());
                console.show_lock(lock);
            }
        } else {
            planned = false;
            console.show_lock(None);
        }
        match console.exchange(PadState::NONE) {
            Ok(()) => report.frames += 1,
            Err(BridgeError::Jump { .. }) => {
                report.frames += 1;
                report.jumps += 1;
                planned = false;
            }
            Err(e) => {
                end(&mut console, &e, report);
                return;
            }
        }
    }
}
