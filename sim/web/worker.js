// One worker of the page (docs/web.md): an instance of odds's WebAssembly module, answering the
// page's requests one at a time. A request is odds's own (sim/web/door.hpp): a command and its
// options by the command line's names. Files travel as text: `files` are written into the
// module's file system before the command, the folders in `read` are read back after it.
'use strict';
importScripts('odds.js');

const ready = OddsModule();

function removeTree(FS, path) {
  let st;
  try { st = FS.stat(path); } catch (e) { return; }
  if (FS.isDir(st.mode)) {
    for (const name of FS.readdir(path))
      if (name !== '.' && name !== '..') removeTree(FS, path + '/' + name);
    FS.rmdir(path);
  } else {
    FS.unlink(path);
  }
}

function makeDirs(FS, dir) {
  let at = '';
  for (const part of dir.split('/').filter(Boolean)) {
    at += '/' + part;
    try { FS.mkdir(at); } catch (e) { /* there already */ }
  }
}

// Every file under `dir`, by its path below it, as text.
function readTree(FS, dir, into, prefix) {
  let names;
  try { names = FS.readdir(dir); } catch (e) { return into; }
  for (const name of names) {
    if (name === '.' || name === '..') continue;
    const path = dir + '/' + name;
    if (FS.isDir(FS.stat(path).mode)) readTree(FS, path, into, prefix + name + '/');
    else into[prefix + name] = FS.readFile(path, { encoding: 'utf8' });
  }
  return into;
}

self.onmessage = async (event) => {
  const { id, request, files = {}, clean = [], read = [] } = event.data;
  try {
    const odds = await ready;
    for (const dir of clean) removeTree(odds.FS, dir);
    for (const [path, text] of Object.entries(files)) {
      makeDirs(odds.FS, path.slice(0, path.lastIndexOf('/')));
      odds.FS.writeFile(path, text);
    }
    const started = performance.now();
    const answer = JSON.parse(odds.ccall('odds_call', 'string', ['string'], [request]));
    const seconds = (performance.now() - started) / 1000;
    const out = {};
    for (const dir of read) out[dir] = readTree(odds.FS, dir, {}, '');
    self.postMessage({ id, answer, files: out, seconds });
  } catch (e) {  // the module failed to load, or trapped: the page says so instead of waiting
    self.postMessage({ id, error: String(e && e.message || e) });
  }
};
ready.then(() => self.postMessage({ ready: true }));
