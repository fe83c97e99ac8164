// Watch mode's game off the page's thread: the bot plays here and sends each frame's state
// ahead of the display, so a slow decision never holds up a screen refresh.
import init, { Watch } from './nestor_web.js';

const ready = init();
let game = null, gen = 0, decisions = -1;

// `n` steps (a frame each, or a piece each with `perPiece`), each step's state and, when a
// new decision was made, its explanation.
function produce(n, perPiece) {
  const steps = [];
  for (let i = 0; i < n; i++) {
    if (perPiece) game.pieces(1, 10000); else game.frames(1);
    const state = game.state();
    const s = JSON.parse(state);
    const step = { state };
    if (s.decisions !== decisions) { decisions = s.decisions; step.explanation = game.explanation(); }
    steps.push(step);
    if (s.view.over) break;
  }
  postMessage({ gen, steps });
}

onmessage = async (ev) => {
  await ready;
  const m = ev.data;
  if (m.kind === 'start') {
    if (game) game.free();
    gen = m.gen; decisions = -1;
    try {
      game = new Watch(m.level, m.seed, m.profile, 3);
    } catch (e) { postMessage({ gen, error: String(e.message || e) }); return; }
    if (m.ahead > 0) { game.pieces(m.ahead, 1e7); game.frames(20); }
    const state = game.state();
    decisions = JSON.parse(state).decisions;
    postMessage({ gen, first: true, steps: [{ state, explanation: game.explanation() }] });
  } else if (m.kind === 'more' && m.gen === gen && game) {
    produce(m.n, m.perPiece);
  }
};
