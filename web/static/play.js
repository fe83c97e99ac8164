// Play mode: one model frame per screen refresh with the keys held as the NES pad byte;
// assist outlines the bot's lock for each piece and rates the person's.
import { Play } from './nestor_web.js';
import { draw, stats, frameClock } from './board.js';

const $ = (id) => document.getElementById(id);
// The pad byte's bits: A $80, B $40, Up $08, Down $04, Left $02, Right $01.
const KEYS = { ArrowLeft: 0x02, ArrowRight: 0x01, ArrowDown: 0x04, ArrowUp: 0x08,
  KeyX: 0x80, KeyZ: 0x40 };
let game = null, held = 0, paused = false;
const due = frameClock();

export function start() {
  if (game) game.free();
  game = new Play(Number($('play-level').value), Number($('play-seed').value),
    $('play-profile').value);
  show();
}

export function state() { return JSON.parse(game.state($('play-assist').checked)); }

function show() {
  const s = state();
  draw($('play-board'), s.view, '#4f4');
  stats('play', s.view, s.pieces);
  if ($('play-assist').checked && s.ratings.length) {
    $('play-ratings').replaceChildren(...s.ratings.slice(-6).reverse().map((r) => {
      const d = document.createElement('div');
      d.textContent = `piece ${r.piece}: ` + (r.rank === null ? 'not among the bot\'s placements'
        : `rank ${r.rank} of ${r.of}, ${r.loss === null ? 'rejected' : `${r.loss.toFixed(2)} worse than the best`}`);
      return d;
    }));
  }
}

function tick(now) {
  requestAnimationFrame(tick);
  const n = due(now);
  if (!game || paused || !$('play').classList.contains('on') || n === 0) return;
  for (let i = 0; i < n; i++) game.step(held, $('play-assist').checked);
  show();
}

export function init() {
  $('play-start').onclick = () => { start(); $('play-start').blur(); };
  document.addEventListener('keydown', (ev) => {
    if (!$('play').classList.contains('on') || !(ev.code in KEYS)) return;
    held |= KEYS[ev.code]; ev.preventDefault();
  });
  document.addEventListener('keyup', (ev) => {
    if (ev.code in KEYS) held &= ~KEYS[ev.code];
  });
  window.addEventListener('blur', () => { held = 0; });
  start();
  requestAnimationFrame(tick);
}
