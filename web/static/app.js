// The page: loads the module, fills the shared menus, switches modes; `window.nestor` is
// what the headless-browser test and the speed measurement call.
import init, { profiles, level_colours, analyse } from './nestor_web.js';
import * as watch from './watch.js';
import * as an from './analyse.js';
import * as play from './play.js';

function show(mode) {
  for (const s of document.querySelectorAll('.mode')) s.classList.toggle('on', s.id === mode);
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('on', b.dataset.mode === mode);
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
  // ahead=N: the watched game starts N pieces in; still=1: its first picture only).
  const q = new URLSearchParams(location.search);
  for (const [key, ids] of [['level', ['watch-level', 'play-level']], ['seed', ['watch-seed', 'play-seed']],
    ['profile', ['watch-profile', 'play-profile']], ['speed', ['watch-speed']]]) {
    if (q.has(key)) for (const id of ids) document.getElementById(id).value = q.get(key);
  }
  document.getElementById('play-assist').checked = q.get('assist') === '1';
  watch.init(Number(q.get('ahead') || 0), q.get('still') === '1');
  an.init();
  play.init();
  window.nestor = {
    profiles: names, show, watchRun: watch.run, meter: watch.meter,
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
