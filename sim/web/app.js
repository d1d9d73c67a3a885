// The page (docs/web.md): a form for one of odds's commands (run, exact, compare) on a game, its
// rule options generated from `odds list --json`, played in web workers, one a core, each a
// shard. Shard I of N is played as SLICES slices (shards I..., of N * SLICES), so that progress
// shows and a stop keeps every slice finished; the slices are merged as `odds merge` merges
// shards, so a seed gives the command line's numbers whatever the number of workers. Every
// setting lives in the URL's fragment: a link reproduces the answer.
'use strict';

const SLICES = 16;       // the slices a worker's shard is played in
const MAX_WORKERS = 64;  // as --threads is bounded
const $ = (id) => document.getElementById(id);

// ---- Workers ------------------------------------------------------------------------------

class Pool {
  constructor(size) {
    this.workers = [];
    this.pending = new Map();
    this.next = 1;
    for (let i = 0; i < size; ++i) this.workers.push(this.spawn());
  }
  spawn() {
    const w = new Worker('worker.js');
    w.onmessage = (e) => {
      if (e.data.ready) return;
      const p = this.pending.get(e.data.id);
      this.pending.delete(e.data.id);
      if (p && e.data.error) p.reject(new Error(e.data.error));
      else if (p) p.resolve(e.data);
    };
    w.onerror = (e) => {
      for (const [id, p] of this.pending) if (p.worker === w) {
        this.pending.delete(id);
        p.reject(new Error(e.message || 'a worker failed'));
      }
    };
    return w;
  }
  // The answer of worker `i` to `message` ({request, files, clean, read}).
  call(i, message) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: this.workers[i] });
      this.workers[i].postMessage({ id, ...message });
    });
  }
  // Stops every worker now (whatever it is computing) and starts fresh ones: the requests under
  // way are rejected with `Stopped`.
  stopAll() {
    for (const w of this.workers) w.terminate();
    for (const [, p] of this.pending) p.reject(new Stopped());
    this.pending.clear();
    this.workers = this.workers.map(() => this.spawn());
  }
  resize(size) {
    while (this.workers.length > size) this.workers.pop().terminate();
    while (this.workers.length < size) this.workers.push(this.spawn());
  }
}

class Stopped extends Error {}
class Refused extends Error {}  // a command's own error: its one line

// The command's answer, or its one-line error thrown as Refused.
function checked(reply) {
  const a = reply.answer;
  if (a.code !== 0 && a.code !== 130) throw new Refused(a.err.trim().split('\n').pop() || 'failed');
  return reply;
}

// ---- Settings (the form, the URL) -----------------------------------------------------------

let games = [];
let pool = null;
let rulesText = '';   // a variant file's text, sent as --rules
let rulesName = '';
let running = null;   // {stop: () => void} while a command runs

// The form's defaults: the CLI's --seed, one worker a core.
function defaultOf(field) {
  return { seed: '1', workers: String(Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2)),
           playouts: '' }[field];
}

function game() { return games.find((g) => g.name === $('game').value) || games[0]; }
function command() { return document.querySelector('input[name=cmd]:checked').value; }

// Every setting of the form, as the URL's fragment holds it.
function settings() {
  const s = new URLSearchParams();
  s.set('game', game().name);
  s.set('cmd', command());
  for (const k of ['playouts', 'seed', 'workers'])  // as typed, where not the default
    if ($(k).value.trim() && $(k).value.trim() !== defaultOf(k)) s.set(k, $(k).value.trim());
  // Compare: every policy; else a seat's policy where it is not the game's default (as typed).
  const defaults = game().default_policy.split(' ');
  for (const sel of document.querySelectorAll('.policy')) {
    const v = sel.dataset.seat ? sel.dataset.seat + '=' + sel.value : sel.value;
    if (sel.value && (command() === 'compare' || !defaults.includes(v))) s.append('policy', v);
  }
  if (command() === 'compare')  // each variant on the same dice (odds compare --variant)
    for (const line of $('variants').value.split('\n'))
      if (line.trim()) s.append('variant', line.trim());
  for (const input of document.querySelectorAll('#options input'))
    if (input.value !== input.dataset.default) s.append('set', input.name + '=' + input.value);
  if (rulesText) { s.set('rules', rulesText); s.set('rules-name', rulesName); }
  if ($('position').value.trim()) s.set('state', $('position').value);
  return s;
}

