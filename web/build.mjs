// SPDX-License-Identifier: MIT
// Builds the playground (index.html) and the API reference (docs.html).
//
//   cd web && npm ci && node build.mjs OUT      (OUT defaults to web/dist)
//
// OUT receives index.html, docs.html and assets/: the bundled JS and CSS
// with content-hashed names (ES modules, split into chunks: the puzzle
// viewer's code is only loaded when a twisty puzzle is shown) and
// redoc.standalone.js copied from the redoc package. Everything is served
// from the same origin; no page loads anything from elsewhere and no page
// has an inline script, so a strict Content-Security-Policy holds.

import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, 'src');
const out = path.resolve(process.argv[2] || path.join(here, 'dist'));
const assets = path.join(out, 'assets');
const require = createRequire(import.meta.url);

// The entry points; each HTML page names its entries by their source path.
const entries = {
  main: path.join(src, 'main.js'),
  docs: path.join(src, 'docs.js'),
  style: path.join(src, 'style.css'),
};

await rm(out, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const result = await esbuild.build({
  entryPoints: Object.values(entries),
  outdir: assets,
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['es2022'],
  minify: true,
  sourcemap: false,
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
  loader: { '.svg': 'file', '.woff2': 'file' },
});

// Map each entry's source path to the hashed file esbuild wrote for it.
const hashed = {};
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  if (!meta.entryPoint) continue;
  const source = path.resolve(meta.entryPoint);
  for (const [name, entry] of Object.entries(entries)) {
    if (path.resolve(entry) === source) hashed[name] = path.basename(file);
  }
}
for (const name of Object.keys(entries)) {
  if (!hashed[name]) throw new Error(`no output for entry ${name}`);
}

// The pages reference their assets as {{name}}; put in the hashed names.
for (const page of ['index.html', 'docs.html']) {
  let html = await readFile(path.join(src, page), 'utf8');
  html = html.replace(/\{\{(\w+)\}\}/g, (all, name) => {
    if (!hashed[name]) throw new Error(`${page}: unknown asset {{${name}}}`);
    return `assets/${hashed[name]}`;
  });
  await writeFile(path.join(out, page), html);
}

// Redoc's sidebar shows a logo from its vendor's site; the page may load
// nothing from elsewhere (and its Content-Security-Policy would block it
// with a console error), so the bundle gets an empty inline picture instead.
const redoc = require.resolve('redoc/bundles/redoc.standalone.js');
const remoteLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const emptyPicture = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";
let redocCode = await readFile(redoc, 'utf8');
if (redocCode.includes(remoteLogo)) redocCode = redocCode.split(remoteLogo).join(emptyPicture);
if (/https:\/\/cdn\.redoc\.ly\//.test(redocCode)) throw new Error('redoc.standalone.js still loads from cdn.redoc.ly');
await writeFile(path.join(assets, 'redoc.standalone.js'), redocCode);
await copyFile(`${redoc}.LICENSE.txt`, path.join(assets, 'redoc.standalone.js.LICENSE.txt'));

// The third-party packages in the built files, with their licences and
// where their source is (MPL-2.0 section 3.2 asks that recipients of the
// executable form learn how to get the source form): assets/licenses.txt,
// linked from the page.
const packages = new Map([['redoc', path.join(here, 'node_modules', 'redoc')]]);
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
  if (m) packages.set(m[2], path.resolve(m[1]));
}
const notices = [];
for (const [name, dir] of [...packages].sort()) {
  const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  let text = '';
  for (const file of ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'COPYING']) {
    try {
      text = await readFile(path.join(dir, file), 'utf8');
      break;
    } catch {
      // the next usual name
    }
  }
  notices.push([
    `${name} ${pkg.version}`,
    `licence: ${pkg.license}${name === 'cubing' ? ' (used under MPL-2.0)' : ''}`,
    `source: https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${pkg.version}.tgz` +
      (repo ? ` (repository ${repo.replace(/^git\+/, '')})` : ''),
    '',
    text.trim() || `The package has no licence file; the licence text: ` +
      `https://spdx.org/licenses/${name === 'cubing' ? 'MPL-2.0' : pkg.license}.html`,
  ].join('\n'));
}
await writeFile(path.join(assets, 'licenses.txt'),
  `Third-party packages in these pages, unmodified except where noted.\n` +
  `redoc: its sidebar logo address is replaced by an empty inline picture.\n\n` +
  notices.join(`\n\n${'='.repeat(72)}\n\n`) + '\n');

console.log(`built ${path.relative(process.cwd(), out) || '.'}: ${Object.values(hashed).join(', ')}`);
