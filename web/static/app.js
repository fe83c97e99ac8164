// The page: loads the module, fills the shared menus, switches modes; `window.nestor` is
// what the headless-browser test and the speed measurement call.
import init, { profiles, level_colours, analyse, Watch } from './nestor_web.js';
import * as watch from './watch.js';
import * as an from './analyse.js';
import * as play from './play.js';

function show(mode) {
  for (const s of document.querySelectorAll('.mode')) s.classList.toggle('on', s.id === mode);
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('on', b.dataset.mode === mode);
}

// The bot's game from `level` for `pieces` pieces, run at once: what it reached and how fast.
function watchRun(level, seed, profile, pieces) {
  const w = new Watch(level, seed, profile, 0);
  const t0 = performance.now();
  w.pieces(pieces, 1e9);
  const ms = performance.now() - t0;
  const s = JSON.parse(w.state());
  const out = { pieces: s.pieces, decisions: s.decisions, lines: s.view.lines, level: s.view.level,
    score: s.view.score, over: s.view.over, board: w.board(), ms };
  w.free();
  return out;
}

async function main() {
  await init();
  window.nestorLevelColours = level_colours;
  const names = JSON.parse(profiles());
  for (const sel of document.querySelectorAll('.profiles')) {
    for (const n of names) sel.add(new Option(n, n));
    sel.value = names.includes('30hz') ? '30hz' : names[0];
  }
  for (const sel of document.querySelectorAll('.pieces')) {
    for (const p of 'TJZOSLI') sel.add(new Option(p, p));
  }
  for (const b of document.querySelectorAll('.tab')) b.onclick = () => { show(b.dataset.mode); if (b.dataset.mode === 'analyse') an.run(); };
  const first = location.hash.startsWith('#analyse') ? 'analyse'
    : (new URLSearchParams(location.search).get('mode') || 'watch');
  show(first);
  // Settings from the address (?mode=watch&level=19&profile=15hz&speed=4&seed=7&assist=1;
  // ahead=N: the watched game starts N pieces in).
  const q = new URLSearchParams(location.search);
  for (const [key, ids] of [['level', ['watch-level', 'play-level']], ['seed', ['watch-seed', 'play-seed']],
    ['profile', ['watch-profile', 'play-profile']], ['speed', ['watch-speed']]]) {
    if (q.has(key)) for (const id of ids) document.getElementById(id).value = q.get(key);
  }
  document.getElementById('play-assist').checked = q.get('assist') === '1';
  watch.init(Number(q.get('ahead') || 0));
  an.init();
  play.init();
  window.nestor = {
    profiles: names, show, watchRun, meter: watch.meter,
    analyse: (board, piece, next, level, lines, profile) =>
      JSON.parse(analyse(board, piece, next, level, lines, profile, 5)),
    editor: { setBoard: an.setBoard, boardText: an.boardText, run: an.run, encode: an.encode,
      decode: an.decode },
    play: { state: play.state, start: play.start },
  };
  document.getElementById('status').textContent = 'ready';
  document.body.dataset.ready = '1';
}

main().catch((e) => { document.getElementById('status').textContent = `failed: ${e}`; });
