// The page's worker: runs libferry (ferry.js + ferry.wasm) off the main
// thread. It holds what was dropped as a tree of File objects and gives the
// library a file source over it (web/src/ferry_web.c: Module.ferryDrop's
// size, read and list), reading files synchronously with FileReaderSync, so
// that the library's own lookups (textures, animations, addon prefixes) run
// over the dropped files. Nothing is fetched but the module itself.
//
// Messages: {id, op, args} in, {id, result} or {id, error} out (client.js).
import createFerry from '../ferry.js';

let M = null;          // the module
let session = 0;       // fw_session *
let formats = null;    // the format table (fw_formats)
const root = { name: '', children: new Map() };   // the drop: folders hold children, files a File
const assets = new Map();   // handle id -> {ptr, path, archive, name}
const sims = new Map();     // sim id -> {ptr, asset, seed, ground}
let nextId = 1;

// ---- the drop as a tree ----

function split(path) { return path.split('/').filter(s => s.length > 0); }

function nodeAt(path) {
  let n = root;
  for (const part of split(path)) {
    if (!n.children) return null;
    n = n.children.get(part);
    if (!n) return null;
  }
  return n;
}

function addFile(path, node) {
  const parts = split(path);
  let n = root;
  for (let i = 0; i < parts.length - 1; i++) {
    let c = n.children.get(parts[i]);
    if (!c) { c = { name: parts[i], children: new Map() }; n.children.set(parts[i], c); }
    if (!c.children) return false;   // a file of that name is there already
    n = c;
  }
  const name = parts[parts.length - 1];
  const old = n.children.get(name);
  if (old && old.children) return false;
  n.children.set(name, { name, ...node });
  return true;
}

const reader = new FileReaderSync();
function readBlob(blob) { return new Uint8Array(reader.readAsArrayBuffer(blob)); }

// A file `ferry view` serves (files/index.json): read over HTTP from the
// server the page came from, synchronously (a worker may), a byte range at
// a time where only a part is needed.
function readRemote(url, start, end) {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url, false);
  xhr.responseType = 'arraybuffer';
  if (start !== undefined) xhr.setRequestHeader('Range', `bytes=${start}-${end - 1}`);
  xhr.send(null);
  if (xhr.status !== 200 && xhr.status !== 206) throw new Error(`${url}: HTTP ${xhr.status}`);
  return new Uint8Array(xhr.response);
}

// The whole of a node's file, or its bytes [start, end).
function readNode(n, start, end) {
  if (n.url) {
    if (start !== undefined && end <= start) return new Uint8Array(0);
    return readRemote(n.url, start, end);
  }
  return readBlob(start === undefined ? n.file : n.file.slice(start, end));
}
function nodeSize(n) { return n.url ? n.size : n.file.size; }

// What ferry_web.c's file source calls.
const ferryDrop = {
  size(path) {
    const n = nodeAt(path);
    if (!n) return -1;
    return n.children ? -2 : nodeSize(n);
  },
  read(path) { return readNode(nodeAt(path)); },
  // Bytes [offset, offset + size) of a file, fewer at its end: what an
  // archive read through the page asks for (its tables, an entry).
  readRange(path, offset, size) {
    const n = nodeAt(path);
    if (!n || n.children) throw new Error(`${path}: no such file among those dropped`);
    const end = Math.min(offset + size, nodeSize(n));
    return offset >= end ? new Uint8Array(0) : readNode(n, offset, end);
  },
  list(path) {
    const n = nodeAt(path);
    if (!n || !n.children) return null;
    return [...n.children.values()].map(c => ({ name: c.name, folder: !!c.children }));
  },
};

// ---- strings and memory ----

function takeString(ptr) {
  if (!ptr) return null;
  const s = M.UTF8ToString(ptr);
  M._fw_free(ptr);
  return s;
}
function takeJson(ptr) { const s = takeString(ptr); return s === null ? null : JSON.parse(s); }

function withString(text, fn) {
  const n = M.lengthBytesUTF8(text) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(text, p, n);
  try { return fn(p); } finally { M._free(p); }
}

