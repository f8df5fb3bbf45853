#!/usr/bin/env node
// The web viewer's speed in headless Chromium (Debian's, through
// playwright-core from tests/render/node_modules): medians of several runs,
// each on a freshly loaded page.
//
//   node bench/web.mjs [--runs N] [--ferry build/ferry] [--page build/web] [--corpus ../shared/corpus]
//
// - first frame of a ~3 MB model: the corpus's largest ALO under 4 MB
//   (ufocp/UB_04_Station.alo, 3.7 MB); from the moment the file is selected
//   to its first frame drawn: the file read, exported to glTF by libferry
//   in the worker, loaded by three.js and drawn. Two ways in: given to
//   `ferry view` (read over HTTP from 127.0.0.1) and given to the page's
//   file input (read with FileReaderSync, as a drop is);
// - a 100 MB MEG listed: `ferry pack` of corpus files (copied to a temporary
//   folder until they pass 100 MB), from selecting it to its entries listed;
//   and its first model shown: from selecting the MEG to the first frame of
//   its first entry named like a model (listed, the entry read, exported,
//   drawn);
// - the page's load: navigation to ferry.wasm compiled and ready; the size
//   of ferry.wasm.
// Skips (exit 0, says so) without the corpus; exits 1 when a run fails.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(here, '..');
const opt = { runs: 5, ferry: path.join(src, 'build/ferry'), page: path.join(src, 'build/web'),
              corpus: path.resolve(src, '../shared/corpus') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].replace(/^--/, '');
  if (!(k in opt) || i + 1 >= argv.length) { console.error('usage: node bench/web.mjs [--runs N] [--ferry F] [--page DIR] [--corpus DIR]'); process.exit(2); }
  opt[k] = k === 'runs' ? Number(argv[++i]) : path.resolve(argv[++i]);
}
const model = path.join(opt.corpus, 'alamo/ufocp/UB_04_Station.alo');
if (!fs.existsSync(model)) { console.log(`skipped: ${model} is absent (the corpus, ../shared)`); process.exit(0); }
if (!fs.existsSync(path.join(opt.page, 'ferry.wasm'))) { console.error(`${opt.page}: no ferry.wasm (make web)`); process.exit(1); }
const require = createRequire(path.join(src, 'tests/render/package.json'));
const { chromium } = require('playwright-core');

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

// The 100 MB MEG, packed once per machine into the temporary folder.
const work = path.join(os.tmpdir(), 'ferry-bench-web');
const meg = path.join(work, 'big.meg');
if (!fs.existsSync(meg) || fs.statSync(meg).size < 100e6) {
  fs.rmSync(work, { recursive: true, force: true });
  const tree = path.join(work, 'tree/Data/Art/Models');
  fs.mkdirSync(tree, { recursive: true });
  let total = 0;
  const files = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else files.push(p); } };
  walk(path.join(opt.corpus, 'alamo'));
  files.sort();
  for (const f of files) {
    if (total >= 100e6) break;
    const to = path.join(tree, path.relative(path.join(opt.corpus, 'alamo'), f).replace(/[\\/]/g, '_'));
    fs.copyFileSync(f, to);
    total += fs.statSync(to).size;
  }
  execFileSync(opt.ferry, ['pack', meg, path.join(work, 'tree')], { stdio: 'inherit' });
  fs.rmSync(path.join(work, 'tree'), { recursive: true, force: true });
}
const megSize = fs.statSync(meg).size;
const megEntries = JSON.parse(execFileSync(opt.ferry, ['list', '--json', meg], { encoding: 'utf8', maxBuffer: 1 << 28 })).files.length;

const server = spawn(opt.ferry, ['view', '--no-open', '--page', opt.page, model, meg], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', d => { out += d; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); });
  server.on('exit', c => reject(new Error(`ferry view exited (${c})`)));
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
         '--disable-background-networking'] });
const results = { load: [], modelServed: [], modelInput: [], megServed: [], megInput: [], megModelServed: [], megModelInput: [],
                  timing: {} };