function saveUrl() {
  history.replaceState(null, '', '#' + settings().toString());
}

function buildPolicies(g) {
  $('variants-box').hidden = command() !== 'compare';
  const box = $('policies');
  box.textContent = '';
  const compare = command() === 'compare';
  const seats = compare || g.seats.length < 2 ? [''] : g.seats;
  const count = compare ? Math.min(2, g.policies.length) : seats.length;  // compare: two to start
  for (let i = 0; i < count; ++i) {
    const label = document.createElement('label');
    const seat = compare ? '' : seats[i];
    label.textContent = compare ? 'policy ' + (i + 1) + ' ' : seat ? seat + ' ' : 'policy ';
    const sel = document.createElement('select');
    sel.className = 'policy';
    if (seat) sel.dataset.seat = seat;
    else if (!compare) sel.dataset.seat = '';
    for (const p of g.policies) {
      const o = document.createElement('option');
      o.value = p.name;
      o.textContent = p.name;
      o.title = p.help;
      sel.append(o);
    }
    sel.value = compare ? g.policies[Math.min(i, g.policies.length - 1)].name
                        : (g.default_policy.split(' ')[i] || g.default_policy).replace(/^.*=/, '');
    if (!g.policies.some((p) => p.name === sel.value)) sel.value = g.policies[0].name;
    label.append(sel);
    box.append(label);
  }
  if (compare) {
    const more = document.createElement('button');
    more.type = 'button';
    more.textContent = '+ policy';
    more.onclick = () => { addComparedPolicy(); saveUrl(); };
    box.append(more);
  }
}

// One more policy to compare: a copy of the last one's list, its next policy chosen.
function addComparedPolicy() {
  const box = $('policies');
  const labels = box.querySelectorAll('label');
  const last = labels[labels.length - 1];
  const copy = last.cloneNode(true);
  copy.firstChild.textContent = 'policy ' + (labels.length + 1) + ' ';
  const sel = copy.querySelector('select');
  const options = [...sel.options].map((o) => o.value);
  sel.value = options[(options.indexOf(last.querySelector('select').value) + 1) % options.length];
  box.insertBefore(copy, last.nextSibling);
  return sel;
}

// A loaded variant file's name, and how it meets the form: the file's values apply wherever the
// form keeps the book's, a value changed in the form (--set) goes over the file's.
function rulesNote() {
  return rulesName ? rulesName + ': its values apply where the form below keeps the book\'s' : '';
}

function buildOptions(g) {
  const table = $('options');
  table.textContent = '';
  for (const o of g.options) {
    const row = table.insertRow();
    const name = row.insertCell();
    name.textContent = o.name;
    const cell = row.insertCell();
    const input = document.createElement('input');
    input.name = o.name;
    input.value = o.default;
    input.dataset.default = o.default;
    input.title = o.help;
    input.onchange = saveUrl;
    cell.append(input);
    row.insertCell().textContent = o.help;
  }
}

function showGame() {
  const g = game();
  $('game-summary').textContent = g.summary;
  document.querySelector('input[value=exact]').disabled = !g.exact_solver;
  if (!g.exact_solver && command() === 'exact') document.querySelector('input[value=run]').checked = true;
  buildPolicies(g);
  buildOptions(g);
  $('position').value = '';
  // A position to edit where the game has them (odds state answers).
  $('position-box').hidden = !g.positions;
}

