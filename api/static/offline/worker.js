// The rules on the tablet: a module worker that starts Pyodide (CPython in WebAssembly),
// unpacks chronicle's rules archive (the `projections` package the server runs, marshmallow
// and api/offline/table.py) and answers the page's requests with the table's Python. No
// rule is here: this file only carries JSON text to `offline_table.call` and back, off
// the page's thread so the buttons stay live while Python starts.
// Messages in: {id, method, args}; out: {id, ok} | {id, error: {code, message}}, and one
// {ready: {ms, phases}} or {failed: message} when the start is over.
import {loadPyodide} from "/offline/pyodide/pyodide.mjs";

const started = performance.now();
const phases = {};
const mark = (name, since) => { phases[name] = Math.round(performance.now() - since); };

async function start() {
  const assets = await (await fetch("/offline/assets.json")).json();
  if (!assets.available) throw new Error(assets.reason);
  let t = performance.now();
  const [py, archive] = await Promise.all([
    loadPyodide({indexURL: assets.pyodide, stdout: () => {}, stderr: (s) => console.warn(s)}),
    fetch(assets.rules).then((r) => {
      if (!r.ok) throw new Error(`the rules archive: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  mark("runtime", t); t = performance.now();
  py.unpackArchive(new Uint8Array(archive), "zip", {extractDir: "/home/pyodide/chronicle"});
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/chronicle')");
  const call = py.pyimport("offline_table").call;
  mark("rules", t);
  return call;
}

const ready = start();
ready.then(() => postMessage({ready: {ms: Math.round(performance.now() - started), phases}}),
  (err) => postMessage({failed: String((err && err.message) || err)}));

onmessage = async (e) => {
  const {id, method, args} = e.data;
  try {
    const call = await ready;
    postMessage({id, ...JSON.parse(call(method, JSON.stringify(args || {})))});
  } catch (err) {
    postMessage({id, error: {code: "offline_rules_failed", message: String((err && err.message) || err)}});
  }
};
