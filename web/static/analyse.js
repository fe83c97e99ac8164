// Analyse mode: a board editor (click or drag, or paste a board string), the position's
// settings, the planner's answer and the top placements; the position lives in the link.
import { analyse } from './nestor_web.js';
import { draw, inputsText, termsTable, CELL } from './board.js';

const $ = (id) => document.getElementById(id);
const cells = new Array(200).fill(false);
let painting = null;

// The position as a link fragment: the board as 50 hex digits (4 cells each, row 0 first).
export function encode() {
  let hex = '';
  for (let i = 0; i < 200; i += 4) {
    let v = 0;
    for (let k = 0; k < 4; k++) if (cells[i + k]) v |= 8 >> k;
    hex += v.toString(16);
  }
  const p = new URLSearchParams({ b: hex, p: $('an-piece').value, n: $('an-next').value,
    l: $('an-level').value, ln: $('an-lines').value, pr: $('an-profile').value });
  return `#analyse&${p}`;
}

export function decode(hash) {
  const p = new URLSearchParams(hash.replace(/^#analyse&?/, ''));
  const hex = p.get('b') || '';
  if (/^[0-9a-f]{50}$/.test(hex)) {
    for (let i = 0; i < 200; i++) cells[i] = ((parseInt(hex[i >> 2], 16) << (i & 3)) & 8) !== 0;
  }
  for (const [k, id] of [['p', 'an-piece'], ['n', 'an-next'], ['l', 'an-level'],
    ['ln', 'an-lines'], ['pr', 'an-profile']]) {
    if (p.has(k)) $(id).value = p.get(k);
  }
}

export function boardText() { return cells.map((c) => (c ? '#' : '.')).join(''); }

export function setBoard(text) {
  const flat = text.replace(/\s/g, '');
  if (flat.length !== 200) throw new Error(`a board is 200 cells, this one has ${flat.length}`);
  for (let i = 0; i < 200; i++) cells[i] = flat[i] !== '.';
}

// Runs the planner on the position and shows it; returns the module's answer.
export function run() {
  let result, error = null;
  try {
    result = JSON.parse(analyse(boardText(), $('an-piece').value, $('an-next').value,
      Number($('an-level').value), Number($('an-lines').value), $('an-profile').value, 5));
  } catch (e) { error = String(e.message || e); }
  const link = encode();
  $('an-link').href = link; $('an-link').textContent = link;
  if ($('analyse').classList.contains('on')) history.replaceState(null, '', link);
  const view = { cells: cells.map((c) => (c ? 'w' : '.')).join(''), active: [], active_look: '.',
    outline: result && result.plan ? result.plan.cells : [],
    colours: JSON.parse(window.nestorLevelColours(Number($('an-level').value))) };
  draw($('analyse-board'), view);
  const top = $('an-top'); top.replaceChildren();
  if (error) { $('an-plan').textContent = error; return { error }; }
  const plan = result.plan;
  $('an-plan').innerHTML = '';
  const p = document.createElement('p');
  p.textContent = plan
    ? `nestor locks at x ${plan.x} y ${plan.y} orientation ${plan.orientation} ` +
      `(${result.reachable} placements reachable under ${$('an-profile').value}` +
      `${result.pick_first ? '; its pick by the third-piece look-ahead' : ''}); inputs: ` +
      inputsText(plan.inputs)
    : 'no placement reachable';
  $('an-plan').appendChild(p);
  result.top.forEach((e, i) => {
    top.appendChild(termsTable(e, `#${i + 1}`));
    const q = document.createElement('p'); q.className = 'small';
    q.textContent = `inputs: ${inputsText(e.inputs)}`; top.appendChild(q);
  });
  return result;
}

function cellAt(ev) {
  const r = ev.target.getBoundingClientRect();
  const col = Math.floor((ev.clientX - r.left) / CELL), row = Math.floor((ev.clientY - r.top) / CELL);
  return row >= 0 && row < 20 && col >= 0 && col < 10 ? row * 10 + col : -1;
}

export function init() {
  const canvas = $('analyse-board');
  canvas.onmousedown = (ev) => {
    const i = cellAt(ev); if (i < 0) return;
    painting = !cells[i]; cells[i] = painting; run();
  };
  canvas.onmousemove = (ev) => {
    const i = cellAt(ev);
    if (painting === null || i < 0 || cells[i] === painting) return;
    cells[i] = painting; run();
  };
  window.addEventListener('mouseup', () => { painting = null; });
  for (const id of ['an-piece', 'an-next', 'an-level', 'an-lines', 'an-profile']) $(id).onchange = run;
  $('an-clear').onclick = () => { cells.fill(false); run(); };
  $('an-load').onclick = () => {
    try { setBoard($('an-text').value); run(); } catch (e) { $('an-plan').textContent = e.message; }
  };
  if (location.hash.startsWith('#analyse')) decode(location.hash);
  run();
}