// The URL's settings into the form.
function loadUrl() {
  const s = new URLSearchParams(location.hash.slice(1));
  if (s.get('game') && games.some((g) => g.name === s.get('game'))) $('game').value = s.get('game');
  const cmd = document.querySelector('input[name=cmd][value="' + (s.get('cmd') || 'run') + '"]');
  if (cmd) cmd.checked = true;
  showGame();
  for (const k of ['playouts', 'seed', 'workers']) if (s.has(k)) $(k).value = s.get(k);
  const policies = s.getAll('policy');
  if (command() === 'compare') {  // in order, as many as the link has
    while (document.querySelectorAll('.policy').length < policies.length) addComparedPolicy();
    const sels = document.querySelectorAll('.policy');
    policies.forEach((p, i) => { sels[i].value = p; });
  } else {  // SEAT=NAME to its seat's list, NAME to the one list of a solo game
    for (const p of policies) {
      const eq = p.indexOf('=');
      const seat = eq < 0 ? '' : p.slice(0, eq);
      const sel = document.querySelector('.policy[data-seat="' + CSS.escape(seat) + '"]');
      if (sel) sel.value = p.slice(eq + 1);
    }
  }
  $('variants').value = s.getAll('variant').join('\n');
  for (const kv of s.getAll('set')) {
    const eq = kv.indexOf('=');
    const input = document.querySelector('#options input[name="' + CSS.escape(kv.slice(0, eq)) + '"]');
    if (input) input.value = kv.slice(eq + 1);
  }
  rulesText = s.get('rules') || '';
  rulesName = (s.get('rules-name') || (rulesText ? 'variant.toml' : '')).replace(/[^\w.\-]/g, '_');
  $('rules-name').textContent = rulesNote();
  $('position').value = s.get('state') || '';
}

// ---- Requests (sim/web/door.hpp) ------------------------------------------------------------

// The options the page gives each command (its declaration has more: sim/web/door.cpp).
const TAKES = {
  run: ['playouts', 'seed', 'policy', 'rules', 'set', 'state'],
  exact: ['policy', 'rules', 'set', 'state'],
  compare: ['playouts', 'seed', 'policy', 'variant', 'rules', 'set'],
  state: ['rules', 'set'],
};

// The form's settings as `cmd`'s options, [name, value] pairs by the command line's names, and
// the files they name: a variant file and the position, by their names in the module's working
// folder, so that a scenario names them as the command line's `--rules NAME --state
// position.txt` do. One list: the door's request and the command line shown are made from it.
function optionsOf(cmd) {
  const s = settings();
  const takes = (name) => TAKES[cmd].includes(name);
  const opts = [['game', s.get('game')]];
  const files = {};
  for (const name of ['playouts', 'seed', 'policy', 'variant'])
    if (takes(name)) for (const v of s.getAll(name)) opts.push([name, v]);
  if (rulesText && takes('rules')) {
    files['/' + rulesName] = rulesText;
    opts.push(['rules', rulesName]);
  }
  for (const kv of s.getAll('set')) opts.push(['set', kv]);
  if (s.get('state') && takes('state')) {
    files['/position.txt'] = s.get('state');
    opts.push(['state', 'position.txt']);
  }
  for (const [, v] of opts) if (/[\n\r]/.test(v)) throw new Refused('a setting holds a line break');
  return { opts, files };
}

// The command's request to the door (sim/web/door.hpp), the files it reads, and what to clear.
function request(cmd, extra) {
  const { opts, files } = optionsOf(cmd);
  const lines = [cmd].concat(opts.map(([n, v]) => n + '=' + v), extra);
  return { request: lines.join('\n'), files, clean: ['/out', '/shard'] };
}