let failed = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (let run = 0; run < opt.runs; run++) {
    const t0 = Date.now();
    await page.goto(base, { waitUntil: 'load' });
    await page.evaluate(() => window.ferryViewer.ready);
    results.load.push(Date.now() - t0);
    await page.evaluate(() => window.ferryViewer.served);
    // A model's time is to its first frame drawn (what follows it, the
    // particle systems of its proxies looked up and the toolbar, is not
    // waited for); anything else's, to its view shown.
    const one = async (key, what, list) => {
      const r = await page.evaluate(async k => {
        const t0 = performance.now();
        const r = await window.ferryViewer.select(k);
        if (r.firstFrameAt) r.firstFrameMs = r.firstFrameAt - t0;
        return r;
      }, key);
      if (r.error || !r.shownMs) { failed++; console.error(`${what}: ${r.error || 'nothing shown'}`); return; }
      list.push(r.firstFrameMs ?? r.shownMs);
      (results.timing[what] = results.timing[what] || []).push(r.timing);
    };
    // The MEG selected, then its first model: the time to that model's first frame.
    const megModel = async (what, list, listedList) => {
      const r = await page.evaluate(async () => {
        const t0 = performance.now();
        const listed = await window.ferryViewer.select('big.meg');
        const first = window.ferryViewer.tree().find(t => t.key.startsWith('big.meg::') && t.kind === 'model');
        if (listed.error || !first) return { error: listed.error || 'no model in the MEG' };
        const shown = await window.ferryViewer.select(first.key);
        return { error: shown.error, ms: shown.firstFrameAt - t0, key: first.key, format: shown.format,
                 listedMs: listed.shownMs, timing: listed.timing };
      });
      if (r.error) { failed++; console.error(`${what}: ${r.error}`); return; }
      list.push(r.ms);
      listedList.push(r.listedMs);
      (results.timing[what] = results.timing[what] || []).push(r.timing);
      results.megModelKey = `${r.key} (${r.format})`;
    };
    await one('UB_04_Station.alo', 'model (served)', results.modelServed);
    await megModel('MEG (served)', results.megModelServed, results.megServed);
    // The same files through the file input, as a drop is read.
    await page.evaluate(() => window.ferryViewer.clear());
    await page.locator('#open-files').setInputFiles([model, meg]);
    await page.evaluate(() => window.ferryViewer.inputDone());
    await one('UB_04_Station.alo', 'model (input)', results.modelInput);
    await megModel('MEG (input)', results.megModelInput, results.megInput);
    const entries = await page.evaluate(() => window.ferryViewer.tree().filter(t => t.key.startsWith('big.meg::')).length);
    if (entries !== megEntries) { failed++; console.error(`MEG listed ${entries} entries, ferry list ${megEntries}`); }
  }
} finally {
  await browser.close();
  server.kill('SIGINT');
}
const wasm = fs.statSync(path.join(opt.page, 'ferry.wasm')).size;
const summary = {
  runs: opt.runs,
  wasm_bytes: wasm,
  page_ready_ms: median(results.load),
  model: { file: path.relative(opt.corpus, model), bytes: fs.statSync(model).size,
           first_frame_ms_served: median(results.modelServed), first_frame_ms_input: median(results.modelInput) },
  meg: { bytes: megSize, entries: megEntries, listed_ms_served: median(results.megServed), listed_ms_input: median(results.megInput),
         first_model: results.megModelKey, first_model_frame_ms_served: median(results.megModelServed),
         first_model_frame_ms_input: median(results.megModelInput) },
  all: results,
};
// Where the time goes (medians): the worker's steps of opening the file
// (read, copy into the module's memory, read as an asset, info, archive
// entries) and the time until the worker answered.
summary.steps = Object.fromEntries(Object.entries(results.timing).map(([k, runs]) =>
  [k, Object.fromEntries(Object.keys(runs[0] || {}).map(s => [s, +median(runs.map(r => r[s] || 0)).toFixed(1)]))]));
console.log(JSON.stringify(summary, null, 1));
process.exit(failed ? 1 : 0);
