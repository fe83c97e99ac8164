// Drawing a 10×20 field in the NES's level colours: tile $7B white inside a border of the
// level's first colour, $7C the second colour, $7D the first colour (as ui/render.rs does).
export const CELL = 24;

function block(ctx, row, col, look, colours) {
  const [, white, first, second] = colours;
  const x = col * CELL + 1, y = row * CELL + 1, s = CELL - 1;
  if (look === 'w') {
    ctx.fillStyle = first; ctx.fillRect(x, y, s, s);
    ctx.fillStyle = white; ctx.fillRect(x + 3, y + 3, s - 6, s - 6);
  } else {
    ctx.fillStyle = look === 'b' ? second : look === 'a' ? first : '#888';
    ctx.fillRect(x, y, s, s);
    ctx.fillStyle = '#fff'; ctx.fillRect(x + 3, y + 3, 4, 4);
  }
}

// `view`: the JSON `View` of the wasm module; `outlineColour` for the outlined lock.
export function draw(canvas, view, outlineColour = '#ff3') {
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = view.colours[0]; ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = '#222'; ctx.lineWidth = 1;
  for (let c = 1; c < 10; c++) { ctx.beginPath(); ctx.moveTo(c * CELL + .5, 0); ctx.lineTo(c * CELL + .5, 20 * CELL); ctx.stroke(); }
  for (let r = 1; r < 20; r++) { ctx.beginPath(); ctx.moveTo(0, r * CELL + .5); ctx.lineTo(10 * CELL, r * CELL + .5); ctx.stroke(); }
  for (let i = 0; i < 200; i++) {
    const look = view.cells[i];
    if (look !== '.') block(ctx, Math.floor(i / 10), i % 10, look, view.colours);
  }
  for (const [r, c] of view.active) block(ctx, r, c, view.active_look, view.colours);
  ctx.strokeStyle = outlineColour; ctx.lineWidth = 3;
  for (const [r, c] of view.outline) ctx.strokeRect(c * CELL + 2.5, r * CELL + 2.5, CELL - 4, CELL - 4);
}

// A run-length form of an input sequence: "12×· L 3×· A …" (`·` for a frame with nothing).
export function inputsText(inputs) {
  const out = [];
  let i = 0;
  while (i < inputs.length) {
    let j = i;
    while (j < inputs.length && inputs[j] === inputs[i]) j++;
    const name = inputs[i].replace(/\./g, '') || '·';
    out.push(j - i > 1 ? `${j - i}×${name}` : name);
    i = j;
  }
  return out.join(' ');
}

// One placement's terms as a table (features with a zero contribution left out).
export function termsTable(e, title) {
  const t = document.createElement('table');
  const cap = t.createCaption();
  const v = e.value === null ? 'rejected' : e.value.toFixed(2);
  cap.textContent = `${title}: ${e.lock.piece} x ${e.lock.x} y ${e.lock.y} orientation ${e.lock.orientation}` +
    ` value ${v} (${e.phase})`;
  const head = t.insertRow();
  for (const h of ['feature', 'value', 'weight', 'contribution']) {
    const th = document.createElement('th'); th.textContent = h; head.appendChild(th);
  }
  for (const term of e.terms) {
    if (term.contribution === 0) continue;
    const row = t.insertRow();
    row.insertCell().textContent = term.feature;
    row.insertCell().textContent = term.value.toFixed(2);
    row.insertCell().textContent = term.weight.toFixed(2);
    row.insertCell().textContent = term.contribution.toFixed(2);
  }
  if (e.crash_risk) {
    const row = t.insertRow(); const c = row.insertCell(); c.colSpan = 4;
    c.className = 'risk'; c.textContent = `may crash: ${e.crash_risk}`;
  }
  return t;
}

export function stats(prefix, view, pieces) {
  document.getElementById(`${prefix}-score`).textContent = view.score;
  document.getElementById(`${prefix}-lines`).textContent = view.lines;
  document.getElementById(`${prefix}-lvl`).textContent = view.level;
  document.getElementById(`${prefix}-pieces`).textContent = pieces;
  document.getElementById(`${prefix}-next`).textContent =
    (view.next || '') + (view.crashed ? ` (${view.crashed})` : view.over ? ' (over)' : '');
}

// The NTSC NES's frame rate: the page steps the model by the clock, not by screen refreshes
// (a 144 Hz screen must not play faster).
export const NES_FPS = 60.0988;

// Frames due since the last call, by the clock (at most 4 at once, after a stall).
export function frameClock() {
  let last = null, owed = 0;
  return (now) => {
    if (last !== null) owed = Math.min(owed + (now - last) * NES_FPS / 1000, 4);
    last = now;
    const n = Math.floor(owed);
    owed -= n;
    return n;
  };
}
