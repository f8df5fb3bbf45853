#!/usr/bin/env node
// Runs the Khronos glTF validator on each file given:
//   node tests/gltf/validate.mjs FILE.glb FILE.gltf ...
// Prints one summary line per file and every error with its JSON pointer.
// Exit status: 0 all files free of errors (warnings are fine), 1 some file
// has errors or could not be read, 2 usage problems (no files, missing
// validator package).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function usage(message) {
  process.stderr.write(`validate.mjs: ${message}\nusage: node tests/gltf/validate.mjs FILE.glb|FILE.gltf...\n`);
  process.exit(2);
}

const files = process.argv.slice(2);
if (files.length === 0) usage('no files given');
for (const f of files) {
  if (f.startsWith('-')) usage(`unknown option ${f}`);
  const ext = path.extname(f).toLowerCase();
  if (ext !== '.glb' && ext !== '.gltf') usage(`${f}: expected a .glb or .gltf file`);
}

let validator;
try {
  validator = require('gltf-validator');
} catch (e) {
  usage(`the gltf-validator package is missing; run "npm ci" in ${path.dirname(new URL(import.meta.url).pathname)}`);
}

let failed = false;
for (const file of files) {
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    console.log(`${file}: cannot read: ${e.message}`);
    failed = true;
    continue;
  }
  const dir = path.dirname(path.resolve(file));
  let report;
  try {
    report = await validator.validateBytes(new Uint8Array(bytes), {
      uri: path.basename(file),
      format: path.extname(file).toLowerCase() === '.glb' ? 'glb' : 'gltf',
      maxIssues: 0, // no limit: every problem is worth seeing
      // External buffers and images live beside the .gltf; a missing one
      // becomes a validator error rather than a crash.
      externalResourceFunction: (uri) =>
        fs.promises.readFile(path.resolve(dir, decodeURIComponent(uri))).then((d) => new Uint8Array(d)),
    });
  } catch (e) {
    console.log(`${file}: validator refused the file: ${e}`);
    failed = true;
    continue;
  }
  const is = report.issues;
  console.log(`${file}: ${is.numErrors} errors, ${is.numWarnings} warnings, ${is.numInfos} infos, ${is.numHints} hints`);
  for (const m of is.messages) {
    // Errors always print; warnings too, since they are cheap to read and
    // often point at what a later error is about.
    if (m.severity <= 1) {
      const kind = m.severity === 0 ? 'error' : 'warning';
      console.log(`  ${kind} ${m.code} at ${m.pointer ?? (m.offset !== undefined ? 'offset ' + m.offset : '(document)')}: ${m.message}`);
    }
  }
  if (is.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
