// The browser runtime's two start-up files, made from the same Pyodide and wheel the site serves.
// Run by runtime.py at the end of every build:
//   node snapshot.mjs <served pyodide dir> <wheel file name> <snapshot out> <stdlib out> <Pyodide's python_stdlib.zip> <build id> <people-like player's model>
//
// 1. The standard library a board needs (tafl-stdlib.zip): every module that Pyodide's start, the
//    wheel's loading and a run of every request of tafl_rules.webapi import, compiled to bytecode
//    (so Python does not compile its sources at each start: 1.3 s instead of 5 s in Chromium at a
//    load of 12) as `python -OO` would (no docstrings or asserts: 15 % fewer bytes, and a snapshot
//    made from it 6 % smaller), and stored uncompressed (the server compresses the whole archive
//    better than zip compresses each file). About 200 of the 600 modules, 0.96 MB with brotli
//    instead of 2.5 MB; the worker fetches it only when it starts Python without the snapshot.
// 2. The memory snapshot (tafl-snapshot.bin): Python started from that library, with tafl_rules
//    imported and tafl_rules.webapi.BUILD set to the build id, the library taken off sys.path (a
//    board started from the snapshot fetches no library: everything it imports is in memory), and
//    the free memory zeroed (it compresses to nothing). Encoded by tafl-snapshot-codec.mjs.
// 3. Checks: the snapshot restored (with no library) and Python started from the library both
//    answer every request of the run in 1. A module missing from either fails the build here.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { decodeSnapshot, encodeSnapshot } from "./static/tafl-snapshot-codec.mjs";

const [dir, wheel, snapshotOut, stdlibOut, fullStdlib, build, model] = process.argv.slice(2);
if (!model) throw new Error("snapshot.mjs needs the build id and the people-like player's model (see its first lines)");
if (!/^[0-9a-f]*$/.test(build)) throw new Error(`a build id is hexadecimal, not ${build}`);
const indexURL = dir + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const wasm = new Uint8Array(fs.readFileSync(path.join(dir, "pyodide.asm.wasm")));
const quiet = { stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) };

// Everything a board asks of the worker, once (its answers are not kept).
const REQUESTS = `
import json
import tafl_rules.ai, tafl_rules.catalogue, tafl_rules.messages, tafl_rules.webapi as webapi
def ask(kind, **payload):
    return json.loads(webapi.handle(kind, json.dumps(payload)))
ask("hello"); ask("catalogue")
for entry in tafl_rules.catalogue.variants():
    state = ask("new", board="warm", variant=entry.id)
    source = sorted(state["legal"])[0]
    ask("play", board="warm", move=f"{source}-{state['legal'][source][0]}")
    ask("explain", board="warm", square=source)
    ask("undo", board="warm"); ask("redo", board="warm"); ask("goto", board="warm", ply=0)
    ask("import", board="warm", otn=ask("export", board="warm")["otn"])
ask("new", board="warm", variant="brandubh")
for level in (1, tafl_rules.ai.DEFAULT_LEVEL, "people"):
    answer = ask("ai_move", board="warm", level=level, seed=0)
    assert "error" not in answer, answer
ask("play", board="warm", move="a1-a1"); ask("no-such-request"); webapi.handle("play", "{not json")
# a Welsh page's requests: the catalogue is read now (a start from the snapshot has no package on disk)
for lang in tafl_rules.messages.LANGUAGES:
    answer = ask("new", board="warm", variant="brandubh", lang=lang)
    assert "error" not in answer, answer
    ask("play", board="warm", move="a1-a1", lang=lang)
webapi._sessions.clear()
`;

/** Run the requests in ``py``, with the people-like player's model where the package looks for it
 *  (the wheel leaves it out; in the browser the worker fetches it when the player is chosen). */
function runRequests(py) {
  const where = py.runPython("import tafl_rules.ai.people as p; str(p.MODEL_PATH)");
  py.FS.mkdirTree(path.posix.dirname(where));  // a restored snapshot has the package in memory, not on disk
  py.FS.writeFile(where, fs.readFileSync(model, "utf8"));
  py.runPython(REQUESTS);
  py.runPython("import os, tafl_rules.ai.people as p; os.remove(p.MODEL_PATH); p._load.cache_clear()");
}