function copyIn(bytes) {
  const p = M._malloc(bytes.length || 1);
  if (!p) throw new Error(`out of memory for ${bytes.length} bytes`);
  M.HEAPU8.set(bytes, p);
  return p;
}

function formatRow(id) { return formats.formats.find(f => f.id === id) || null; }

// A file whose first bytes are an archive's (MEG, PBO), as `ferry info`
// and `ferry list` tell one: read through the page. Anything else is read
// whole, so that it is refused with the tool's message.
const IS_ARCHIVE = 1 << 6;
function isArchive(n) {
  const row = formatRow(n.format);
  return !!(row && (row.caps & IS_ARCHIVE));
}

// An open asset by its id; one closed since (a view gone) is an error.
function asset(id) {
  const h = assets.get(id);
  if (!h) throw new Error('the file was closed');
  return h;
}

// ---- operations ----

const ops = {
  async init() {
    M = await createFerry();
    M.ferryDrop = ferryDrop;
    session = M._fw_session_new();
    formats = takeJson(M._fw_formats());
    return { formats };
  },

  // files: [{path, file}] (dropped) or [{path, url, size}] (served by
  // `ferry view`). Returns each file's format, told from its first bytes
  // (the whole file is read only when it is opened).
  add({ files }) {
    const added = [];
    for (const f of files) {
      const node = f.url ? { url: f.url, size: f.size } : { file: f.file };
      const path = f.path;
      if (!addFile(path, node)) { added.push({ path, size: nodeSize(node), refused: 'a folder of that name was dropped' }); continue; }
      let head;
      try { head = readNode(node, 0, Math.min(formats.detect_head, nodeSize(node))); }
      catch (e) { added.push({ path, size: nodeSize(node), refused: String(e.message || e) }); continue; }
      const p = copyIn(head);
      const id = M._fw_detect(p, head.length);
      M._free(p);
      const byName = withString(path, s => M._fw_format_from_name(s));
      const namedLikeAsset = withString(path, s => M._fw_named_like_asset(s)) !== 0;
      const stored = nodeAt(path);   // addFile stored a copy of node
      stored.format = id;
      stored.byName = byName;
      added.push({ path, size: nodeSize(node), format: id, byName, namedLikeAsset });
    }
    M._fw_session_drop_changed(session);
    return { added };
  },

  clear() {
    for (const id of [...sims.keys()]) ops.simFree({ sim: id });
    for (const id of [...assets.keys()]) ops.close({ id });
    root.children.clear();
    M._fw_session_drop_changed(session);
    return {};
  },

  // Opens a dropped file ({path}) or an archive's entry ({archive: id,
  // index}) as an asset.
  open({ path, archive, index }) {
    let ptr;
    let name;
    const timing = {};
    let t = performance.now();
    const lap = (k) => { const now = performance.now(); timing[k] = now - t; t = now; };
    if (archive !== undefined) {
      const a = assets.get(archive);
      if (!a) throw new Error('no such archive');
      ptr = M._fw_archive_entry_open(a.ptr, index);
      if (!ptr) throw new Error(M.UTF8ToString(M._fw_error(a.ptr)) || `entry ${index} could not be read`);
      name = `${a.path}:${index}`;
    } else {
      const n = nodeAt(path);
      if (!n || n.children) throw new Error(`${path}: no such file among those dropped`);
      if (isArchive(n)) {
        // Never read whole: its tables through the page (readRange), its
        // entries when opened.
        ptr = withString(path, ps => M._fw_open_archive(session, ps, nodeSize(n), n.format));
        lap('tables');
      } else {
        const bytes = readNode(n);
        lap('read');
        const p = copyIn(bytes);
        lap('copy');
        ptr = withString(path, ps => M._fw_open(session, p, bytes.length, ps, 0, ps));
        lap('open');
      }
      name = path;
    }
    if (!ptr) throw new Error('out of memory');
    const id = nextId++;
    const format = M._fw_format(ptr);
    const readable = M._fw_readable(ptr) !== 0;
    const h = { ptr, path: name, format };
    assets.set(id, h);
    const out = { id, format, formatName: formatRow(format)?.name || 'unknown', readable };
    if (!readable) out.error = M.UTF8ToString(M._fw_error(ptr));
    else out.info = takeJson(M._fw_info(ptr, 0));
    lap('info');
    out.levels = M._fw_texture_levels(ptr);
    if (readable && formatRow(format) && (formatRow(format).caps & 64)) {
      const count = M._fw_archive_open(ptr);
      if (count < 0) out.archiveError = M.UTF8ToString(M._fw_error(ptr));
      else out.entries = takeJson(M._fw_info(ptr, 2));
      lap('entries');
    }
    out.timing = timing;
    return out;
  },

  close({ id }) {
    const h = assets.get(id);
    if (!h) return {};
    for (const [sid, s] of sims) if (s.asset === id) ops.simFree({ sim: sid });
    M._fw_close(h.ptr);
    assets.delete(id);
    return {};
  },

  info({ id, detail }) {
    const h = asset(id);
    return { info: takeJson(M._fw_info(h.ptr, detail || 0)), error: M.UTF8ToString(M._fw_error(h.ptr)) };
  },

  validate({ id }) { return takeJson(M._fw_validate(asset(id).ptr)); },

  // Every dropped file that ferry validates (by content, or named like an
  // asset: ferry_format_named_like_asset), one report each.
  validateAll() {
    const reports = [];
    const walk = (n, prefix) => {
      for (const c of n.children.values()) {
        const p = prefix ? `${prefix}/${c.name}` : c.name;
        if (c.children) { walk(c, p); continue; }
        const head = readNode(c, 0, Math.min(formats.detect_head, nodeSize(c)));
        const hp = copyIn(head);
        const format = M._fw_detect(hp, head.length);
        M._free(hp);
        const row = formatRow(format);
        const named = withString(p, s => M._fw_named_like_asset(s)) !== 0;
        if (!(row && (row.caps & 4)) && !named) continue;
        const o = ops.open({ path: p });
        const r = ops.validate({ id: o.id });
        ops.close({ id: o.id });
        reports.push(r);
      }
    };
    walk(root, '');
    return { reports };
  },

  // The asset as a .glb (fw_export): {report, glb}.
  export({ id, options }) {
    const h = asset(id);
    const report = takeJson(withString(JSON.stringify(options || {}), s => M._fw_export(h.ptr, s)));
    let glb = null;
    if (report.ok) {
      const p = M._fw_glb_data(h.ptr), n = M._fw_glb_size(h.ptr);
      glb = M.HEAPU8.slice(p, p + n).buffer;
      M._fw_glb_release(h.ptr);
    }
    return { report, glb, transfer: glb ? [glb] : [] };
  },

  almTriangleCounts({ id }) { return { counts: takeJson(M._fw_alm_triangle_counts(asset(id).ptr)) }; },

  texture({ id, level }) {
    const h = asset(id);
    const img = M._fw_texture(h.ptr, level || 0);
    if (!img) throw new Error(M.UTF8ToString(M._fw_error(h.ptr)));
    return imageResult(img);
  },

  // ---- particle systems ----

  // The particle view of a particle system or of an ALO model (the systems
  // on its proxies, found and placed by the library): {sim, systems,
  // emitters, messages} (fw_sim_describe).
  simNew({ id, seed, ground, noGround }) {
    const h = asset(id);
    const s = BigInt.asUintN(64, BigInt(seed || 0));
    const ptr = M._fw_sim_new(h.ptr, Number(s & 0xffffffffn), Number(s >> 32n), ground || 0, noGround ? 1 : 0);
    if (!ptr) throw new Error(M.UTF8ToString(M._fw_error(h.ptr)));
    const sim = nextId++;
    sims.set(sim, { ptr, asset: id });
    return { sim, ...takeJson(M._fw_sim_describe(ptr)) };
  },

  simFree({ sim }) {
    const s = sims.get(sim);
    if (s) { M._fw_sim_free(s.ptr); sims.delete(sim); }
    return {};
  },

  // The colour texture of each emitter (over every system placed), found and
  // decoded by the library's particle view (textures: [{name, width,
  // height, rgba} | {name, missing}]), the glow drawn for one not found,
  // and what the view said (messages).
  simTextures({ sim }) {
    const s = sims.get(sim);
    if (!s) throw new Error('the simulation was closed');
    const { emitters } = takeJson(M._fw_sim_describe(s.ptr));
    const cache = new Map();
    const textures = emitters.map(e => {
      const name = e.texture;
      if (!name) return { name, missing: 'no texture named' };
      if (cache.has(name)) return cache.get(name);
      const img = withString(name, p => M._fw_sim_texture(s.ptr, p));
      let t;
      if (!img) t = { name, missing: 'not found' };
      else {
        const w = M._fw_view_image_width(img), hh = M._fw_view_image_height(img), p = M._fw_view_image_rgba(img);
        t = { name, width: w, height: hh, rgba: M.HEAPU8.slice(p, p + w * hh * 4).buffer };
      }
      cache.set(name, t);
      return t;
    });
    const glow = imageResult(M._fw_glow_image(64), false);
    const { messages } = takeJson(M._fw_sim_describe(s.ptr));
    const transfer = [glow.rgba, ...new Set(textures.filter(t => t.rgba).map(t => t.rgba))];
    return { textures, glow, messages, transfer };
  },

  // Advances to `time` (a simulation cannot go back: an earlier time starts
  // it again), then the sprites seen from camera [eye, target, up, fov_y]
  // (null: framed on the live particles, fw_camera_frame), back to front.
  simFrame({ sim, time, camera, aspect, particles }) {
    const s = sims.get(sim);
    if (!s) throw new Error('the simulation was closed');
    if (time < M._fw_sim_time(s.ptr) && !M._fw_sim_restart(s.ptr)) throw new Error('the simulation could not start again');
    M._fw_sim_advance(s.ptr, time);
    const buf = M._malloc(16 * 4);
    let framed = null;
    if (!camera) {
      if (M._fw_sim_bounds(s.ptr, buf)) {
        M._fw_camera_frame(buf, aspect || 1, buf + 6 * 4);
        framed = Array.from(M.HEAPF32.subarray((buf >> 2) + 6, (buf >> 2) + 16));
      }
      camera = framed;
    }
    let sprites = new Float32Array(0);
    if (camera) {
      M.HEAPF32.set(camera, buf >> 2);
      const n = M._fw_sim_sprites(s.ptr, buf);
      if (n > 0) {
        const p = M._fw_sim_sprite_data(s.ptr) >> 2;
        sprites = M.HEAPF32.slice(p, p + n * M._fw_sprite_floats());
      }
    }
    M._free(buf);
    const warnings = [];
    const bits = M._fw_sim_warnings(s.ptr);
    for (let b = 0; b < 7; b++) if (bits & (1 << b)) warnings.push(M.UTF8ToString(M._fw_sim_warning_text(1 << b)));
    const out = { time: M._fw_sim_time(s.ptr), count: M._fw_sim_count(s.ptr), sprites, framed, warnings,
                  floats: M._fw_sprite_floats(), transfer: [sprites.buffer] };
    if (particles) out.particles = takeJson(M._fw_sim_particles(s.ptr));
    return out;
  },
};

function imageResult(img, transfer = true) {
  const w = M._fw_image_width(img), h = M._fw_image_height(img), p = M._fw_image_rgba(img);
  const rgba = M.HEAPU8.slice(p, p + w * h * 4).buffer;
  M._fw_image_free(img);
  return transfer ? { width: w, height: h, rgba, transfer: [rgba] } : { width: w, height: h, rgba };
}

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    if (!ops[op]) throw new Error(`unknown operation ${op}`);
    if (op !== 'init' && !M) throw new Error('the module is not loaded');
    const result = await ops[op](args || {});
    const transfer = result.transfer || [];
    delete result.transfer;
    self.postMessage({ id, result }, transfer);
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message || err) });
  }
};
