// SPDX-License-Identifier: MIT
// Browser tests of the playground and the API reference page, in headless
// Chromium driven by playwright-core (from web/node_modules).
//
//   node tests/web/playground.test.mjs BASE_URL SCREENSHOT_DIR
//
// BASE_URL is a running daemon that serves the built pages and the API
// (tests/web/run starts one). Every wait is on the page's own state (an
// element, an attribute, an event), never a fixed sleep.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const requireWeb = createRequire(path.join(here, '..', '..', 'web', 'package.json'));
const { chromium } = requireWeb('playwright-core');

const base = new URL(process.argv[2] || process.env.PUZZLED_WEB_URL || 'http://127.0.0.1:8080/');
const shots = path.resolve(process.argv[3] || process.env.PUZZLED_WEB_SHOTS || 'web-screenshots');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
mkdirSync(shots, { recursive: true });

// A 3x3x3 scramble whose optimal IDA* search with the weak `misplaced`
// heuristic takes a second or more (4.9 M expansions), and a 15-puzzle
// state (34 moves) that IDA* with `misplaced` needs about 80 M expansions
// for: both run long enough for several live `job` events.
const CUBE_SCRAMBLE = "R U2 F' D L2 B R' U F";
const TILES_STATE = '1 6 3 8 / 4 9 2 11 / 5 12 15 7 / 13 14 10 0';
const TILES_GOAL = '1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 0';
const LONG = 180_000;

let browser;
let page;
const problems = [];  // console errors, page errors, requests to other origins
// The HTTP statuses a step expects from the API: Chromium logs every
// answer of 400 or more as a console error, the refusal of an invalid
// state included.
let expectedStatuses = new Set();
let shot = 0;

async function screenshot(name, fullPage = true) {
  // The 3D player animates each step and draws the result on a later
  // animation frame: the picture waits for the animation to stop, then for
  // a few frames to be drawn.
  await page.waitForFunction(async () => {
    const p = document.querySelector('#puzzle-view twisty-player');
    if (p === null) return true;
    return !(await p.experimentalModel.playingInfo.get()).playing;
  });
  await page.evaluate(() => new Promise((done) => {
    let frames = 0;
    const next = () => (++frames >= 10 ? done() : requestAnimationFrame(next));
    requestAnimationFrame(next);
  }));
  // The header stays at the top of the window: scrolled, a whole-page
  // picture would show it across the middle.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  shot += 1;
  await page.screenshot({ path: path.join(shots, `${String(shot).padStart(2, '0')}-${name}.png`), fullPage });
}

async function select(id, value) {
  await page.selectOption(`#${id}`, value);
}

/** Records every value #stat-nodes shows, from now on, in window.__nodes. */
async function watchNodes() {
  await page.evaluate(() => {
    window.__nodes = [];
    const dd = document.getElementById('stat-nodes');
    if (window.__nodesObserver) window.__nodesObserver.disconnect();
    window.__nodesObserver = new MutationObserver(() => window.__nodes.push(dd.textContent));
    window.__nodesObserver.observe(dd, { childList: true, characterData: true, subtree: true });
  });
}

async function waitStatus(status, timeout = LONG) {
  await page.waitForFunction((s) => document.getElementById('job-status').textContent === s, status, { timeout });
}

/** Distinct positive node counts shown while the job ran. */
async function liveCounts() {
  const seen = await page.evaluate(() => window.__nodes);
  return [...new Set(seen.filter((v) => /^[0-9,]+$/.test(v) && v !== '0'))];
}

