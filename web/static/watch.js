// Watch mode: the bot plays in the page, a number of frames per screen refresh; the planned
// lock is outlined, each decision explained, the crash guard's notes past 155 listed.
import { Watch } from './nestor_web.js';
import { draw, stats, termsTable } from './board.js';

const $ = (id) => document.getElementById(id);
let game = null, paused = false, shownDecision = -1;
// Refreshes and the milliseconds spent in the module over the last second.
export const meter = { fps: 0, busyMs: 0, frames: 0, since: performance.now(), wasmMs: 0,
  maxMs: 0, worstMs: 0 };

// A new game; `ahead` pieces are played at once before the first picture.
export function start(ahead = 0) {
  if (game) game.free();
  game = new Watch(Number($('watch-level').value), Number($('watch-seed').value),
    $('watch-profile').value, 3);
  // Then into the next piece's fall, so that its planned lock shows.
  if (ahead > 0) { game.pieces(ahead, 1e7); game.frames(20); }
  shownDecision = -1;
  $('watch-guard').textContent = 'nothing yet (the guard acts from level 155 on)';
  show();
}

function show() {
  const s = JSON.parse(game.state());
  draw($('watch-board'), s.view);
  stats('watch', s.view, s.pieces);
  if (s.decisions !== shownDecision) {
    shownDecision = s.decisions;
    const box = $('watch-explain'); box.replaceChildren();
    JSON.parse(game.explanation()).forEach((e, i) =>
      box.appendChild(termsTable(e, i === 0 ? 'top' : `#${i + 1}`)));
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
  return s;
}

function tick(now) {
  requestAnimationFrame(tick);
  if (!game || !document.getElementById('watch').classList.contains('on')) return;
  const t0 = performance.now();
  if (!paused) {
    const speed = Number($('watch-speed').value);
    if (speed < 0) game.pieces(1, 10000); else game.frames(speed);
    show();
  }
  const spent = performance.now() - t0;
  meter.busyMs += spent;
  meter.maxMs = Math.max(meter.maxMs, spent);
  meter.frames++;
  if (now - meter.since >= 1000) {
    meter.fps = meter.frames * 1000 / (now - meter.since);
    meter.wasmMs = meter.busyMs / meter.frames;
    meter.worstMs = meter.maxMs;
    $('watch-fps').textContent = `${meter.fps.toFixed(0)} refreshes/s, ` +
      `${meter.wasmMs.toFixed(2)} ms of work each (at most ${meter.worstMs.toFixed(1)} ms)`;
    meter.frames = 0; meter.busyMs = 0; meter.maxMs = 0; meter.since = now;
  }
}

export function init(ahead = 0) {
  $('watch-start').onclick = () => start();
  $('watch-pause').onclick = () => {
    paused = !paused;
    $('watch-pause').textContent = paused ? 'resume' : 'pause';
  };
  start(ahead);
  requestAnimationFrame(tick);
}