// What the snapshot holds: the whole package, the catalogues of its words (files written here do
// not outlive the snapshot, only what Python holds), and no model (the browser fetches it).
const IMPORTS = `
import tafl_rules, tafl_rules.webapi, tafl_rules.otn, tafl_rules.svg, tafl_rules.ai, tafl_rules.catalogue, tafl_rules.howto
tafl_rules.catalogue.variants()
import tafl_rules.messages  # the other languages' words, read into memory (a snapshot's start has no files)
for lang in tafl_rules.messages.LANGUAGES: tafl_rules.messages.catalogue(lang)
import tafl_rules.ai.people  # its model is fetched when the people-like player is chosen, not read here
tafl_rules.webapi.BUILD = "${build}"
`;

// 1. The library: the modules a start and the requests import, as bytecode.
const full = await loadPyodide({ indexURL, stdLibURL: fullStdlib, ...quiet });
await full.loadPackage("tafl_rules", { messageCallback: () => {}, errorCallback: (m) => process.stderr.write(`${m}\n`) });
runRequests(full);
const library = full.runPython(`
import importlib._bootstrap_external as external, importlib.util, io, sys, zipfile
archive = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
used = {m.__spec__.origin[len(archive) + 1:] for m in list(sys.modules.values())
        if getattr(m, "__spec__", None) and (m.__spec__.origin or "").startswith(archive + "/")}
out = io.BytesIO()
with zipfile.ZipFile(archive) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as target:
    for name in sorted(used):
        text = source.read(name)
        code = compile(text, f"{archive}/{name}", "exec", dont_inherit=True, optimize=2)
        target.writestr(name + "c", bytes(external._code_to_hash_pyc(code, importlib.util.source_hash(text), False)))
out.getvalue()
`).toJs();
fs.writeFileSync(stdlibOut, library);

// 2. The snapshot, started from that library.
const pyodide = await loadPyodide({ indexURL, stdLibURL: stdlibOut, _makeSnapshot: true, env: { PYTHONHASHSEED: "0" }, ...quiet });
pyodide.FS.writeFile(`/tmp/${wheel}`, fs.readFileSync(path.join(dir, wheel)));
pyodide.runPython(`
import site, zipfile
with zipfile.ZipFile("/tmp/${wheel}") as archive:
    archive.extractall(site.getsitepackages()[0])
del archive
${IMPORTS}
import gc, sys, zipimport
sys.path[:] = [entry for entry in sys.path if not entry.endswith(".zip")]
sys.path_importer_cache.clear()
zipimport._zip_directory_cache.clear()
gc.collect()
`);
zeroFreeMemory(pyodide._module);
fs.writeFileSync(snapshotOut, encodeSnapshot(pyodide.makeMemorySnapshot(), wasm));

// 3. Both ways of starting answer every request.
const empty = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tafl-")), "empty.zip");
fs.writeFileSync(empty, Buffer.from("504b0506000000000000000000000000000000000000", "hex"));
const restored = await loadPyodide({ indexURL, stdLibURL: empty, _loadSnapshot: decodeSnapshot(new Uint8Array(fs.readFileSync(snapshotOut)), wasm), ...quiet });
if (restored.runPython("import tafl_rules.webapi; tafl_rules.webapi.BUILD") !== build) throw new Error("the snapshot does not name its build");
runRequests(restored);
const started = await loadPyodide({ indexURL, stdLibURL: stdlibOut, ...quiet });
await started.loadPackage("tafl_rules", { messageCallback: () => {} });
runRequests(started);
fs.rmSync(path.dirname(empty), { recursive: true });
process.exit(0);

/** Zero every byte the C allocator and Python's small-object allocator hold free, without growing
 *  the memory: garbage there would cost a megabyte compressed, zeros cost nothing. */
function zeroFreeMemory(M) {
  const size = M.HEAPU8.length;
  M._malloc_set_footprint_limit(M._malloc_footprint());
  const taken = [];
  for (let bytes = 512; bytes >= 16; bytes -= 16) {  // Python's size classes, then whatever is left
    for (let p = M._PyObject_Malloc(bytes); p; p = M._PyObject_Malloc(bytes)) {
      M.HEAPU8.fill(0, p, p + bytes);
      taken.push(p);
    }
  }
  for (let bytes = 1 << 24; bytes >= 16; bytes >>= 1) {
    for (let p = M._malloc(bytes); p; p = M._malloc(bytes)) {
      M.HEAPU8.fill(0, p, p + bytes);
      taken.push(-p);
    }
  }
  for (const p of taken) (p > 0 ? M._PyObject_Free(p) : M._free(-p));
  M._malloc_set_footprint_limit(-1 >>> 0);
  if (M.HEAPU8.length !== size) throw new Error("zeroing the free memory grew it");
}
