// The site's Pyodide memory snapshot, as sent. Pyodide's own snapshot is its header and then the
// whole WebAssembly memory (31 MB, most of it zeros); as sent:
// - the bytes that pyodide.asm.wasm's data segments put in memory are XORed out of it: the 3.2 MB
//   they fill are mostly unchanged by the time the snapshot is made, so they travel as zeros, and
//   the brotli-compressed snapshot is about a quarter smaller;
// - the pages of memory that are then all zeros are left out (a bitmap says which are there): the
//   browser decompresses a quarter of the bytes, and the worker copies no zeros.
// The worker (tafl-worker.mjs) decodes it with the same WebAssembly file it runs; snapshot.mjs (the
// build) encodes it. Pure functions on bytes, no Pyodide here.
//
// Layout: "TAFLSNP2"; u32 little-endian: the length of Pyodide's header, of the memory, the page
// size, the end of the data segments' bytes and a checksum of the decoded memory below that end;
// the bitmap of pages present (a bit a page, lowest bit first); Pyodide's header; the pages present.

const MAGIC = "TAFLSNP2";
const PREFIX = 28;
const PAGE = 4096;

/** A LEB128 number at bytes[at] (signed or not), and where the next thing starts. */
function leb(bytes, at, signed = false) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [signed && byte & 0x40 ? value - 2 ** shift : value, at];
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
      [offset, at] = leb(wasm, at, true);
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

function isZero(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  for (let i = 0; i < words.length; i++) if (words[i]) return false;
  return true;
}

/** The snapshot as sent, from Pyodide's snapshot (left unchanged) and the WebAssembly file it ran. */
export function encodeSnapshot(snapshot, wasm) {
  const header = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  const memory = snapshot.slice(header);
  const segments = dataSegments(wasm);
  const end = Math.min(memory.length, segments.reduce((top, seg) => Math.max(top, seg.offset + seg.end - seg.start), 0));
  const sum = checksum(memory, end);
  xorSegments(memory, wasm, segments);
  const pages = Math.ceil(memory.length / PAGE);
  const present = new Uint8Array(Math.ceil(pages / 8));
  const kept = [];
  for (let page = 0; page < pages; page++) {
    const bytes = memory.subarray(page * PAGE, (page + 1) * PAGE);
    if (isZero(bytes)) continue;
    present[page >> 3] |= 1 << (page & 7);
    kept.push(bytes);
  }
  const out = new Uint8Array(PREFIX + present.length + header + kept.reduce((n, bytes) => n + bytes.length, 0));
  out.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(out.buffer, out.byteOffset, PREFIX);
  [header, memory.length, PAGE, end, sum].forEach((value, i) => view.setUint32(8 + 4 * i, value, true));
  let at = PREFIX;
  for (const part of [present, snapshot.subarray(0, header), ...kept]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Pyodide's snapshot again, in a buffer of its own (`sent` is left as it came), or an Error
 *  saying why not. */
export function decodeSnapshot(sent, wasm) {
  if (sent.length < PREFIX || new TextDecoder().decode(sent.subarray(0, 8)) !== MAGIC) {
    throw new Error("this is not a snapshot of this site (it does not begin with TAFLSNP2)");
  }
  const view = new DataView(sent.buffer, sent.byteOffset, PREFIX);
  const [header, length, pageSize, end, sum] = [0, 1, 2, 3, 4].map((i) => view.getUint32(8 + 4 * i, true));
  const pages = Math.ceil(length / pageSize);
  const present = sent.subarray(PREFIX, PREFIX + Math.ceil(pages / 8));
  let at = PREFIX + present.length;
  const out = new Uint8Array(header + length);
  out.set(sent.subarray(at, at + header), 0);
  at += header;
  const memory = out.subarray(header);
  for (let page = 0; page < pages; page++) {
    if (!(present[page >> 3] & (1 << (page & 7)))) continue;
    const size = Math.min(pageSize, length - page * pageSize);
    if (at + size > sent.length) throw new Error("the snapshot is cut short");
    memory.set(sent.subarray(at, at + size), page * pageSize);
    at += size;
  }
  xorSegments(memory, wasm, dataSegments(wasm));
  if (end > length || checksum(memory, end) !== sum) {
    throw new Error("the snapshot was made with another pyodide.asm.wasm than the one served");
  }
  return out;
}
