#!/usr/bin/env node
// The web viewer in headless Chromium (Debian's, through playwright-core from
// tests/render/node_modules, as the render checks): served by `ferry view`,
// it shows the bundled samples, and what it shows is what the tool says.
//
//   node tests/web/viewer.mjs FERRY SRC PAGE_DIR WORK_DIR
//
// Made in WORK_DIR: a game folder (Data/Art/Models with the Alamo samples,
// Data/Art/Textures with textures for them), an addon folder for the P3D
// samples' textures (its $PREFIX$, PAA textures), an ALM built from the
// walker, a MEG packed from the game folder (`ferry pack`), a MEG cut short
// (hostile), loose textures (TGA, DDS, PAA), a folder with a walker, two
// animations with renamed bones and a crate with a bad index. Then, in the
// page:
// - each model's counts (meshes, bones, triangles) equal `ferry info --json`,
//   its animations the CLI's export's (one found beside it whose tracks
//   mostly fit attached with a warning, one that mostly misses left out);
//   textures found as the game finds them; a model with a validation error
//   shown anyway, its error said;
// - screenshots have content and match the CLI's export drawn by
//   tests/render/render.mjs within a tolerance;
// - the walker's animation moves its skin; the P3D's LODs and animation
//   classes; the ALM's levels of detail;
// - the particle system at a time and seed has the particles of
//   `ferry particles --json` (ids, positions) and looks like `ferry render`;
// - the MEG's entries are `ferry list`'s, a model inside it shows with its
//   textures found inside it; the hostile MEG is refused with the tool's
//   message and the page goes on working; a MEG with 4 MB more is listed
//   and a model in it shown from byte ranges alone (never the whole file);
// - textures with their mipmaps; the whole drop's validation, a click on an
//   item selecting the file; files given through the file input;
// - the page asks for nothing but its own server's files, on 127.0.0.1.
// Prints each check; exit 0 when all pass, 1 otherwise, 2 on usage errors.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [ferry, src, pageDir, work] = process.argv.slice(2).map(a => path.resolve(a));
if (!work) {
  console.error('usage: node tests/web/viewer.mjs FERRY SRC PAGE_DIR WORK_DIR');
  process.exit(2);
}
const require = createRequire(path.join(src, 'tests/render/package.json'));
const { chromium } = require('playwright-core');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

let passed = 0, failed = 0;
function check(what, ok, detail) {
  if (process.env.FERRY_WEB_VERBOSE) console.log(`${ok ? 'ok' : 'FAIL'}: ${what}${detail !== undefined ? ` ${JSON.stringify(detail)}` : ''}`);
  if (ok) passed++;
  else { failed++; console.error(`FAIL: ${what}${detail !== undefined ? `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}` : ''}`); }
}
const cli = (...args) => execFileSync(ferry, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const cliJson = (...args) => JSON.parse(cli(...args));
function cliFails(...args) {
  try { execFileSync(ferry, args, { stdio: ['ignore', 'pipe', 'pipe'] }); return null; } catch (e) { return String(e.stderr); }
}

// ---- fixtures ----

// An uncompressed 32-bit TGA (bottom-up rows, BGRA) of w x h: colour cells
// and an alpha ramp from left to right.
function tga(w, h, seed) {
  const b = Buffer.alloc(18 + w * h * 4);
  b[2] = 2; b.writeUInt16LE(w, 12); b.writeUInt16LE(h, 14); b[16] = 32; b[17] = 8;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const o = 18 + (y * w + x) * 4, cell = ((x >> 3) + (y >> 3) + seed) & 1;
    b[o] = cell ? 40 : 200; b[o + 1] = cell ? 160 : 90; b[o + 2] = cell ? 220 : 60; b[o + 3] = Math.round(255 * (x + 1) / w);
  }
  return b;
}
// An uncompressed 32-bit DDS (BGRA masks) of w x h with its full mipmap
// chain down to 1 x 1, each level a grey of its own.
function dds(w, h) {
  const levels = [];
  for (let lw = w, lh = h; ; lw = Math.max(1, lw >> 1), lh = Math.max(1, lh >> 1)) {
    levels.push([lw, lh]);
    if (lw === 1 && lh === 1) break;
  }
  const b = Buffer.alloc(128 + levels.reduce((n, [a, c]) => n + a * c * 4, 0));
  b.write('DDS ', 0, 'latin1');
  b.writeUInt32LE(124, 4); b.writeUInt32LE(0x2100f, 8); b.writeUInt32LE(h, 12); b.writeUInt32LE(w, 16);
  b.writeUInt32LE(w * 4, 20); b.writeUInt32LE(levels.length, 28); b.writeUInt32LE(32, 76); b.writeUInt32LE(0x41, 80);
  b.writeUInt32LE(32, 88); b.writeUInt32LE(0x00ff0000, 92); b.writeUInt32LE(0x0000ff00, 96); b.writeUInt32LE(0x000000ff, 100);
  b.writeUInt32LE(0xff000000, 104); b.writeUInt32LE(0x401008, 108);
  let o = 128;
  levels.forEach(([lw, lh], l) => {
    for (let i = 0; i < lw * lh; i++, o += 4) { b[o] = b[o + 1] = b[o + 2] = 40 * l; b[o + 3] = i % 2 ? 255 : 64; }
  });
  return b;
}