// The command line that gives the same numbers, and the files offered, byte for byte.
function commandLine(cmd) {
  const quote = (a) => (/^[\w\-.\/=:,+@%]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'");
  const [game, ...rest] = optionsOf(cmd).opts;
  const args = ['odds', cmd, game[1]].concat(...rest.map(([n, v]) => ['--' + n, v]));
  return args.concat('--report', '--out', 'results').map(quote).join(' ');
}

function workers() {
  const n = parseInt($('workers').value, 10);
  if (!(n >= 1 && n <= MAX_WORKERS))
    throw new Refused("workers '" + $('workers').value + "' is not valid; give 1 to " + MAX_WORKERS);
  return n;
}

// ---- Running ---------------------------------------------------------------------------------

function status(text) { $('status').textContent = text; }
function progress(v) { $('progress').value = v; }

function showError(text) {
  $('error').textContent = text;
  $('error').hidden = false;
}

function showResult(cmd, reply, note) {
  $('result').hidden = false;
  $('command-line').textContent = commandLine(cmd);
  $('table').textContent = reply.answer.out;  // odds's stdout, byte for byte
  $('notes').textContent = note;
  const files = reply.files['/out'] || {};
  window.oddsFiles = files;  // the files offered below, by name (what a test reads)
  const links = $('downloads');
  for (const a of links.querySelectorAll('a')) URL.revokeObjectURL(a.href);
  links.textContent = '';
  for (const name of Object.keys(files).sort()) {
    if (name === 'report.html' || name.startsWith('.')) continue;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([files[name]], { type: 'text/csv' }));
    a.download = name.replace(/\//g, '-');
    a.textContent = name;
    links.append(a, ' ');
  }
  $('report').srcdoc = files['report.html'] || '';
  $('report').hidden = !files['report.html'];
}

// run and compare: the shards in the workers, then their merge.
async function playShards(cmd, state) {
  const n = workers();
  pool.resize(n);
  const total = n * SLICES;
  const shards = {};
  let done = 0;
  const base = request(cmd, ['report']);
  const started = performance.now();
  const busy = new Array(n).fill(0);  // each worker's seconds inside odds
  const worker = async (w) => {
    for (let j = 0; j < SLICES && !state.stopped; ++j) {
      const i = w * SLICES + j + 1;
      const reply = checked(await pool.call(w, {
        ...base, request: base.request + '\nshard=' + i + '/' + total + '\nout=/shard', read: ['/shard'],
      }));
      busy[w] += reply.seconds;
      Object.assign(shards, reply.files['/shard']);
      progress(++done / total);
      status(done + ' of ' + total + ' shards, ' + ((performance.now() - started) / 1000).toFixed(1) + ' s');
    }
  };
  const all = Promise.all([...Array(n).keys()].map(worker));
  state.stop = () => { state.stopped = true; pool.stopAll(); };
  try {
    await all;
  } catch (e) {
    if (!(e instanceof Stopped)) { if (!state.stopped) { state.stopped = true; pool.stopAll(); } throw e; }
  }
  const played = (performance.now() - started) / 1000;
  if (!Object.keys(shards).length) throw new Refused('stopped before any shard was played');
  status('merging ' + Object.keys(shards).length + ' shards');
  state.stop = () => {};  // the merge is not stopped: it is what the stop keeps
  $('stop').disabled = true;
  const files = { ...base.files };  // the position and variant file the command reads again
  for (const [name, text] of Object.entries(shards)) files['/merge/' + name] = text;
  const reply = await pool.call(0, {
    request: ['merge', 'dir=/merge', 'out=/out'].concat(state.stopped ? ['allow-gaps'] : []).join('\n'),
    files, clean: ['/merge', '/out'], read: ['/out'],
  });
  checked(reply);
  const seconds = (performance.now() - started) / 1000;
  return [reply, (state.stopped ? 'stopped: ' + done + ' of ' + total + ' shards played, the rest left out (partial); '
                                : '') + seconds.toFixed(2) + ' s on ' + n + (n === 1 ? ' worker' : ' workers') +
                 ' (playing ' + played.toFixed(2) + ' s, the busiest worker ' + Math.max(...busy).toFixed(2) +
                 ' s inside odds)'];
}

async function solveExact(state) {
  pool.resize(Math.max(1, pool.workers.length));
  const started = performance.now();
  state.stop = () => { state.stopped = true; pool.stopAll(); };
  status('solving');
  const reply = checked(await pool.call(0, { ...request('exact', ['report', 'out=/out']), read: ['/out'] }));
  return [reply, 'solved in ' + ((performance.now() - started) / 1000).toFixed(1) + ' s'];
}

async function play(event) {
  event.preventDefault();
  if (running) return;
  saveUrl();
  $('error').hidden = true;
  const cmd = command();
  const state = { stopped: false, stop: () => {} };
  running = state;
  $('play').disabled = $('opening').disabled = true;
  $('stop').disabled = false;
  progress(0);
  try {
    const [reply, note] = cmd === 'exact' ? await solveExact(state) : await playShards(cmd, state);
    progress(1);
    status(note);
    // Its notes, but not where it wrote its files in the module's file system: they are offered
    // below as downloads.
    const notes = reply.answer.err.split('\n').filter((l) => l && !/^odds \w+: wrote /.test(l));
    showResult(cmd, reply, notes.join('\n'));
  } catch (e) {
    if (e instanceof Stopped) status('stopped');
    else { status(''); showError(e instanceof Refused ? e.message : 'odds: ' + e.message); }
  } finally {
    running = null;
    $('play').disabled = $('opening').disabled = false;
    $('stop').disabled = true;
  }
}

async function openingPosition() {
  $('error').hidden = true;
  const reply = await pool.call(0, request('state', []));  // the variant's opening, if one
  if (reply.answer.code !== 0) showError(reply.answer.err.trim());
  else $('position').value = reply.answer.out;
  saveUrl();
}

async function main() {
  $('workers').value = Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2);
  pool = new Pool(1);
  const list = checked(await pool.call(0, { request: 'list\njson' }));
  games = JSON.parse(list.answer.out).games;
  for (const g of games)  // the games with positions: odds state prints their opening one
    g.positions = (await pool.call(0, { request: 'state\ngame=' + g.name })).answer.code === 0;
  for (const g of games) {
    const o = document.createElement('option');
    o.value = g.name;
    o.textContent = g.title;
    $('game').append(o);
  }
  loadUrl();
  $('game').onchange = () => { showGame(); saveUrl(); };
  for (const r of document.querySelectorAll('input[name=cmd]'))
    r.onchange = () => { buildPolicies(game()); saveUrl(); };
  $('form').onsubmit = play;
  $('form').onchange = saveUrl;
  $('stop').onclick = () => {
    $('stop').disabled = true;
    if (running) running.stop();
  };
  $('opening').onclick = openingPosition;
  $('clear-position').onclick = () => { $('position').value = ''; saveUrl(); };
  $('reset-rules').onclick = () => {
    rulesText = rulesName = '';
    $('rules-name').textContent = '';
    $('rules-file').value = '';
    buildOptions(game());
    saveUrl();
  };
  $('rules-file').onchange = async () => {
    const f = $('rules-file').files[0];
    if (!f) return;
    if (f.size > 1 << 20) { showError('the variant file ' + f.name + ' is over 1 MiB'); return; }
    rulesText = await f.text();
    rulesName = f.name.replace(/[^\w.\-]/g, '_');
    $('rules-name').textContent = rulesNote();
    saveUrl();
  };
  document.body.dataset.ready = 'true';
  status('ready');
  if (new URLSearchParams(location.hash.slice(1)).has('go')) $('play').click();
}

// Offline once loaded (sim/web/sw.js); a page opened from a file has no service worker.
if ('serviceWorker' in navigator && location.protocol !== 'file:')
  navigator.serviceWorker.register('sw.js').catch(() => {});
main().catch((e) => showError('odds: the page could not start: ' + e.message));