test('playground', { timeout: 15 * 60_000 }, async (t) => {
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const status = /Failed to load resource: the server responded with a status of (\d+)/.exec(msg.text());
    if (status && expectedStatuses.has(Number(status[1])) &&
        /\/v1\/(solve|render)/.test(msg.location().url)) return;
    problems.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== base.origin) problems.push(`request to ${url.href}`);
  });

  try {
    await t.test('the page loads with the catalogue', async () => {
      await page.goto(new URL('./', base).href);
      await page.waitForSelector('body[data-ready="true"]');
      const puzzles = await page.$$eval('#puzzle option', (os) => os.map((o) => o.value));
      for (const id of ['tiles', '2x2x2', '3x3x3', 'pyraminx', 'master-pyraminx', 'skewb']) assert.ok(puzzles.includes(id), id);
      await page.waitForSelector('#puzzle-view twisty-player');
      await screenshot('loaded');
    });

    await t.test('a random scramble is generated', async () => {
      await page.click('#random');
      await page.waitForFunction(() => document.getElementById('scramble').value.trim().split(/\s+/).length >= 10);
      assert.equal(await page.isHidden('#scramble-error'), true);
      await screenshot('random-scramble');
    });

    await t.test('a 3x3x3 is solved with live counters, then stepped to solved', async () => {
      await page.fill('#scramble', CUBE_SCRAMBLE);
      await select('engine', 'idastar');
      await select('heuristic', 'misplaced');
      await select('optimal', 'true');
      await page.fill('#time_ms', '120000');
      await watchNodes();
      await page.click('#solve');
      await page.waitForFunction(() => ['running', 'solved'].includes(document.getElementById('job-status').textContent));
      await screenshot('cube-running');
      await waitStatus('solved');
      const counts = await liveCounts();
      assert.ok(counts.length >= 2, `live node counts: ${JSON.stringify(counts)}`);
      await page.waitForSelector('#puzzle-view[data-length="9"][data-step="0"]');
      assert.equal(await page.getAttribute('#puzzle-view', 'data-solved'), 'false');
      await screenshot('cube-solved');
      // Step with the keyboard, one move at a time.
      await page.focus('#step-forward');
      await page.click('#move-counter');
      for (let k = 1; k <= 9; k += 1) {
        await page.keyboard.press('ArrowRight');
        await page.waitForSelector(`#puzzle-view[data-step="${k}"]`);
      }
      await page.waitForSelector('#puzzle-view[data-solved="true"]');
      assert.match(await page.textContent('#move-counter'), /move 9 \/ 9/);
      await page.keyboard.press('ArrowLeft');
      await page.waitForSelector('#puzzle-view[data-step="8"][data-solved="false"]');
      await page.click('#step-end');
      await page.waitForSelector('#puzzle-view[data-step="9"][data-solved="true"]');
      // What the player shows, read back from it: the solved cube.
      await page.waitForFunction(async () => {
        const p = document.querySelector('#puzzle-view twisty-player');
        const shown = await p.experimentalModel.currentPattern.get();
        return shown.experimentalIsSolved({ ignorePuzzleOrientation: true, ignoreCenterOrientation: true });
      });
      // The daemon's flat net of the same step shows every face: each one
      // colour at the end.
      await select('view-mode', 'flat');
      await page.waitForFunction(() => {
        const img = document.querySelector('#puzzle-view img.render');
        return img !== null && img.complete && img.naturalWidth > 0 &&
          new URL(img.src).searchParams.get('scramble').endsWith("F' U' R B' L2 D' F U2 R'");
      });
      await screenshot('cube-stepped');
      await select('view-mode', 'PG3D');
      await page.waitForSelector('#puzzle-view twisty-player');
    });

    await t.test('twophase shows its best solution so far while it improves', async () => {
      // A 20-move scramble: twophase finds an answer at once and spends
      // its 1.5 s looking for shorter ones, showing the best meanwhile.
      await page.fill('#scramble', "F2 U B2 U' F2 B R' F D' B L2 F' R2 F R2 F U2 L2 D2 B2");
      await select('engine', 'twophase');
      await select('heuristic', '');
      await select('optimal', '');
      await page.fill('#time_ms', '1500');
      await page.fill('#target_length', '0');
      await page.click('#solve');
      await page.waitForSelector('#best-so-far:not([hidden])');
      assert.match(await page.textContent('#best-moves'), /^([URFDLB][2']? )+[URFDLB][2']? \(\d+\)$/);
      await screenshot('cube-best-so-far');
      await waitStatus('solved');
      assert.equal(await page.isHidden('#best-so-far'), true);
      await page.fill('#target_length', '');
    });

    await t.test('a 15-puzzle is solved with live counters and played to the goal', async () => {
      await select('puzzle', 'tiles');
      await select('size', '4x4');
      await page.waitForSelector('#puzzle-view .tiles');
      // Clicking a tile next to the blank slides it and edits the state.
      await page.click('#puzzle-view .tile[data-tile="12"]');
      await page.waitForFunction(() => document.getElementById('state').value === '1 2 3 4 / 5 6 7 8 / 9 10 11 0 / 13 14 15 12');
      await page.fill('#state', TILES_STATE);
      await page.waitForSelector(`#puzzle-view[data-state="${TILES_STATE}"]`);
      await select('engine', 'idastar');
      await select('heuristic', 'misplaced');
      await page.fill('#time_ms', '120000');
      await watchNodes();
      await page.click('#solve');
      await waitStatus('solved');
      const counts = await liveCounts();
      assert.ok(counts.length >= 2, `live node counts: ${JSON.stringify(counts)}`);
      await page.waitForSelector('#puzzle-view[data-length="34"][data-step="0"]');
      await screenshot('tiles-solved');
      await page.click('#play');
      await page.waitForSelector('#puzzle-view[data-step="3"]');
      await screenshot('tiles-playing');
      await page.waitForSelector('#puzzle-view[data-step="34"]', { timeout: 60_000 });
      assert.equal(await page.getAttribute('#puzzle-view', 'data-state'), TILES_GOAL);
      assert.equal(await page.getAttribute('#puzzle-view', 'data-solved'), 'true');
      await screenshot('tiles-goal');
    });

    await t.test('an invalid state shows the API problem next to the field', async () => {
      await page.fill('#state', '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15');
      expectedStatuses = new Set([422]);
      await page.click('#solve');
      await page.waitForSelector('#state-error:not([hidden])');
      expectedStatuses = new Set();
      assert.match(await page.textContent('#state-error'), /bad_tiles/);
      assert.equal(await page.getAttribute('#state', 'aria-invalid'), 'true');
      await screenshot('invalid-state');
    });

    await t.test('a node limit ends the search with its status', async () => {
      await page.fill('#state', TILES_STATE);
      await select('engine', 'idastar');
      await select('heuristic', 'misplaced');
      await page.fill('#max_nodes', '1000');
      await page.click('#solve');
      await waitStatus('node_limit');
      assert.ok(Number(await page.getAttribute('#stat-nodes', 'data-value')) >= 1000);
      await page.fill('#max_nodes', '');
    });

    await t.test('a state is edited by painting stickers on its net', async () => {
      await select('puzzle', '2x2x2');
      await page.fill('#scramble', "R U'");
      await page.click('#edit-stickers');
      await page.waitForSelector('#sticker-editor polygon[data-i="23"]');
      const before = await page.inputValue('#state');
      assert.equal(before.length, 24);
      assert.equal(await page.inputValue('#scramble'), '');
      // Sticker 0 painted in another sticker's colour: one colour too
      // many, which the API refuses with its detail by the field.
      const other = [...before].find((c) => c !== before[0]);
      expectedStatuses = new Set([422]);
      await page.click(`#sticker-editor .swatch[data-letter="${other}"]`);
      await page.click('#sticker-editor polygon[data-i="0"]');
      await page.waitForSelector('#state-error:not([hidden])');
      expectedStatuses = new Set();
      assert.equal(await page.inputValue('#state'), other + before.slice(1));
      await screenshot('stickers-invalid');
      // Painted back: the state is whole again and solves.
      await page.click(`#sticker-editor .swatch[data-letter="${before[0]}"]`);
      await page.click('#sticker-editor polygon[data-i="0"]');
      await page.waitForFunction((want) => document.getElementById('state').value === want, before);
      await page.waitForSelector('#state-error', { state: 'hidden' });
      await select('engine', 'auto');
      await select('heuristic', '');
      await select('optimal', '');
      await page.fill('#time_ms', '');
      await page.click('#solve');
      await waitStatus('solved');
      await screenshot('stickers-solved');
      await page.click('#edit-stickers');
      await page.waitForSelector('#sticker-editor', { state: 'hidden' });
      await select('puzzle', 'tiles');
    });

    await t.test('three engines are compared in a chart', async () => {
      await select('size', '3x3');
      await page.fill('#scramble', 'R R D D L U L U R D D R U L');
      await page.check('input[name="mode"][value="compare"]');
      for (const e of ['astar', 'bibfs', 'idastar']) await page.check(`#compare-list input[value="${e}"]`);
      await page.click('#solve');
      await page.waitForSelector('#compare:not([hidden]) #compare-chart svg');
      await page.waitForSelector('#puzzle-view[data-length="8"]');
      assert.equal(await page.locator('#compare-chart rect.bar').count(), 9);
      const engines = await page.$$eval('#compare-table tbody tr', (rows) => rows.map((r) => r.dataset.engine));
      assert.deepEqual(engines, ['astar', 'bibfs', 'idastar']);
      await page.locator('#compare').scrollIntoViewIfNeeded();
      await screenshot('compare');
      await page.check('input[name="mode"][value="solve"]');
    });

    await t.test('the pyraminx, skewb, 2x2x2 and Master Pyraminx are shown', async () => {
      for (const id of ['pyraminx', 'skewb', '2x2x2']) {
        await select('puzzle', id);
        await page.waitForSelector('#puzzle-view twisty-player');
        await page.click('#random');
        await page.waitForFunction(() => document.getElementById('scramble').value.trim() !== '');
        await screenshot(`${id}`);
      }
      await select('puzzle', 'master-pyraminx');
      await page.waitForSelector('#puzzle-view img.render');
      await page.fill('#scramble', "b' 3Uw' 2B' 3R");
      await page.waitForFunction(() => {
        const img = document.querySelector('#puzzle-view img.render');
        return img && img.src.includes('scramble=') && img.complete && img.naturalWidth > 0;
      });
      await screenshot('master-pyraminx');
    });

    await t.test('the page fits a phone-sized screen', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
      await screenshot('phone');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.test('the API reference renders offline', async () => {
      await page.goto(new URL('docs', base).href);
      await page.getByText('/v1/puzzles', { exact: false }).first().waitFor({ state: 'visible' });
      await page.getByRole('heading', { name: 'Solve a puzzle' }).first().waitFor();
      await screenshot('docs', false);
    });

    await t.test('no console errors and nothing loaded from elsewhere', () => {
      assert.deepEqual(problems, []);
    });
  } finally {
    await browser.close();
  }
});