fs.rmSync(work, { recursive: true, force: true });
const game = path.join(work, 'game'), models = path.join(game, 'Data/Art/Models'), textures = path.join(game, 'Data/Art/Textures');
const addons = path.join(work, 'addons'), loose = path.join(work, 'loose'), archives = path.join(work, 'archives');
const shots = path.join(work, 'shots'), extra = path.join(work, 'extra'), limp = path.join(work, 'limp');
for (const d of [models, textures, path.join(addons, 'box'), loose, archives, shots, extra, limp]) fs.mkdirSync(d, { recursive: true });
for (const f of ['walker.alo', 'crate.alo', 'p_walker_exhaust.alo', 'walker_idle_00.ala', 'walker_walk_00.ala'])
  fs.copyFileSync(path.join(src, 'samples/alamo', f), path.join(models, f));
fs.writeFileSync(path.join(textures, 'walker.tga'), tga(64, 64, 0));
fs.writeFileSync(path.join(textures, 'crate.tga'), tga(32, 32, 1));
fs.writeFileSync(path.join(textures, 'p_walker_smoke.tga'), tga(64, 64, 0));
for (const f of ['box.p3d', 'door.p3d']) fs.copyFileSync(path.join(src, 'samples/odol', f), path.join(addons, f));
// The box's textures in an addon folder mounted at its prefix.
fs.writeFileSync(path.join(addons, 'box', '$PREFIX$'), 'ferry\\box\n');
fs.writeFileSync(path.join(work, 'wood.tga'), tga(64, 64, 1));
cli('convert', path.join(work, 'wood.tga'), path.join(addons, 'box', 'wood_co.paa'));
fs.copyFileSync(path.join(addons, 'box', 'wood_co.paa'), path.join(addons, 'box', 'metal_co.paa'));
cli('convert', path.join(models, 'walker.alo'), path.join(extra, 'walker.alm'), '--anim', path.join(models, 'walker_walk_00.ala'));
cli('pack', path.join(archives, 'game.meg'), game);
// A PBO holding the box and its textures, mounted at the prefix its textures name.
const pboSrc = path.join(work, 'pbo_src');
fs.mkdirSync(pboSrc);
fs.copyFileSync(path.join(addons, 'box.p3d'), path.join(pboSrc, 'box.p3d'));
for (const f of ['wood_co.paa', 'metal_co.paa']) fs.copyFileSync(path.join(addons, 'box', f), path.join(pboSrc, f));
cli('pack', '--prefix', 'ferry\\box', path.join(archives, 'box.pbo'), pboSrc);
// A PBO without a prefix property: mounted at its file name ("ferry"), so
// that its box/*.paa are ferry\box\*.paa, the names box.p3d gives; its
// textures 16 x 16 where the addon folder's are 64 x 64 (which ones were used
// is told by their size).
const pboSrc2 = path.join(work, 'pbo_src2');
fs.mkdirSync(path.join(pboSrc2, 'box'), { recursive: true });
fs.copyFileSync(path.join(addons, 'box.p3d'), path.join(pboSrc2, 'box', 'box.p3d'));
fs.writeFileSync(path.join(work, 'small.tga'), tga(16, 16, 0));
cli('convert', path.join(work, 'small.tga'), path.join(pboSrc2, 'box', 'wood_co.paa'));
fs.copyFileSync(path.join(pboSrc2, 'box', 'wood_co.paa'), path.join(pboSrc2, 'box', 'metal_co.paa'));
cli('pack', path.join(archives, 'ferry.pbo'), pboSrc2);
// A texture the exhaust names that only a search of the archives opened
// would find (decoy.meg, at DATA/ART/TEXTURES): validation looks where
// `ferry validate FILE` looks, so it stays missing there.
const decoy = path.join(work, 'decoy', 'Data/Art/Textures');
fs.mkdirSync(decoy, { recursive: true });
fs.writeFileSync(path.join(decoy, 'p_walker_smoke_bump.tga'), tga(16, 16, 1));
cli('pack', path.join(archives, 'decoy.meg'), path.join(work, 'decoy'));
// The game folder with 4 MB more: read in pieces, never whole.
const padded = path.join(work, 'padded');
fs.cpSync(game, padded, { recursive: true });
fs.writeFileSync(path.join(padded, 'Data/filler.bin'), Buffer.alloc(4 << 20, 0x5a));
cli('pack', path.join(archives, 'padded.meg'), padded);
const paddedSize = fs.statSync(path.join(archives, 'padded.meg')).size;
const megBytes = fs.readFileSync(path.join(archives, 'game.meg'));
fs.writeFileSync(path.join(archives, 'cut.meg'), megBytes.subarray(0, 40));
fs.writeFileSync(path.join(loose, 'ramp.tga'), tga(64, 32, 0));
fs.writeFileSync(path.join(loose, 'flat.dds'), dds(16, 8));
fs.copyFileSync(path.join(addons, 'box', 'wood_co.paa'), path.join(loose, 'wood.paa'));
// Animations beside a walker whose tracks do not all fit it: one with 1 of
// its 6 bones renamed (the game binds tracks by index: attached, with a
// warning), one with 4 of 6 renamed (another model's: left out). Names of
// the same length keep the file's layout.
fs.copyFileSync(path.join(src, 'samples/alamo/walker.alo'), path.join(limp, 'walker.alo'));
const walkBytes = fs.readFileSync(path.join(src, 'samples/alamo/walker_walk_00.ala'));
const renamed = (pairs) => {
  let b = Buffer.from(walkBytes);
  for (const [from, to] of pairs) {
    const at = b.indexOf(Buffer.from(`${from}\0`, 'latin1'));
    if (at < 0 || b.indexOf(Buffer.from(`${from}\0`, 'latin1'), at + 1) >= 0) throw new Error(`walker_walk_00.ala: ${from} not found once`);
    b.write(to, at, 'latin1');
  }
  return b;
};
fs.writeFileSync(path.join(limp, 'walker_limp_00.ala'), renamed([['Beacon', 'Beacox']]));
fs.writeFileSync(path.join(limp, 'walker_fall_00.ala'), renamed([['Pelvis', 'Pelvix'], ['Spine', 'Spinx'], ['Head', 'Heax'], ['Beacon', 'Beacox']]));
// A model validation finds an error in (as tests/cli/hostile.sh makes it:
// the crate's triangle 0 with a first index of 32767, [index-range]):
// `ferry convert` refuses it, the viewer shows it anyway.
const bad = Buffer.from(fs.readFileSync(path.join(src, 'samples/alamo/crate.alo')));
bad.writeUInt16LE(32767, 8720 + 8);
fs.writeFileSync(path.join(limp, 'bad.alo'), bad);

