// Watch mode: the bot plays in a worker (worker.js) a second ahead of the display; each screen
// refresh draws the next frame (or several, or a piece, by the speed), the planned lock
// outlined, each decision explained, the crash guard's notes past 155 listed.
import { Watch } from './nestor_web.js';
import { draw, stats, termsTable, frameClock } from './board.js';

const $ = (id) => document.getElementById(id);
let worker = null, gen = 0, queue = [], asked = false, perPiece = false, paused = false;
let over = false;
const due = frameClock();
// Over the last second: refreshes, the page's own work per refresh, and refreshes that had no
// new frame to show because the worker was behind (`starved`).
export const meter = { fps: 0, busyMs: 0, frames: 0, since: performance.now(), wasmMs: 0,
  maxMs: 0, worstMs: 0, starved: 0, starvedLast: 0, shown: 0 };

function speed() { return Number($('watch-speed').value); }

// The worker's frames a second ahead at ×1 (a second of the chosen speed).
function ask() {
  if (asked || over) return;
  const n = perPiece ? 30 : Math.max(60, speed() * 60);
  asked = true;
  worker.postMessage({ kind: 'more', gen, n, perPiece });
}

// A new game; `ahead` pieces are played at once before the first picture (then into the
// next piece's fall, so that its planned lock shows).
export function start(ahead = 0) {
  gen++; queue = []; asked = false; over = false; perPiece = speed() < 0;
  $('watch-guard').textContent = 'nothing yet (the guard acts from level 155 on)';
  const level = Number($('watch-level').value), seed = Number($('watch-seed').value);
  const profile = $('watch-profile').value;
  if (worker) worker.postMessage({ kind: 'start', gen, ahead, level, seed, profile });
  if (ahead > 0 || !worker) {
    // The first picture of a game started pieces in is drawn here at once (a shared link
    // shows it before the worker's copy of the game, which then takes over, catches up).
    const w = new Watch(level, seed, profile, 3);
    w.pieces(ahead, 1e7); w.frames(20);
    show({ state: w.state(), explanation: w.explanation() });
    w.free();
  }
}

function show(step) {
  const s = JSON.parse(step.state);
  draw($('watch-board'), s.view);
  stats('watch', s.view, s.pieces);
  over = s.view.over;
  meter.shown++;
  if (step.explanation !== undefined) {
    const box = $('watch-explain'); box.replaceChildren();
    JSON.parse(step.explanation).forEach((e, i) =>
      box.appendChild(termsTable(e, i === 0 ? 'top' : `#${i + 1}`)));
  }
  if (s.guard.length) {
    $('watch-guard').replaceChildren(...s.guard.slice(-8).reverse().map((g) => {
      const p = document.createElement('div');
      p.textContent = `piece ${g.piece}, level ${g.level}, lines ${g.lines}: refused ${g.refused}` +
        (g.pressure_lines ? `, let ${g.pressure_lines}-line risks through under pressure` : '') +
        (g.stretch ? ', stretch (no safe clear: clears weighed as a cost)' : '') +
        (g.hide_preview ? ', preview hidden for the clear' : '');
      return p;
    }));
  }
}

function received(ev) {
  const m = ev.data;
  if (m.gen !== gen) return;
  asked = false;
  if (m.error) { $('watch-explain').textContent = m.error; return; }
  // A game's first state is shown at once (also while paused).
  if (m.first) show(m.steps[0]); else queue.push(...m.steps);
}

function tick(now) {
  requestAnimationFrame(tick);
  if (!worker || !$('watch').classList.contains('on')) return;
  const t0 = performance.now();
  const n = due(now);
  if (!paused && !over && n > 0) {
    if (perPiece !== (speed() < 0)) start();
    const want = perPiece ? 1 : speed() * n;
    if (queue.length === 0) meter.starved++;
    // Every frame is shown at ×1; faster speeds skip to the last of theirs, explanations kept.
    const steps = queue.splice(0, want);
    let explanation;
    for (const st of steps) if (st.explanation !== undefined) explanation = st.explanation;
    if (steps.length) show({ ...steps[steps.length - 1], explanation });
    if (queue.length < (perPiece ? 1 : speed()) * 30) ask();
  }
  const spent = performance.now() - t0;
  meter.busyMs += spent; meter.maxMs = Math.max(meter.maxMs, spent); meter.frames++;
  if (now - meter.since >= 1000) {
    meter.fps = meter.frames * 1000 / (now - meter.since);
    meter.wasmMs = meter.busyMs / meter.frames; meter.worstMs = meter.maxMs;
    meter.starvedLast = meter.starved;
    $('watch-fps').textContent = `${meter.fps.toFixed(0)} refreshes/s, ` +
      `${meter.wasmMs.toFixed(2)} ms of drawing each (at most ${meter.worstMs.toFixed(1)} ms), ` +
      `${meter.starved} without a new frame`;
    meter.frames = 0; meter.busyMs = 0; meter.maxMs = 0; meter.starved = 0; meter.since = now;
  }
}

// `still`: one picture, no game running (for `chromium --headless --screenshot`, whose
// virtual time waits on a running worker for ever).
export function init(ahead = 0, still = false) {
  if (!still) {
    worker = new Worker('worker.js', { type: 'module' });
    worker.onmessage = received;
  }
  $('watch-start').onclick = () => start();
  $('watch-pause').onclick = () => {
    paused = !paused;
    $('watch-pause').textContent = paused ? 'resume' : 'pause';
  };
  start(ahead);
  requestAnimationFrame(tick);
}

// The bot's game from `level` for `pieces` pieces on this thread, at once: what it reached
// and how fast (for the browser test and the speed figures).
export function run(level, seed, profile, pieces) {
  const w = new Watch(level, seed, profile, 0);
  const t0 = performance.now();
  const frames = w.pieces(pieces, 1e9);
  const ms = performance.now() - t0;
  const s = JSON.parse(w.state());
  const out = { pieces: s.pieces, decisions: s.decisions, lines: s.view.lines, level: s.view.level,
    score: s.view.score, over: s.view.over, board: w.board(), frames, ms,
    guard: s.guard, mayCrashFrames: s.may_crash_frames };
  w.free();
  return out;
}
