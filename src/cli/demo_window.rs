//! `nestor demo --window` (cargo feature `window`): the demo's game drawn with nestor's board
//! picture in the desktop window, with pause, speed, screenshots and the explanation panel.

use std::time::{Instant, SystemTime};

use anyhow::{Context, Result};
use nestor::ui::explain_panel::compose_with_panel;
use nestor::ui::render::draw_game_into;
use nestor::ui::{save_png, screenshot_path, DrawOptions, Frame, Pacer, Window};

use super::{Demo, Ending, MAX_REDRAW};

/// Window pixels per picture pixel.
const WINDOW_SCALE: usize = 2;

fn draw_options(demo: &Demo, status: String) -> DrawOptions {
    DrawOptions {
        plan: demo.plan(),
        pieces: Some(demo.stats().pieces),
        status,
        ..DrawOptions::default()
    }
}

pub(super) fn open(demo: &Demo) -> Result<Window, nestor::ui::WindowError> {
    let mut frame = Frame::new(0, 0, [0; 3]);
    draw_frame(demo, String::new(), &mut frame);
    Window::open("nestor demo", frame.width, frame.height, WINDOW_SCALE)
}

/// The game, and with `--explain` the panel beside it (blank while hidden with E).
fn draw_frame(demo: &Demo, status: String, frame: &mut Frame) {
    draw_game_into(demo.game(), &draw_options(demo, status), frame);
    if let Some(e) = &demo.explain {
        let game = std::mem::replace(frame, Frame::new(0, 0, [0; 3]));
        compose_with_panel(&game, e.panel.then_some(&e.top[..]), frame);
    }
}

/// The window: Space pause, F fast-forward, +/- speed, S screenshot, Esc quits. The final
/// board stays up until Esc or the window is closed.
pub(super) fn play(demo: &mut Demo, mut window: Window, fast: bool) -> Result<Ending> {
    window.controls_mut().fast = fast;
    println!("window: Space pause, F fast-forward, +/- speed, S screenshot, E explanations (with --explain), Esc quit");
    let mut frame = Frame::new(0, 0, [0; 3]);
    let mut idle = Pacer::new();
    let mut last_present: Option<Instant> = None;
    let mut announced = false;
    loop {
        let controls = *window.controls_mut();
        let done = demo.finished();
        if !controls.paused {
            demo.step()?;
        }
        let due = !controls.fast || last_present.is_none_or(|t| t.elapsed() >= MAX_REDRAW);
        if due || done || controls.paused {
            draw_frame(demo, controls.status(), &mut frame);
            window.present(&frame).context("window")?;
            last_present = Some(Instant::now());
            // Keys are collected by `present`: poll once per presented frame.
            let input = window.poll();
            if input.explain {
                if let Some(e) = &mut demo.explain {
                    e.panel = !e.panel;
                }
            }
            if input.screenshot {
                let path = screenshot_path(SystemTime::now());
                match save_png(&frame, &path) {
                    Ok(()) => println!("screenshot: {}", path.display()),
                    Err(e) => eprintln!("screenshot failed: {e}"),
                }
            }
            if input.quit {
                return Ok(if done { Ending::Finished } else { Ending::Quit });
            }
        }
        if done && !announced {
            announced = true;
            println!("game finished: Esc or close the window to exit");
        }
        if done || controls.paused {
            idle.wait(1.0);
        } else {
            window.pace();
        }
    }
}