// ---- the CLI's side ----

const info = (f) => cliJson('info', '--json', f)[0];
const walkerInfo = info(path.join(models, 'walker.alo'));
const crateInfo = info(path.join(models, 'crate.alo'));
const boxInfo = info(path.join(addons, 'box.p3d'));
const almInfo = info(path.join(extra, 'walker.alm'));
const paaInfo = info(path.join(loose, 'wood.paa'));
const megList = cliJson('list', '--json', path.join(archives, 'game.meg'));
const pboList = cliJson('list', '--json', path.join(archives, 'box.pbo'));
const cutError = cliFails('info', path.join(archives, 'cut.meg'));
// The CLI's exports drawn by the render check (tests/render/render.mjs).
cli('convert', '--anim', 'auto', path.join(models, 'walker.alo'), path.join(work, 'walker.glb'));
cli('convert', path.join(models, 'crate.alo'), path.join(work, 'crate.glb'));
cli('convert', path.join(addons, 'door.p3d'), path.join(work, 'door.glb'));
cli('convert', '--anim', 'auto', path.join(limp, 'walker.alo'), path.join(work, 'limp.glb'));
// A .glb's JSON chunk; its animations by name; its triangles (indexed triangle lists).
const glbJson = (file) => { const b = fs.readFileSync(file); return JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString('utf8')); };
const glbAnimations = (file) => (glbJson(file).animations || []).map(a => a.name);
const glbTriangles = (file) => {
  const j = glbJson(file);
  return j.meshes.flatMap(m => m.primitives).reduce((n, p) => n + j.accessors[p.indices].count / 3, 0);
};
const limpCli = glbAnimations(path.join(work, 'limp.glb'));
const badRefused = cliFails('convert', path.join(limp, 'bad.alo'), path.join(work, 'bad.glb'));
cli('convert', '--allow-invalid', path.join(limp, 'bad.alo'), path.join(work, 'bad.glb'));
const badTriangles = glbTriangles(path.join(work, 'bad.glb'));
// A glTF dropped is shown as it is (a scene already): the tool's export of the crate.
cli('convert', path.join(models, 'crate.alo'), path.join(limp, 'crate_export.glb'));
const crateGlbTriangles = glbTriangles(path.join(limp, 'crate_export.glb'));
execFileSync(process.execPath, [path.join(src, 'tests/render/render.mjs'), '--rest', '--quiet', shots,
  path.join(work, 'walker.glb'), path.join(work, 'crate.glb'), path.join(work, 'door.glb')], { stdio: 'inherit' });
const rendered = JSON.parse(fs.readFileSync(path.join(shots, 'summary.json'), 'utf8'));
const renderedOf = (name) => rendered.find(r => r.file.endsWith(`/${name}.glb`));
const TIME = 1.3, SEED = 7;
const cliParticles = cliJson('particles', '--json', '--time', String(TIME), '--seed', String(SEED), path.join(models, 'p_walker_exhaust.alo'));
// The walker's proxy system as the model view simulates it (seed 0).
const cliParticles0 = cliJson('particles', '--json', '--time', String(TIME), '--seed', '0', path.join(models, 'p_walker_exhaust.alo'));
cli('render', path.join(models, 'walker.alo'), path.join(shots, 'walker_particles_cli.png'), '--time', String(TIME), '--size', '512x512');
cli('render', path.join(models, 'p_walker_exhaust.alo'), path.join(shots, 'exhaust_cli.png'), '--time', String(TIME),
    '--seed', String(SEED), '--size', '512x512');

