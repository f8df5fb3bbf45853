// The page: the drop, the tree of what was dropped, the view of the selected
// file (model, particle system, texture, archive), its info and validation.
// Every format question goes to libferry in the worker (worker.js); this
// file only lays out what it answers.
import { FerryClient } from './client.js';
import { ModelView } from './model-view.js';
import { ParticleLayer, ParticleView } from './particle-view.js';
import { TextureView } from './texture-view.js';

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
};

const client = new FerryClient(new URL('./worker.js', import.meta.url));
let formats = [];
const FORMAT_UNKNOWN = 0;
const CAN_VALIDATE = 1 << 2, CAN_TO_SCENE = 1 << 4, IS_ARCHIVE = 1 << 6;
const IMAGE_NAME = /\.(dds|tga|png)$/i;

// Every item of the tree by key: a dropped file's path, or
// ARCHIVE_PATH::INDEX for an archive's entry.
const items = new Map();
let selected = null;     // key
let current = null;      // {key, asset (worker id), view, kind, ...}
let selectSerial = 0;

function row(id) { return formats.find(f => f.id === id) || null; }
function status(text) { $('status').textContent = text; }
function humanSize(n) {
  return n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KB` : `${(n / (1 << 20)).toFixed(1)} MB`;
}

// What the view shows for a format: models (anything ferry makes a scene
// of, but particle systems), particle systems, textures, archives.
function kindOf(format, name) {
  const r = row(format);
  if (r && r.key === 'particle') return 'particle';
  if (r && r.key === 'paa') return 'texture';
  if (r && (r.caps & IS_ARCHIVE)) return 'archive';
  if (r && (r.caps & CAN_TO_SCENE)) return 'model';
  if ((!r || format === FORMAT_UNKNOWN) && IMAGE_NAME.test(name)) return 'texture';
  return 'other';
}

function formatLabel(item) {
  if (item.format > 0) return row(item.format)?.name || 'unknown';
  if (item.kind === 'texture') return 'image';
  if (item.format === -1 && item.byName > 0) return `${row(item.byName)?.name || '?'} (by name)`;
  return 'unknown';
}

// ---- the tree ----

// Each list's folders by name (a Map on the element), so that adding
// thousands of entries looks nothing up in the document.
function folderIn(ul, name) {
  ul.folders = ul.folders || new Map();
  let sub = ul.folders.get(name);
  if (!sub) {
    sub = el('ul', { role: 'group' });
    const li = el('li', { class: 'folder open' },
      el('div', { class: 'row', onclick: () => li.classList.toggle('open') }, el('span', { class: 'name' }, name)), sub);
    ul.append(li);
    ul.folders.set(name, sub);
  }
  return sub;
}

function addToTree(parentUl, key, label, item) {
  const parts = label.split(/[\\/]/).filter(Boolean);
  let ul = parentUl;
  for (let i = 0; i < parts.length - 1; i++) ul = folderIn(ul, parts[i]);
  const name = parts[parts.length - 1] || label;
  const li = el('li', { class: item.error ? 'bad' : '', 'data-key': key },
    el('div', { class: 'row', title: item.error || `${label} (${humanSize(item.size || 0)})`, onclick: () => select(key) },
      el('span', { class: 'name' }, name), el('span', { class: 'fmt' }, formatLabel(item))));
  ul.append(li);
  item.li = li;
  return li;
}

async function addFiles(list) {
  if (!list.length) return [];
  list = [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  status(`reading ${list.length} file(s)...`);
  const { added } = await client.call('add', { files: list });
  for (const a of added) {
    const item = { key: a.path, path: a.path, size: a.size, format: a.format, byName: a.byName,
                   namedLikeAsset: a.namedLikeAsset, error: a.refused };
    item.kind = kindOf(a.format, a.path);
    items.set(a.path, item);
    addToTree($('tree'), a.path, a.path, item);
  }
  status(`${items.size} file(s) dropped`);
  // One file dropped: shown at once.
  if (added.length === 1 && !added[0].refused) await select(added[0].path);
  return added;
}

// Files and folders from a drop (DataTransferItem.webkitGetAsEntry walks
// folders) or from the file inputs (webkitRelativePath).
async function filesFromDrop(dt) {
  const entries = [...dt.items].map(i => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
  const out = [];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      out.push({ path: prefix + entry.name, file: await new Promise((res, rej) => entry.file(res, rej)) });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const e of batch) await walk(e, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e, '');
  if (!entries.length) for (const f of dt.files) out.push({ path: f.name, file: f });
  return out;
}

function filesFromInput(input) {
  return [...input.files].map(f => ({ path: f.webkitRelativePath || f.name, file: f }));
}

// ---- selection ----

async function closeCurrent() {
  if (!current) return;
  if (current.view) current.view.dispose();
  if (current.asset && !current.keepOpen) await client.call('close', { id: current.asset });
  current = null;
  $('toolbar').replaceChildren();
  $('stage').replaceChildren();
}

function stageMessage(text, error = false) {
  $('stage').append(el('div', { class: `message${error ? ' error' : ''}` }, text));
}

// Opens and shows an item; resolves to what was shown (the test hooks'
// window.ferryViewer.select).
async function select(key) {
  const item = items.get(key);
  if (!item) throw new Error(`${key}: not in the tree`);
  const serial = ++selectSerial;
  const t0 = performance.now();
  if (selected && items.get(selected)?.li) items.get(selected).li.querySelector('.row').classList.remove('selected');
  selected = key;
  item.li?.querySelector('.row').classList.add('selected');
  await closeCurrent();
  $('info').textContent = '';
  $('report-file').replaceChildren();
  status(`opening ${key}...`);
  const result = { key, kind: item.kind };
  try {
    let opened;
    if (item.archiveKey !== undefined) {
      opened = await client.call('open', { archive: items.get(item.archiveKey).asset, index: item.index });
    } else if (item.kind === 'archive' && item.asset) {
      opened = item.opened;
    } else {
      opened = await client.call('open', { path: item.path });
    }
    result.timing = { ...opened.timing, worker: performance.now() - t0 };
    if (serial !== selectSerial) { if (!(item.kind === 'archive')) client.call('close', { id: opened.id }); return { superseded: true }; }
    if (item.format !== opened.format) {
      item.format = opened.format;
      const fmt = item.li?.querySelector('.fmt');
      if (fmt) fmt.textContent = formatLabel(item);
    }
    item.kind = kindOf(opened.format, item.path);
    result.kind = item.kind;
    result.format = opened.formatName;
    current = { key, asset: opened.id, kind: item.kind, keepOpen: item.kind === 'archive' };
    $('info').textContent = JSON.stringify(opened.info ?? { error: opened.error }, null, 1);
    if (!opened.readable && item.kind !== 'texture') {
      item.error = opened.error;
      item.li?.classList.add('bad');
      result.error = opened.error;
      stageMessage(`${key}: ${opened.error}`, true);
    } else if (item.kind === 'model') {
      Object.assign(result, await showModel(item, opened));
    } else if (item.kind === 'particle') {
      Object.assign(result, await showParticles(item, opened));
    } else if (item.kind === 'texture') {
      Object.assign(result, await showTexture(item, opened));
    } else if (item.kind === 'archive') {
      const tTree = performance.now();
      Object.assign(result, showArchive(item, opened));
      result.timing.tree = performance.now() - tTree;
    } else {
      stageMessage(`${opened.formatName}: its info and validation are on the right.`);
    }
    result.shownMs = performance.now() - t0;
    if (item.kind === 'archive' && opened.readable) {
      // An archive's check reads every entry: asked for, not on opening.
      const n = (opened.entries?.files || []).length;
      $('report-file').append(el('button', { type: 'button', onclick: async (e) => {
        e.target.disabled = true;
        renderReport($('report-file'), [await client.call('validate', { id: opened.id })], false);
      } }, `Check the archive and its ${n} entries`));
    } else {
      const report = await client.call('validate', { id: opened.id });
      result.validation = report;
      renderReport($('report-file'), [report], false);
    }
  } catch (e) {
    result.error = String(e.message || e);
    stageMessage(`${key}: ${result.error}`, true);
  }
  result.ms = performance.now() - t0;
  status(result.error ? `${key}: ${result.error}` : `${key}: ${result.format || ''} (${result.ms.toFixed(0)} ms)`);
  return result;
}

// ---- models ----

async function exportModel(opened, options) {
  const { report, glb } = await client.call('export', { id: opened.id, options });
  if (!report.ok) throw new Error(report.error);
  return { report, glb };
}

async function showModel(item, opened) {
  const view = new ModelView($('stage'));
  current.view = view;
  const state = { all: false, options: {} };
  const out = {};
  const { report, glb } = await exportModel(opened, state.options);
  const tExport = performance.now();
  const gltf = await view.show(glb);
  out.report = report;
  out.glbSize = glb.byteLength;
  out.firstFrameAt = performance.now();
  out.exportedAt = tExport;
  buildModelToolbar(item, opened, view, gltf, report, state);
  out.stats = view.stats();
  if (row(opened.format)?.key === 'alo') {
    const t = performance.now();
    out.particles = await showModelParticles(opened, view);
    out.particles.ms = performance.now() - t;
  }
  return out;
}

// The particle systems an ALO model's proxies name, found and placed by the
// library (ferry_particle_view_open, as `ferry render MODEL.alo` places
// them), drawn on the model and animated; a toolbar group to show, play,
// scrub and seed them.
async function showModelParticles(opened, view) {
  const layer = new ParticleLayer(client, { depthTest: true });
  let d;
  try {
    d = await layer.open(opened.id, { seed: 0 });
  } catch (e) {
    layer.dispose();
    return { error: String(e.message || e) };
  }
  const notes = layer.messages.filter(m => m.kind !== 'note').map(m => m.text);
  if (!d.systems.length) {
    layer.dispose();
    if (notes.length) $('toolbar').append(el('span', { class: 'group note', title: notes.join('\n') }, `particles: ${notes[0]}`));
    return { systems: 0, messages: layer.messages };
  }
  if (current?.view !== view) { layer.dispose(); return { superseded: true }; }
  view.setParticles(layer, 0, true);
  const show = el('input', { type: 'checkbox', checked: true, onchange: (e) => view.setParticlesVisible(e.target.checked) });
  const play = el('button', { type: 'button', 'aria-pressed': 'true' }, 'Pause');
  const time = el('input', { type: 'range', min: 0, max: 10, step: 0.01, value: 0 });
  const label = el('span', { class: 'note' }, '0.00 s');
  const seed = el('input', { type: 'number', min: 0, step: 1, value: 0, title: 'random seed (as ferry render --seed)' });
  play.onclick = () => {
    const on = play.getAttribute('aria-pressed') !== 'true';
    play.setAttribute('aria-pressed', String(on));
    play.textContent = on ? 'Pause' : 'Play';
    view.setParticlesPlaying(on);
  };
  time.oninput = () => { play.setAttribute('aria-pressed', 'false'); play.textContent = 'Play'; view.setParticleTime(Number(time.value)); };
  seed.onchange = async () => {
    layer.seed = Math.max(0, Math.floor(Number(seed.value) || 0));
    await layer.restart();
    view.requestFrame();
  };
  view.onParticleFrame = (f) => {
    if (play.getAttribute('aria-pressed') !== String(view.particlesPlaying)) {
      play.setAttribute('aria-pressed', String(view.particlesPlaying));
      play.textContent = view.particlesPlaying ? 'Pause' : 'Play';
    }
    if (view.particleTime > Number(time.max)) time.max = Math.ceil(view.particleTime);
    time.value = view.particleTime;
    label.textContent = `${view.particleTime.toFixed(2)} s, ${f.count} particles`;
  };
  const names = d.systems.map(x => `${x.proxy}: ${x.path}`).join('\n');
  current.particleBar = [];
  const keep = (e) => { current.particleBar.push(e); return e; };
  $('toolbar').append(keep(el('span', { class: 'group', title: names },
    el('label', {}, show, ` particles (${d.systems.length} system${d.systems.length > 1 ? 's' : ''})`), play, time, label,
    el('label', {}, ' seed ', seed))));
  const all = [...notes, ...layer.missing.map(m => `texture ${m} (drawn as a glow)`)];
  if (all.length) $('toolbar').append(keep(el('span', { class: 'group note', title: all.join('\n') }, `particles: ${all.length} note(s)`)));
  return { systems: d.systems.length, proxies: d.systems.map(x => x.proxy), missingTextures: layer.missing, messages: layer.messages };
}

function modelNotes(report) {
  const notes = [];
  if (report.missing_textures && report.missing_textures.length) notes.push(`textures not found: ${report.missing_textures.join(', ')}`);
  // Animations found beside the model and left out, each with the library's
  // sentence ("animation skipped: does not fit ...").
  for (const a of report.animations_skipped || []) notes.push(`${a.file}: ${a.why}`);
  if (report.meshes_left_out) notes.push(`${report.meshes_left_out} mesh(es) the game does not draw left out`);
  // What the export said; `file` names another file than the model (an
  // animation attached though some of its tracks do not fit).
  for (const w of report.warnings || []) notes.push(w.file ? `${w.file}: ${w.message}` : w.message);
  return notes;
}

function buildModelToolbar(item, opened, view, gltf, report, state) {
  const bar = $('toolbar');
  bar.replaceChildren();
  const isOdol = (gltf.parser.json.scenes?.[0]?.extras || {}).format === 'ODOL';
  const gameBtn = el('button', { type: 'button', 'aria-pressed': String(!state.all), title: 'What the game draws when the model first appears' }, 'Game view');
  const allBtn = el('button', { type: 'button', 'aria-pressed': String(state.all), title: 'Every mesh and level of detail, hidden ones marked' }, 'Everything');
  const reexport = async (all, extra = {}) => {
    state.all = all;
    Object.assign(state.options, extra, { all });
    status('exporting...');
    const { report: r, glb } = await exportModel(opened, state.options);
    const g = await view.show(glb);
    buildModelToolbar(item, opened, view, g, r, state);
    status(`${item.key}: ${g.scene.name || ''}`);
    window.ferryViewer.lastExport = r;
  };
  gameBtn.onclick = () => reexport(false);
  allBtn.onclick = () => reexport(true);
  bar.append(el('span', { class: 'group' }, gameBtn, allBtn));

  // Meshes (ALO) and LODs (P3D) to show or hide, and groups by LOD and by
  // damage state (_ALT<n>), from the export's extras.
  const toggles = [];
  const byGroup = new Map();
  gltf.scene.traverse(o => {
    const u = o.userData || {};
    const isMeshNode = u.alamo === 'mesh' || (isOdol && u.lod !== undefined && u.resolution !== undefined);
    if (!isMeshNode) return;
    toggles.push(o);
    if (u.alamo === 'mesh') {
      if (u.lod !== undefined) (byGroup.get(`LOD ${u.lod}`) || byGroup.set(`LOD ${u.lod}`, []).get(`LOD ${u.lod}`)).push(o);
      if (u.alt !== undefined) (byGroup.get(`damage ALT${u.alt}`) || byGroup.set(`damage ALT${u.alt}`, []).get(`damage ALT${u.alt}`)).push(o);
    }
  });
  if (state.all) {
    // Everything: what the game does not draw starts hidden (P3D: every LOD
    // but the first), each a toggle.
    toggles.forEach((o, i) => {
      const u = o.userData;
      if (Array.isArray(u.not_drawn) && u.not_drawn.length) o.visible = false;
      if (isOdol && i > 0) o.visible = false;
    });
  }
  if (toggles.length > 1 || state.all) {
    const list = el('div');
    for (const o of toggles) {
      const u = o.userData;
      const why = Array.isArray(u.not_drawn) && u.not_drawn.length ? ` (${u.not_drawn.join(', ')})` : '';
      const cb = el('input', { type: 'checkbox', checked: o.visible, onchange: (e) => { o.visible = e.target.checked; view.requestFrame(); } });
      list.append(el('label', { class: 'line' }, cb, ` ${o.name || '(unnamed)'}${why}`));
    }
    const groups = el('span', { class: 'group' });
    for (const [name, nodes] of byGroup) {
      const cb = el('input', { type: 'checkbox', checked: nodes.some(n => n.visible), onchange: (e) => {
        for (const n of nodes) n.visible = e.target.checked;
        [...list.querySelectorAll('input')].forEach((c, i) => { c.checked = toggles[i].visible; });
        view.requestFrame();
      } });
      groups.append(el('label', {}, cb, ` ${name}`));
    }
    bar.append(el('details', { class: 'group' }, el('summary', {}, isOdol ? `LODs (${toggles.length})` : `Meshes (${toggles.length})`), list));
    if (byGroup.size) bar.append(groups);
  }

  const bones = el('input', { type: 'checkbox', onchange: (e) => view.setBones(e.target.checked) });
  const proxies = el('input', { type: 'checkbox', onchange: (e) => view.setProxies(e.target.checked) });
  bar.append(el('span', { class: 'group' }, el('label', {}, bones, ' bones'), el('label', {}, proxies, ' proxies')));

  // ALM: a level of detail by the collapses applied.
  if (row(opened.format)?.key === 'alm') {
    const span = el('span', { class: 'group' });
    client.call('almTriangleCounts', { id: opened.id }).catch(() => ({})).then(({ counts }) => {
      if (!counts || counts.length < 2) return;
      const n = state.options.alm_lod ? state.options.alm_lod.collapses : 0;
      const label = el('span', {}, `${counts[n]} triangles`);
      const slider = el('input', { type: 'range', min: 0, max: counts.length - 1, value: n });
      slider.oninput = () => { label.textContent = `${counts[slider.value]} triangles`; };
      slider.onchange = () => reexport(state.all, { alm_lod: { collapses: Number(slider.value) } });
      span.append(el('label', {}, 'LOD: collapses ', slider), ' ', label);
    });
    bar.append(span);
  }

  // Animations: P3D animation classes as sliders, all at once; otherwise
  // one clip at a time, played, paused and scrubbed.
  const clips = gltf.animations;
  if (clips.length && isOdol) {
    view.enableAllClips();
    const box = el('div');
    clips.forEach((clip, i) => {
      const s = el('input', { type: 'range', min: 0, max: clip.duration, step: clip.duration / 200 || 0.01, value: 0,
                              oninput: (e) => view.setClipTime(i, Number(e.target.value)) });
      box.append(el('label', { class: 'line' }, s, ` ${clip.name}`));
    });
    bar.append(el('details', { class: 'group' }, el('summary', {}, `Animation classes (${clips.length})`), box));
  } else if (clips.length) {
    const select = el('select', {}, el('option', { value: -1 }, '(rest pose)'),
      clips.map((c, i) => el('option', { value: i }, `${c.name} (${c.duration.toFixed(2)} s)`)));
    const play = el('button', { type: 'button', 'aria-pressed': 'false' }, 'Play');
    const scrub = el('input', { type: 'range', min: 0, max: 1, step: 0.001, value: 0 });
    const time = el('span', { class: 'note' }, '0.00 s');
    const setClip = (i) => {
      view.selectAnimation(i);
      scrub.max = i >= 0 ? clips[i].duration : 1;
      scrub.step = i >= 0 ? clips[i].duration / 500 || 0.001 : 0.001;
      scrub.value = 0;
      time.textContent = '0.00 s';
    };
    select.onchange = () => setClip(Number(select.value));
    play.onclick = () => {
      if (Number(select.value) < 0) { select.value = 0; setClip(0); }
      const on = play.getAttribute('aria-pressed') !== 'true';
      play.setAttribute('aria-pressed', String(on));
      play.textContent = on ? 'Pause' : 'Play';
      view.setPlaying(on);
    };
    scrub.oninput = () => { view.seek(Number(scrub.value)); time.textContent = `${Number(scrub.value).toFixed(2)} s`; };
    view.onTime = (t) => {
      const d = Number(scrub.max) || 1;
      scrub.value = t % d;
      time.textContent = `${(t % d).toFixed(2)} s`;
    };
    bar.append(el('span', { class: 'group' }, el('label', {}, 'animation ', select), play, scrub, time));
  }
  const notes = modelNotes(report);
  if (notes.length) bar.append(el('span', { class: 'group note', title: notes.join('\n') }, notes[0] + (notes.length > 1 ? ` (+${notes.length - 1})` : '')));
  // The particle systems' group stays (the model exported again keeps them).
  if (current.particleBar) bar.append(...current.particleBar);
  state.gltf = gltf;
  current.modelState = state;
  current.reexport = reexport;
}

// ---- particle systems ----

async function showParticles(item, opened) {
  const view = new ParticleView($('stage'), client);
  current.view = view;
  await view.show(opened.id, { seed: 0, time: 1 });
  const bar = $('toolbar');
  const play = el('button', { type: 'button', 'aria-pressed': 'false' }, 'Play');
  const time = el('input', { type: 'range', min: 0, max: 10, step: 0.01, value: view.time });
  const timeLabel = el('span', { class: 'note' }, `${view.time.toFixed(2)} s`);
  const seed = el('input', { type: 'number', min: 0, step: 1, value: 0, title: 'random seed (as ferry particles --seed)' });
  const frame = el('button', { type: 'button', title: 'Frame the camera on the live particles, as ferry render does' }, 'Frame');
  const count = el('span', { class: 'note' });
  play.onclick = () => {
    const on = play.getAttribute('aria-pressed') !== 'true';
    play.setAttribute('aria-pressed', String(on));
    play.textContent = on ? 'Pause' : 'Play';
    view.setPlaying(on);
  };
  time.oninput = () => view.setTime(Number(time.value));
  seed.onchange = () => view.setSeed(Math.max(0, Math.floor(Number(seed.value) || 0)));
  frame.onclick = () => view.reframe();
  view.onFrame = (f) => {
    if (view.time > Number(time.max)) time.max = Math.ceil(view.time);
    time.value = view.time;
    timeLabel.textContent = `${view.time.toFixed(2)} s`;
    count.textContent = `${f.count} particles` + (f.warnings.length ? `; ${f.warnings.join('; ')}` : '');
  };
  view.onFrame(view.lastFrame);
  bar.append(el('span', { class: 'group' }, play, el('label', {}, 'time ', time), timeLabel),
             el('span', { class: 'group' }, el('label', {}, 'seed ', seed), frame), count);
  if (view.missing.length) bar.append(el('span', { class: 'group note', title: view.missing.join('\n') }, `textures not found: ${view.missing.length} (drawn as a glow)`));
  return { particles: view.lastFrame.count, missingTextures: view.missing };
}

// ---- textures ----

async function showTexture(item, opened) {
  const view = new TextureView($('stage'));
  current.view = view;
  const levels = opened.levels || 1;
  const show = async (level) => {
    const img = await client.call('texture', { id: opened.id, level });
    view.show(img);
    info.textContent = `${img.width} x ${img.height}`;
    return img;
  };
  const info = el('span', { class: 'note' });
  const level = el('select', {}, [...Array(levels).keys()].map(i => el('option', { value: i }, `mipmap ${i}`)));
  level.onchange = () => show(Number(level.value));
  const mode = el('select', {}, el('option', { value: 'rgba' }, 'colour and alpha'), el('option', { value: 'rgb' }, 'colour only'),
    el('option', { value: 'alpha' }, 'alpha only'));
  mode.onchange = () => view.setMode(mode.value);
  $('toolbar').append(el('span', { class: 'group' }, levels > 1 ? level : el('span', { class: 'note' }, 'one level'), mode), info);
  const img = await show(0);
  return { width: img.width, height: img.height, levels };
}

// ---- archives ----

function showArchive(item, opened) {
  item.asset = opened.id;
  item.opened = opened;
  if (opened.archiveError) { stageMessage(opened.archiveError, true); return { error: opened.archiveError }; }
  const files = (opened.entries && opened.entries.files) || [];
  if (!item.listed) {
    item.listed = true;
    // Built apart from the document, attached once.
    const ul = el('ul', { role: 'group' });
    item.li.classList.add('folder', 'open');
    item.li.querySelector('.row').addEventListener('click', (e) => { if (e.target.classList.contains('name')) item.li.classList.toggle('open'); });
    for (const f of files) {
      const key = `${item.key}::${f.index}`;
      const name = f.name ?? `(entry ${f.index}: no name)`;
      // Told by content where the archive's bytes are in memory, else by
      // name until the entry is opened (an archive is never read whole).
      const entry = { key, path: name, size: f.size, format: f.format, byName: f.by_name, archiveKey: item.key, index: f.index };
      entry.kind = kindOf(f.format > 0 ? f.format : f.by_name > 0 ? f.by_name : FORMAT_UNKNOWN, name);
      items.set(key, entry);
      addToTree(ul, key, name, entry);
    }
    item.li.append(ul);
  }
  stageMessage(`${opened.formatName}: ${files.length} entries, listed in the tree.`);
  return { entries: files.length };
}

// ---- validation reports ----

function hex(n) { return n === null || n === undefined ? '' : `0x${n.toString(16)} `; }

function renderReport(box, reports, linkFiles) {
  box.replaceChildren();
  let errors = 0, warnings = 0;
  for (const r of reports) {
    errors += r.errors || 0;
    warnings += r.warnings || 0;
    const fileKey = r.file;
    const head = el('div', { class: 'file', onclick: linkFiles ? () => select(fileKey) : null },
      `${r.file}: ${r.errors ? `${r.errors} error(s)` : ''}${r.errors && r.warnings ? ', ' : ''}${r.warnings ? `${r.warnings} warning(s)` : ''}`,
      !r.errors && !r.warnings ? el('span', { class: 'ok' }, 'valid') : null);
    box.append(head);
    if (r.read_error) box.append(el('div', { class: 'item error', onclick: linkFiles ? () => select(fileKey) : null }, r.read_error));
    for (const d of r.items || []) {
      box.append(el('div', { class: `item ${d.severity}`, title: d.rule, onclick: () => select(fileKey) },
        el('span', { class: 'where' }, `${hex(d.offset)}${d.path ? d.path + ' ' : ''}`), `${d.message} [${d.rule}]`));
    }
    for (const e of r.entries || []) {
      if (!e.errors && !e.warnings) continue;
      const key = `${fileKey}::${e.index}`;
      const go = () => (items.has(key) ? select(key) : select(fileKey));
      box.append(el('div', { class: 'file', onclick: go }, `${e.label}: ${e.errors} error(s), ${e.warnings} warning(s)`));
      if (e.error) box.append(el('div', { class: 'item error', onclick: go }, el('span', { class: 'where' }, hex(e.error.offset)), e.error.message));
      for (const d of e.items || []) box.append(el('div', { class: `item ${d.severity}`, onclick: go },
        el('span', { class: 'where' }, `${hex(d.offset)}${d.path ? d.path + ' ' : ''}`), `${d.message} [${d.rule}]`));
    }
  }
  if (reports.length > 1) box.prepend(el('div', {}, `${reports.length} files: ${errors} error(s), ${warnings} warning(s)`));
  return { errors, warnings };
}

async function validateAll() {
  status('checking every file...');
  const { reports } = await client.call('validateAll');
  const totals = renderReport($('report-all'), reports, true);
  status(`${reports.length} file(s) checked: ${totals.errors} error(s), ${totals.warnings} warning(s)`);
  return { reports, ...totals };
}

// ---- wiring ----

const drop = $('drop');
for (const t of [drop, document.body]) {
  t.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  t.addEventListener('dragleave', () => drop.classList.remove('over'));
  t.addEventListener('drop', async (e) => {
    e.preventDefault();
    e.stopPropagation();
    drop.classList.remove('over');
    await addFiles(await filesFromDrop(e.dataTransfer));
  });
}
let inputDone = Promise.resolve([]);
for (const id of ['open-files', 'open-folder']) {
  $(id).addEventListener('change', (e) => { inputDone = addFiles(filesFromInput(e.target)); e.target.value = ''; });
}
$('validate-all').onclick = () => validateAll();
async function clearAll() {
  await closeCurrent();
  await client.call('clear');
  items.clear();
  selected = null;
  $('tree').replaceChildren();
  $('info').textContent = '';
  $('report-file').replaceChildren();
  $('report-all').replaceChildren();
  status('cleared');
}
$('clear').onclick = clearAll;

// Served by `ferry view PATH...`: the given files are listed as if dropped
// (read from the server when opened). A page opened otherwise has none.
async function servedFiles() {
  let list;
  try {
    const r = await fetch('files/index.json', { cache: 'no-store' });
    if (!r.ok) return [];
    list = (await r.json()).files;
  } catch (e) {
    return [];
  }
  return addFiles(list.map(f => ({ path: f.path, url: new URL(f.url, location.href).href, size: f.size })));
}

// Hooks for the tests (tests/web) and the benchmarks (bench/web.mjs).
const ready = client.call('init').then(({ formats: f }) => { formats = f.formats; status('ready: drop files'); return true; },
                                        (e) => { status(`ferry.wasm did not load: ${e.message}`); throw e; });
const served = ready.then(servedFiles);
window.ferryViewer = {
  ready,
  served,
  inputDone: () => inputDone,
  clear: clearAll,
  select,
  validateAll,
  tree: () => [...items.values()].map(i => ({ key: i.key, path: i.path, format: formatLabel(i), kind: i.kind, error: i.error || null })),
  current: () => current,
  stats: () => (current && current.view && current.view.stats ? current.view.stats() : null),
  setSize: (w, h) => current && current.view && current.view.setFixedSize && current.view.setFixedSize(w, h),
  setAll: (all) => current.reexport(all),
  bounds: () => current.view.bounds(),
  toggles: () => [...$('toolbar').querySelectorAll('details input[type=checkbox]')].map(c => ({ label: c.parentElement.textContent.trim(), checked: c.checked })),
  selectAnimation: (i) => current.view.selectAnimation(i),
  seek: (t) => current.view.seek(t),
  particleTime: (t) => (current.view.setParticleTime ? current.view.setParticleTime(t) : current.view.setTime(t)),
  particleSeed: (s) => current.view.setSeed(s),
  reframe: () => current.view.reframe(),
  particles: () => current.view.particles(),
  modelParticlesShown: (on) => current.view.setParticlesVisible(on),
  // A model's particle systems: their sprites and particles at the time shown.
  modelParticles: async () => {
    const v = current.view;
    if (!v.particles) return null;
    const f = await v.particles.frame(v.particleTime, v.alamoCamera(), v.camera.aspect, true);
    v.requestFrame();
    return { time: f.time, count: f.count, sprites: f.sprites.length / f.floats, particles: f.particles, systems: v.particles.systems };
  },
  particleFrame: () => { const f = current.view.lastFrame; return { count: f.count, sprites: f.sprites.length / f.floats, time: f.time, groups: current.view.groups }; },
  canvas: () => $('stage').querySelector('canvas'),
};
