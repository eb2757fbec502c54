// Make a Pyodide memory snapshot with tafl_rules already imported, so the browser worker skips
// Python's start-up (the slowest part of loading). Run by runtime.py at the end of every build:
//   node snapshot.mjs <served pyodide dir> <tafl_rules wheel file name> <output file> [build id]
// The snapshot is made from the same runtime files and the same wheel that the site serves, and
// names the build it was made for (tafl_rules.webapi.BUILD): the worker runs no other build's.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, wheel, output, build = ""] = process.argv.slice(2);
if (!/^[0-9a-f]*$/.test(build)) throw new Error(`a build id is hexadecimal, not ${build}`);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + path.sep, _makeSnapshot: true });
pyodide.FS.writeFile(`/tmp/${wheel}`, fs.readFileSync(path.join(dir, wheel)));
pyodide.runPython(`
import site, zipfile
with zipfile.ZipFile("/tmp/${wheel}") as archive:
    archive.extractall(site.getsitepackages()[0])
import tafl_rules, tafl_rules.webapi, tafl_rules.otn, tafl_rules.svg, tafl_rules.ai, tafl_rules.catalogue, tafl_rules.howto
tafl_rules.catalogue.variants()
tafl_rules.webapi.BUILD = "${build}"
`);
fs.writeFileSync(output, pyodide.makeMemorySnapshot());
