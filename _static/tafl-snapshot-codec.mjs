// The site's Pyodide memory snapshot, as sent: Pyodide's own snapshot (its header, then the whole
// WebAssembly memory), with the bytes that pyodide.asm.wasm's data segments put in memory XORed
// out of it. The 3.2 MB those segments fill are mostly unchanged by the time the snapshot is made,
// so they travel as zeros, and the brotli-compressed snapshot is about a quarter smaller. The
// worker (tafl-worker.mjs) decodes it with the same WebAssembly file it runs; snapshot.mjs (the
// build) encodes it. Pure functions on bytes, no Pyodide here.
//
// Layout: "TAFLSNP1", then u32 little-endian: the end of the data segments' bytes, a checksum of
// the decoded memory below that end, and 0; then Pyodide's snapshot.

const MAGIC = "TAFLSNP1";
const PREFIX = 20;

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function sleb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [byte & 0x40 ? value - 2 ** shift : value, at];
  }
}

/** The active data segments of a WebAssembly module: [{offset, start, end}] (the bytes are
 *  wasm.subarray(start, end), copied to memory at offset). */
export function dataSegments(wasm) {
  if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) throw new Error("not a WebAssembly module");
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at++];
    let size;
    [size, at] = leb(wasm, at);
    if (id !== 11) { at += size; continue; }
    const segments = [];
    let count;
    [count, at] = leb(wasm, at);
    for (let i = 0; i < count; i++) {
      let flags;
      [flags, at] = leb(wasm, at);
      if (flags !== 0) throw new Error(`data segment ${i}: only active segments of memory 0 are read (flags ${flags})`);
      if (wasm[at++] !== 0x41) throw new Error(`data segment ${i}: its offset is not a constant`);
      let offset;
      [offset, at] = sleb(wasm, at);
      if (wasm[at++] !== 0x0b) throw new Error(`data segment ${i}: its offset expression does not end`);
      let length;
      [length, at] = leb(wasm, at);
      segments.push({ offset, start: at, end: at + length });
      at += length;
    }
    return segments;
  }
  return [];
}

/** XOR the data segments' bytes into `memory` (a Uint8Array): encodes, and decodes again. */
function xorSegments(memory, wasm, segments) {
  for (const { offset, start, end } of segments) {
    const length = Math.min(end - start, memory.length - offset);
    for (let i = 0; i < length; i++) memory[offset + i] ^= wasm[start + i];
  }
}

/** FNV-1a over the 32-bit words of bytes[0, end) (bytes is 4-aligned in its buffer). */
function checksum(bytes, end) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, end >>> 2);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i], 0x01000193);
  return hash >>> 0;
}

function memoryOf(snapshot) {
  const header = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  return snapshot.subarray(header);
}

/** The snapshot as sent, from Pyodide's snapshot (left unchanged) and the WebAssembly file it ran. */
export function encodeSnapshot(snapshot, wasm) {
  const segments = dataSegments(wasm);
  const out = new Uint8Array(PREFIX + snapshot.length);
  out.set(snapshot, PREFIX);
  const memory = memoryOf(out.subarray(PREFIX));
  const end = Math.min(memory.length, segments.reduce((top, seg) => Math.max(top, seg.offset + seg.end - seg.start), 0));
  const sum = checksum(memory, end);
  xorSegments(memory, wasm, segments);
  out.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(out.buffer, out.byteOffset, PREFIX);
  view.setUint32(8, end, true);
  view.setUint32(12, sum, true);
  view.setUint32(16, 0, true);
  return out;
}

/** Pyodide's snapshot again (decoded in place, a view into `sent`), or an Error saying why not. */
export function decodeSnapshot(sent, wasm) {
  if (sent.length < PREFIX || new TextDecoder().decode(sent.subarray(0, 8)) !== MAGIC) {
    throw new Error("this is not a snapshot of this site (it does not begin with TAFLSNP1)");
  }
  const view = new DataView(sent.buffer, sent.byteOffset, PREFIX);
  const end = view.getUint32(8, true);
  const sum = view.getUint32(12, true);
  const snapshot = sent.subarray(PREFIX);
  const memory = memoryOf(snapshot);
  xorSegments(memory, wasm, dataSegments(wasm));
  if (end > memory.length || checksum(memory, end) !== sum) {
    throw new Error("the snapshot was made with another pyodide.asm.wasm than the one served");
  }
  return snapshot;
}
