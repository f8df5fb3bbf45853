#!/usr/bin/env node
// Renders .glb files with three.js in headless Chromium and takes screenshots.
//
//   node tests/render/render.mjs [options] OUT_DIR FILE.glb...
//
// Serves this folder (index.html, node_modules) and the given files on 127.0.0.1 only,
// opens index.html in Chromium (Debian's /usr/bin/chromium through playwright-core; no
// browser download), and for each file calls window.ferryRender: GLTFLoader load, scene
// statistics, framing, hemisphere + directional light (plus the file's KHR lights), the
// first animation posed at a time, a WebGL render (SwiftShader) of a 3/4 view and a side
// view, and a count of pixels that differ from the clear colour.
// Writes OUT_DIR/NAME[SUFFIX].png and OUT_DIR/summary[SUFFIX].json; exits 1 when any file
// fails to load or renders nothing, 2 on usage errors.
//
// Options:
//   --at F        pose the animation at fraction F of its duration (0 = start,
//                 1 = its last key: played once and held, not wrapped)
//   --time S      pose the animation at S seconds
//   --anim N      the animation to play: index or name (default: the first)
//   --rest        do not play any animation (bind pose / node transforms as stored)
//   --hide-hidden hide meshes whose extras say not_drawn (files made with convert --all)
//   --suffix S    appended to each screenshot and summary name (e.g. _mid)
//   --chromium P  browser executable (default: $CHROMIUM or /usr/bin/chromium)
//   --quiet       only print failures
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(msg) {
  if (msg) console.error(`render.mjs: ${msg}`);
  console.error('usage: node render.mjs [--at F | --time S] [--anim N] [--rest] [--hide-hidden] [--suffix S] [--quiet] OUT_DIR FILE.glb...');
  process.exit(2);
}

const opts = {};
let suffix = '', quiet = false, exe = process.env.CHROMIUM || '/usr/bin/chromium';
const positional = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const val = () => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
  if (a === '--at') opts.at = Number(val());
  else if (a === '--time') opts.time = Number(val());
  else if (a === '--anim') opts.anim = val();
  else if (a === '--rest') opts.rest = true;
  else if (a === '--hide-hidden') opts.hideHidden = true;
  else if (a === '--suffix') suffix = val();
  else if (a === '--chromium') exe = val();
  else if (a === '--quiet') quiet = true;
  else if (a === '--help' || a === '-h') usage();
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else positional.push(a);
}
if (positional.length < 2) usage();
for (const k of ['at', 'time']) if (k in opts && !Number.isFinite(opts[k])) usage(`--${k} needs a number`);
const [outDir, ...files] = positional;
for (const f of files) if (!fs.existsSync(f)) usage(`${f}: no such file`);
fs.mkdirSync(outDir, { recursive: true });

// Static server: /glb/<i> is files[i]; everything else from this folder.
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
                '.json': 'application/json', '.glb': 'model/gltf-binary', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file;
  const m = url.match(/^\/glb\/(\d+)\.glb$/);
  if (m && +m[1] < files.length) file = path.resolve(files[+m[1]]);
  else {
    file = path.join(here, url === '/' ? 'index.html' : url);
    if (!file.startsWith(here + path.sep)) { res.writeHead(403).end(); return; }
  }
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(data);
  });
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: exe,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--ignore-gpu-blocklist'],
}).catch(e => { console.error(`render.mjs: cannot start ${exe}: ${e.message}`); process.exit(1); });
// playwright-core's launch() gives Chromium a new empty --user-data-dir of its own (and refuses
// one in args), removed on close.

let failed = 0;
const results = [];
try {
  const page = await browser.newPage({ viewport: { width: 1536, height: 512 } });
  const consoleErrors = [];
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', e => consoleErrors.push(String(e)));
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => window.ferryReady === true, null, { timeout: 30000 });
  const gl = await page.evaluate(() => {
    const c = document.querySelector('canvas').getContext('webgl2');
    const d = c && c.getExtension('WEBGL_debug_renderer_info');
    return d ? c.getParameter(d.UNMASKED_RENDERER_WEBGL) : (c ? c.getParameter(c.RENDERER) : 'none');
  });
  if (!quiet) console.log(`WebGL renderer: ${gl}`);
  for (let i = 0; i < files.length; i++) {
    const name = path.basename(files[i]).replace(/\.glb$/i, '');
    consoleErrors.length = 0;
    const r = await page.evaluate(([url, o]) => window.ferryRender(url, o), [`/glb/${i}.glb`, opts]);
    r.file = files[i];
    delete r.url;
    r.consoleErrors = [...consoleErrors];
    const png = path.join(outDir, `${name}${suffix}.png`);
    if (r.ok) {
      await page.locator('canvas').screenshot({ path: png });
      r.screenshot = png;
    }
    const empty = r.ok && !(r.nonBackgroundPixels > 0);
    if (!r.ok || empty) failed++;
    results.push(r);
    const s = r.stats || {};
    const line = `${files[i]}: ${r.ok ? (empty ? 'EMPTY RENDER' : 'ok') : 'LOAD FAILED'}` +
      (r.ok ? `, ${s.meshes} meshes (${s.skinnedMeshes} skinned), ${s.bones} bones, ${s.triangles} triangles, ` +
              `${s.materialsWithMaps}/${s.materials} materials with maps, ${s.animations.length} animations, ` +
              `${r.nonBackgroundPixels} pixels drawn` + (r.anim ? `, '${r.anim.name}' at ${r.anim.time}s of ${r.anim.duration}s` : '') : '');
    if (!quiet || !r.ok || empty) console.log(line);
    for (const e of r.errors) console.error(`  error: ${e.split('\n')[0]}`);
  }
} finally {
  await browser.close();
  server.close();
}
fs.writeFileSync(path.join(outDir, `summary${suffix}.json`), JSON.stringify(results, null, 2) + '\n');
if (failed) console.error(`${failed} of ${files.length} files failed to load or rendered nothing`);
process.exit(failed ? 1 : 0);