// ---- the page, served by ferry view ----

const server = spawn(ferry, ['view', '--no-open', '--port', '0', '--page', pageDir, game, addons, extra, archives, loose, shots, limp],
                     { stdio: ['ignore', 'pipe', 'pipe'] });
let serverErr = '';
server.stderr.on('data', d => { serverErr += d; });
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', d => { out += d; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); });
  server.on('exit', code => reject(new Error(`ferry view exited (${code}): ${serverErr}`)));
  setTimeout(() => reject(new Error('ferry view printed no address')), 10000);
});

const browser = await chromium.launch({
  executablePath: chromiumPath, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--ignore-gpu-blocklist'],
});
const consoleErrors = [], foreign = [], paddedReads = [];
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', e => consoleErrors.push(String(e)));
  // Every request, the worker's too, stays on the loopback server ferry view runs.
  page.on('request', r => {
    const u = r.url();
    if (u.startsWith('blob:') || u.startsWith('data:')) return;
    if (!u.startsWith(base) || new URL(u).hostname !== '127.0.0.1') foreign.push(u);
    if (u.endsWith('/padded.meg')) paddedReads.push(r.headers().range || 'whole');
  });
  page.on('worker', w => w.on('console', m => { if (m.type() === 'error') consoleErrors.push(`worker: ${m.text()}`); }));
  await page.goto(base);
  await page.evaluate(() => window.ferryViewer.ready);
  const listed = await page.evaluate(() => window.ferryViewer.served);
  const tree = await page.evaluate(() => window.ferryViewer.tree());
  const fmt = (key) => (tree.find(t => t.key === key) || {}).format;
  check('the given files are listed', listed.length >= 15, listed.length);
  check('each entry by its format', fmt('game/Data/Art/Models/walker.alo') === 'ALO model' &&
        fmt('game/Data/Art/Models/p_walker_exhaust.alo') === 'ALO particle system' &&
        fmt('game/Data/Art/Models/walker_walk_00.ala') === 'ALA animation' && fmt('addons/box.p3d') === 'ODOL' &&
        fmt('extra/walker.alm') === 'ALM' && fmt('archives/game.meg') === 'MEG' && fmt('loose/wood.paa') === 'PAA' &&
        fmt('loose/ramp.tga') === 'image', tree);

  const sel = (key) => page.evaluate(k => window.ferryViewer.select(k), key);
  const stats = () => page.evaluate(() => window.ferryViewer.stats());
  const setSize = (w, h) => page.evaluate(([w, h]) => window.ferryViewer.setSize(w, h), [w, h]);
  // The viewer's canvas against a reference image served from `shots`: the
  // share of pixels that differ by more than 40 in a channel, the mean
  // absolute difference, and the pixels of each that are not background.
  const compare = (ref, bg) => page.evaluate(async ([ref, bg]) => {
    const img = new Image();
    img.src = ref;
    await img.decode();
    const grab = (source) => {
      const c = document.createElement('canvas');
      c.width = 512; c.height = 512;
      const g = c.getContext('2d');
      g.drawImage(source, 0, 0, 512, 512, 0, 0, 512, 512);
      return g.getImageData(0, 0, 512, 512).data;
    };
    const a = grab(img), b = grab(window.ferryViewer.canvas());
    let far = 0, sum = 0, fgA = 0, fgB = 0;
    const isBg = (p, i) => bg && Math.abs(p[i] - bg[0]) <= 2 && Math.abs(p[i + 1] - bg[1]) <= 2 && Math.abs(p[i + 2] - bg[2]) <= 2;
    for (let i = 0; i < a.length; i += 4) {
      let m = 0;
      for (let k = 0; k < 3; k++) { const d = Math.abs(a[i + k] - b[i + k]); sum += d; m = Math.max(m, d); }
      if (m > 40) far++;
      if (bg) { fgA += !isBg(a, i); fgB += !isBg(b, i); }
    }
    const n = a.length / 4;
    return { far: far / n, mean: sum / (3 * n), fgA, fgB };
  }, [ref, bg]);
  const BG = [0x20, 0x28, 0x30];
  const shotUrl = (name) => new URL(`files/5/${name}`, base).href;

  // -- the walker, with its textures and animations --
  let r = await sel('game/Data/Art/Models/walker.alo');
  check('walker: shown', r.kind === 'model' && !r.error, r.error);
  // Its proxies: P_Walker_Exhaust names the system beside it; the two others
  // are hidden (the game shows them only when told to: left out, said).
  check('walker: the particle system its proxy names, found beside it', r.particles && r.particles.systems === 1 &&
        r.particles.proxies[0] === 'P_Walker_Exhaust' && r.particles.missingTextures.length === 0 &&
        r.particles.messages.length === walkerInfo.proxy_names.length - 1 &&
        r.particles.messages.every(m => m.kind === 'note' && / is hidden: not drawn$/.test(m.text)), r.particles);
  // The model alone for the comparisons with the CLI's export.
  await page.evaluate(() => window.ferryViewer.modelParticlesShown(false));
  await setSize(512, 512);
  let s = await stats();
  const rw = renderedOf('walker');
  check('walker: meshes, bones and triangles as ferry info', s.meshes === walkerInfo.meshes && s.bones === walkerInfo.bones &&
        s.triangles === walkerInfo.triangles, { viewer: s, info: walkerInfo });
  check('walker: its animations, as the CLI attaches them (--anim auto)', s.animations === rw.stats.animations.length && s.animations === 2,
        { viewer: s.animations, cli: rw.stats.animations.length });
  check('walker: its texture found in ../Textures', s.materialsWithMaps === 1 && r.report.missing_textures.length === 0, r.report);
  check('walker: as the CLI export draws it (meshes, triangles)', s.meshes === rw.stats.meshes && s.triangles === rw.stats.triangles);
  await page.locator('#stage canvas').screenshot({ path: path.join(work, 'viewer_walker.png') });
  let c = await compare(shotUrl('walker.png'), BG);
  check('walker: the screenshot has content', c.fgB > 2000, c);
  check('walker: the screenshot matches the CLI export drawn by the render check', c.far < 0.02 && Math.abs(c.fgA - c.fgB) < 0.05 * c.fgA, c);
  const rest = await page.evaluate(() => window.ferryViewer.bounds());
  await page.evaluate(() => { window.ferryViewer.selectAnimation(1); });
  const clipDuration = rw.stats.animations[1].duration;
  await page.evaluate(t => window.ferryViewer.seek(t), clipDuration / 2);
  const posed = await page.evaluate(() => window.ferryViewer.bounds());
  check('walker: the animation moves the skin, which stays in place', JSON.stringify(posed) !== JSON.stringify(rest) &&
        [0, 1, 2].every(i => (posed.max[i] - posed.min[i]) < 2 * (rest.max[i] - rest.min[i]) + 1e-6), { rest, posed });
  await page.locator('#stage canvas').screenshot({ path: path.join(work, 'viewer_walker_walk.png') });

  // -- the walker's particles on its proxy, at a time: the system's own
  // particles (ferry particles, same seed) placed at the proxy's bone --
  await page.evaluate(() => { window.ferryViewer.selectAnimation(-1); window.ferryViewer.modelParticlesShown(true); });
  await page.evaluate(t => window.ferryViewer.particleTime(t), TIME);
  const onModel = await page.evaluate(() => window.ferryViewer.modelParticles());
  const localParts = cliParticles0.emitters.flatMap(e => e.particles.map(p => ({ ...p, emitter: e.index })));
  const m = onModel.systems[0].transform;
  const place = (p) => [0, 1, 2].map(i => m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i]);
  const localById = new Map(localParts.map(p => [String(p.id), p]));
  let placedWorst = 0, placedMissing = 0, moved = 0;
  for (const p of onModel.particles) {
    const q = localById.get(p.id);
    if (!q || q.emitter !== p.emitter) { placedMissing++; continue; }
    const w = place(q.position);
    for (let k = 0; k < 3; k++) {
      placedWorst = Math.max(placedWorst, Math.abs(p.position[k] - w[k]) / Math.max(1, Math.abs(w[k])));
      moved = Math.max(moved, Math.abs(p.position[k] - q.position[k]));
    }
  }
  check('walker particles: those of ferry particles at that time and seed, placed at the proxy (within 1e-4)',
        onModel.particles.length === localParts.length && localParts.length > 0 && placedMissing === 0 && placedWorst < 1e-4 && moved > 1e-3,
        { viewer: onModel.particles.length, cli: localParts.length, placedMissing, placedWorst, moved });
  check('walker particles: every live particle drawn as a sprite', onModel.sprites === onModel.particles.length, onModel.sprites);
  await page.locator('#stage canvas').screenshot({ path: path.join(work, 'viewer_walker_particles.png') });

  // -- the crate --
  r = await sel('game/Data/Art/Models/crate.alo');
  await setSize(512, 512);
  s = await stats();
  check('crate: meshes and triangles as ferry info', s.meshes === crateInfo.meshes && s.triangles === crateInfo.triangles,
        { viewer: s, info: crateInfo });
  c = await compare(shotUrl('crate.png'), BG);
  check('crate: the screenshot matches the CLI export drawn by the render check', c.fgB > 2000 && c.far < 0.02, c);
  await page.locator('#stage canvas').screenshot({ path: path.join(work, 'viewer_crate.png') });

  // -- the particle system at a time and seed --
  r = await sel('game/Data/Art/Models/p_walker_exhaust.alo');
  check('particles: shown, textures found', r.kind === 'particle' && r.missingTextures.length === 0, r);
  await setSize(512, 512);
  await page.evaluate(s => window.ferryViewer.particleSeed(s), SEED);
  await page.evaluate(t => window.ferryViewer.particleTime(t), TIME);
  await page.evaluate(() => window.ferryViewer.reframe());
  const parts = await page.evaluate(() => window.ferryViewer.particles());
  const cliParts = cliParticles.emitters.flatMap(e => e.particles.map(p => ({ ...p, emitter: e.index })));
  check('particles: the count of ferry particles --json', parts.length === cliParts.length && parts.length > 0,
        { viewer: parts.length, cli: cliParts.length });
  const byId = new Map(cliParts.map(p => [String(p.id), p]));
  let worst = 0, missing = 0;
  for (const p of parts) {
    const q = byId.get(p.id);
    if (!q || q.emitter !== p.emitter) { missing++; continue; }
    for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(p.position[k] - q.position[k]) / Math.max(1, Math.abs(q.position[k])));
  }
  check('particles: the same particles (ids, emitters), positions within 1e-4', missing === 0 && worst < 1e-4, { missing, worst });
  await page.locator('#stage canvas').screenshot({ path: path.join(work, 'viewer_exhaust.png') });
  c = await compare(shotUrl('exhaust_cli.png'), null);
  check('particles: the picture matches ferry render at that time and seed', c.mean < 4 && c.far < 0.02, c);
  const pf = await page.evaluate(() => window.ferryViewer.particleFrame());
  check('particles: every live particle drawn as a sprite', pf.sprites === parts.length, pf);

  // -- a P3D: game view, everything, LOD toggles, animation classes --
  r = await sel('addons/box.p3d');
  await setSize(512, 512);
  s = await stats();
  const lod0 = boxInfo.lods[0];
  check('box.p3d: the first LOD, as ferry info counts it (quads are two triangles)', s.triangles === lod0.triangles + 2 * lod0.quads, { s, lod0 });
  check('box.p3d: its textures found in the addon by its $PREFIX$', s.materialsWithMaps >= 1 && r.report.textures_found >= 1, r.report);
  await page.locator('#stage canvas').screenshot({ path: path.join(work, 'viewer_box.png') });
  await page.evaluate(() => window.ferryViewer.setAll(true));
  const toggles = await page.evaluate(() => window.ferryViewer.toggles());
  check('box.p3d everything: a toggle per LOD, the first shown', toggles.length === boxInfo.lods.length && toggles[0].checked &&
        toggles.slice(1).every(t => !t.checked), toggles);
  await page.evaluate(() => document.querySelectorAll('#toolbar details input[type=checkbox]').forEach(c => { if (!c.checked) c.click(); }));
  s = await stats();
  const allTris = boxInfo.lods.reduce((n, l) => n + l.triangles + 2 * l.quads, 0);
  check('box.p3d everything: every LOD shown, as ferry info counts them', s.triangles === allTris, { s: s.triangles, allTris });
  r = await sel('addons/door.p3d');
  s = await stats();
  const rd = renderedOf('door');
  check('door.p3d: its animation classes, as the CLI exports them', s.animations === rd.stats.animations.length && s.animations > 0,
        { viewer: s.animations, cli: rd.stats.animations.length });
  const sliders = await page.locator('#toolbar details input[type=range]').count();
  check('door.p3d: a slider per animation class', sliders === s.animations, sliders);
  check('door.p3d: triangles as the CLI export', s.triangles === rd.stats.triangles, { s: s.triangles, cli: rd.stats.triangles });

  // -- an ALM and its levels of detail --
  r = await sel('extra/walker.alm');
  s = await stats();
  check('walker.alm: triangles as ferry info, skinned, one animation', s.triangles === almInfo.triangles && s.skinnedMeshes === 1 &&
        s.animations === 1, s);
  const lod = almInfo.lods[1];
  await page.evaluate(n => window.ferryViewer.current().reexport(false, { alm_lod: { collapses: n } }), lod.collapses);
  s = await stats();
  check('walker.alm: a level of detail has the triangles ferry info gives it', s.triangles === lod.triangles,
        { s: s.triangles, lod });

  // -- the MEG: its entries, a model inside with textures found inside --
  r = await sel('archives/game.meg');
  check('game.meg: the entries of ferry list', r.entries === megList.files.length, { viewer: r.entries, cli: megList.files.length });
  const walkerIndex = megList.files.find(f => /WALKER\.ALO$/.test(f.name)).index;
  r = await sel(`archives/game.meg::${walkerIndex}`);
  s = await stats();
  check('game.meg walker: as ferry info counts it, textures and animations found inside the archive',
        s.meshes === walkerInfo.meshes && s.triangles === walkerInfo.triangles && s.materialsWithMaps === 1 && s.animations === 2, { s, r: r.report });

  // -- a larger MEG: listed from its tables, an entry read alone, never the whole file --
  r = await sel('archives/padded.meg');
  const paddedList = cliJson('list', '--json', path.join(archives, 'padded.meg'));
  const walkerInPadded = paddedList.files.find(f => /WALKER\.ALO$/.test(f.name)).index;
  const readsListed = paddedReads.slice();
  r = await sel(`archives/padded.meg::${walkerInPadded}`);
  s = await stats();
  const rangeBytes = (list) => list.reduce((n, h) => { const m = /^bytes=(\d+)-(\d+)$/.exec(h); return m ? n + Number(m[2]) - Number(m[1]) + 1 : Infinity; }, 0);
  check('padded.meg: listed as ferry list lists it, from a few ranges (not the 4 MB file)',
        r && !r.error && (await page.evaluate(() => window.ferryViewer.tree().filter(t => t.key.startsWith('archives/padded.meg::')).length)) === paddedList.files.length &&
        readsListed.length >= 1 && rangeBytes(readsListed) < paddedSize / 8, { readsListed, paddedSize });
  check('padded.meg walker: shown with its textures and animations, read by ranges only',
        s.triangles === walkerInfo.triangles && s.materialsWithMaps === 1 && s.animations === 2 &&
        paddedReads.every(h => h !== 'whole') && rangeBytes(paddedReads) < paddedSize / 2, { s, paddedReads });

  // -- the PBO: its entries, the P3D inside with its textures found at the prefix --
  r = await sel('archives/box.pbo');
  check('box.pbo: the entries of ferry list', r.entries === pboList.files.length && pboList.prefix === 'ferry\\box', { viewer: r.entries, cli: pboList });
  const boxIndex = pboList.files.find(f => f.name === 'box.p3d').index;
  r = await sel(`archives/box.pbo::${boxIndex}`);
  s = await stats();
  check('box.pbo box.p3d: as ferry info counts it, its textures found in the PBO at its prefix',
        s.triangles === lod0.triangles + 2 * lod0.quads && s.materialsWithMaps >= 1 && r.report.textures_found >= 2, { s, r: r.report });

  // -- a PBO without a prefix property: a texture root at its file name --
  const ferryList = cliJson('list', '--json', path.join(archives, 'ferry.pbo'));
  r = await sel('archives/ferry.pbo');
  const inFerry = ferryList.files.find(f => /box.p3d$/.test(f.name)).index;
  r = await sel(`archives/ferry.pbo::${inFerry}`);
  const mapSizes = await page.evaluate(() => {
    const sizes = [];
    window.ferryViewer.current().view.root.traverse(o => {
      for (const m of o.material ? [].concat(o.material) : []) if (m.map && m.map.image) sizes.push(m.map.image.width);
    });
    return sizes;
  });
  check('ferry.pbo (no prefix): mounted at its name, its box.p3d textured from it (16 px, not the addon\'s 64)',
        !ferryList.prefix && r.report.textures_found >= 2 && mapSizes.length >= 1 && mapSizes.every(w => w === 16),
        { prefix: ferryList.prefix, report: r.report, mapSizes });

  // -- a hostile archive: refused with the tool's message; the page goes on --
  r = await sel('archives/cut.meg');
  const cutMessage = (cutError || '').trim().split('\n')[0].replace(/^[^:]*cut\.meg: (error: )?/, '');
  check('cut.meg: refused with the message ferry gives', r.error && cutMessage.length > 10 && r.error.includes(cutMessage),
        { viewer: r.error, cli: cutError });
  const cutRow = await page.locator('#tree li.bad').count();
  check('cut.meg: marked in the tree', cutRow >= 1, cutRow);
  r = await sel('game/Data/Art/Models/crate.alo');
  check('after the hostile file, a model still shows', r.kind === 'model' && !r.error && (await stats()).triangles === crateInfo.triangles);

  // -- textures --
  r = await sel('loose/wood.paa');
  check('wood.paa: its mipmaps', r.kind === 'texture' && r.levels === paaInfo.mipmaps.length && r.width === 64, { r, paa: paaInfo.mipmaps });
  await page.locator('#toolbar select').first().selectOption('1');
  await page.waitForFunction(() => document.querySelector('#stage .texture canvas').width === 32);
  r = await sel('loose/ramp.tga');
  check('ramp.tga: decoded', r.kind === 'texture' && r.width === 64 && r.height === 32, r);
  await page.locator('#stage').screenshot({ path: path.join(work, 'viewer_ramp.png') });
  r = await sel('loose/flat.dds');
  check('flat.dds: decoded with its 5 mip levels', r.kind === 'texture' && r.width === 16 && r.height === 8 && r.levels === 5, r);
  await page.locator('#toolbar select').first().selectOption('4');
  await page.waitForFunction(() => document.querySelector('#stage .texture canvas').width === 1);

  // -- animations beside a model that do not all fit it: attached or left out as the CLI does --
  r = await sel('limp/walker.alo');
  s = await stats();
  const attachedNote = (r.report.warnings || []).find(w => w.rule === 'animation-attached');
  const skippedNote = (r.report.animations_skipped || [])[0];
  check('limp/walker.alo: the animation that mostly fits attached with a warning, the other left out, as ferry convert --anim auto',
        JSON.stringify(r.report.animations) === JSON.stringify(limpCli) && JSON.stringify(limpCli) === '["walker_limp_00"]' &&
        s.animations === 1 && attachedNote && attachedNote.file === 'limp/walker_limp_00.ala' &&
        /^attached, though 1 of 6 tracks do not fit walker\.alo.*'Beacox'/.test(attachedNote.message) &&
        r.report.animations_skipped.length === 1 && skippedNote.file === 'limp/walker_fall_00.ala' &&
        /does not fit walker\.alo \(4 of 6 tracks\)/.test(skippedNote.why), { report: r.report, cli: limpCli, s });
  const limpNotes = await page.locator('#toolbar .group.note').first().getAttribute('title');
  check('limp/walker.alo: both said in the toolbar\'s notes', limpNotes && limpNotes.includes('limp/walker_limp_00.ala: attached, though') &&
        limpNotes.includes('limp/walker_fall_00.ala: animation skipped: does not fit'), limpNotes);

  // -- a model with a validation error: refused by ferry convert, shown here, its errors said --
  r = await sel('limp/bad.alo');
  s = await stats();
  const badSaid = (r.report && r.report.warnings) || [];
  check('limp/bad.alo: refused by ferry convert, shown anyway with its error and the library\'s "converting anyway"',
        badRefused && /not converted: 1 validation error/.test(badRefused) && r.kind === 'model' && !r.error &&
        s.triangles === badTriangles && badTriangles > 0 && r.validation && r.validation.errors === 1 &&
        badSaid.some(w => w.severity === 'error' && w.rule === 'index-range') &&
        badSaid.some(w => w.severity === 'warning' && w.rule === 'converted-anyway'), { cli: badRefused, badTriangles, r: r.report, s });

  // -- a glTF: drawn as it is, its triangles the file's --
  r = await sel('limp/crate_export.glb');
  s = await stats();
  check('limp/crate_export.glb: a glTF drawn as a model, its triangles the file\'s',
        r.kind === 'model' && !r.error && r.report && r.report.ok && s.triangles === crateGlbTriangles && crateGlbTriangles > 0,
        { r: r.report, s, crateGlbTriangles });

  // -- validation in context: each file's report is `ferry validate FILE`'s --
  const cliValidate = (rel) => {
    let out;
    try { out = execFileSync(ferry, ['validate', '--json', rel], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); }
    catch (e) { out = String(e.stdout); }
    return JSON.parse(out)[0];
  };
  r = await sel('archives/decoy.meg');   // opened: a place a view and an export search
  const items = (list) => list.map(d => `${d.severity} ${d.rule} ${d.offset} ${d.path} ${d.message}`).sort();
  for (const rel of ['game/Data/Art/Models/walker.alo', 'game/Data/Art/Models/crate.alo', 'game/Data/Art/Models/p_walker_exhaust.alo',
                     'game/Data/Art/Models/walker_walk_00.ala', 'addons/box.p3d', 'addons/door.p3d', 'extra/walker.alm', 'loose/wood.paa']) {
    r = await sel(rel);
    const mine = r.validation, theirs = cliValidate(rel);
    const a = items(mine.items), b = items([...theirs.errors, ...theirs.warnings]);
    check(`${rel}: validated as ferry validate ${rel} (${b.length} item(s))`, JSON.stringify(a) === JSON.stringify(b) &&
          mine.errors === theirs.error_count && mine.warnings === theirs.warning_count && (mine.model || null) === (theirs.model || null),
          { viewer: a, cli: b, model: [mine.model, theirs.model] });
  }

  // -- the whole drop's validation; a click selects the file --
  const all = await page.evaluate(() => window.ferryViewer.validateAll());
  const cutReport = all.reports.find(x => x.file === 'archives/cut.meg');
  check('validation of the drop: every asset, the hostile one an error', all.reports.length >= 10 && cutReport && cutReport.errors === 1, all.reports.length);
  await page.locator('#report-all .item.error').first().click();
  await page.waitForFunction(() => document.querySelector('#tree .selected') &&
    document.querySelector('#tree .selected').closest('li').dataset.key === 'archives/cut.meg');
  check('validation: a click on an item selects its file', true);

  // -- files given through the page's file input --
  await page.setInputFiles('#open-files', [path.join(src, 'samples/alamo/crate.alo')]);
  await page.evaluate(() => window.ferryViewer.inputDone());
  s = await stats();
  check('a file opened through the input: shown', s && s.triangles === crateInfo.triangles, s);

  // -- a folder through the folder input (its files by their relative paths) --
  await page.setInputFiles('#open-folder', path.join(src, 'samples/odol'));
  await page.evaluate(() => window.ferryViewer.inputDone());
  const folderKeys = (await page.evaluate(() => window.ferryViewer.tree())).map(t => t.key).filter(k => k.startsWith('odol/'));
  check('a folder through the input: its files listed under it', ['odol/box.p3d', 'odol/door.p3d', 'odol/grid.p3d'].every(k => folderKeys.includes(k)), folderKeys);
  r = await sel('odol/box.p3d');
  check('a file of that folder: shown', r.kind === 'model' && !r.error, r.error);

  // -- a file dropped on the drop zone (a drop event carrying it) --
  r = await page.evaluate(async (url) => {
    const bytes = await (await fetch(url)).arrayBuffer();
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'dropped_crate.alo'));
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    for (let i = 0; i < 100 && !window.ferryViewer.tree().some(t => t.key === 'dropped_crate.alo'); i++) await new Promise(r => setTimeout(r, 50));
    return window.ferryViewer.select('dropped_crate.alo');
  }, new URL('files/0/Data/Art/Models/crate.alo', base).href);
  s = await stats();
  check('a dropped file: listed and shown', r.kind === 'model' && s.triangles === crateInfo.triangles, { r: r.error, s });

  check('no errors in the console', consoleErrors.length === 0, consoleErrors);
  check('nothing asked of any other server', foreign.length === 0, foreign);
} finally {
  await browser.close();
  server.kill('SIGINT');
}
const code = await new Promise(r => server.on('exit', (c, sig) => r(c ?? sig)));
check('ferry view stops on Ctrl-C', code === 0, code);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
