// SPDX-License-Identifier: MIT
// The playground: pick a puzzle, give a scramble or a state, solve it on the
// daemon with live search statistics, play the solution, compare engines.

import * as api from './api.js';
import * as tiles from './tiles.js';
import { TWISTY_IDS, TwistyView, SvgView } from './views.js';
import { drawChart, fillTable, human, bytes } from './chart.js';
import { StickerEditor } from './editor.js';

const $ = (id) => document.getElementById(id);
const ui = {
  form: $('solve-form'), formError: $('form-error'),
  puzzle: $('puzzle'), sizeField: $('size-field'), size: $('size'),
  viewMode: $('view-mode'), viewModeField: $('view-mode-field'),
  editStickers: $('edit-stickers'), stickerEditor: $('sticker-editor'),
  scramble: $('scramble'), scrambleHelp: $('scramble-help'), random: $('random'),
  state: $('state'), stateHelp: $('state-help'),
  engine: $('engine'), heuristic: $('heuristic'), metric: $('metric'), optimal: $('optimal'),
  timeMs: $('time_ms'), memoryMb: $('memory_mb'), targetLength: $('target_length'),
  maxNodes: $('max_nodes'), maxDepth: $('max_depth'),
  bestSoFar: $('best-so-far'), bestMoves: $('best-moves'),
  compareBox: $('compare-engines'), compareList: $('compare-list'),
  solve: $('solve'), cancel: $('cancel'),
  status: $('job-status'), jobEngine: $('job-engine'), message: $('job-message'),
  stat: {
    nodes: $('stat-nodes'), rate: $('stat-rate'), depth: $('stat-depth'),
    elapsed: $('stat-elapsed'), best: $('stat-best'), memory: $('stat-memory'),
  },
  view: $('puzzle-view'), counter: $('move-counter'), moves: $('solution-moves'), current: $('current-state'),
  start: $('step-start'), back: $('step-back'), play: $('play'), forward: $('step-forward'), end: $('step-end'),
  compare: $('compare'), chart: $('compare-chart'), table: $('compare-table'),
};

const FIELD_INPUTS = {
  '/scramble': 'scramble', '/state': 'state', '/engine': 'engine', '/heuristic': 'heuristic',
  '/engines': 'engines', '/time_ms': 'time_ms', '/memory_mb': 'memory_mb',
  '/target_length': 'target_length', '/max_nodes': 'max_nodes', '/max_depth': 'max_depth',
};

let catalogue = null;
let view = null;          // TilesView, TwistyView or SvgView
let viewKey = '';         // which view is shown, so it is made again only when needed
let editTiles = null;     // the tiles board before a solve (edited by clicking)
let play = { moves: [], start: null, goal: null, setup: '', state: '', k: 0 };
let timer = null;
let running = null;       // { job, follower }
let previewTimer = null;

const entry = () => catalogue && catalogue.puzzles.find((p) => p.id === ui.puzzle.value);
const isTiles = () => ui.puzzle.value === 'tiles';
const mode = () => ui.form.elements.mode.value;
const size = () => (isTiles() ? tiles.parseSize(ui.size.value) : null);

function option(value, text, selected = false) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  o.selected = selected;
  return o;
}

// ---- errors ---------------------------------------------------------------

function clearErrors() {
  ui.formError.hidden = true;
  ui.formError.textContent = '';
  for (const p of document.querySelectorAll('.field-error')) { p.hidden = true; p.textContent = ''; }
  for (const i of ui.form.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
}

function showProblem(error) {
  const problem = error.problem || { detail: String(error.message || error) };
  const field = problem.field ? `/${problem.field.split('/')[1]}` : '';
  const name = FIELD_INPUTS[field];
  const box = name ? $(`${name}-error`) : null;
  let text = problem.detail || problem.title || 'The request failed.';
  if (problem.code) text += ` (${problem.code})`;
  const target = box || ui.formError;
  target.textContent = text;
  target.dataset.code = problem.code || '';
  target.hidden = false;
  if (box) {
    box.setAttribute('role', 'alert');
    const input = name === 'engines' ? ui.compareList.querySelector('input') : $(name);
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      if (name !== 'engines' && typeof problem.position === 'number' && input.setSelectionRange) {
        input.focus();
        input.setSelectionRange(problem.position, Math.min(input.value.length, problem.position + 1));
      }
    }
  }
}

// ---- the puzzle picker ----------------------------------------------------

function fillPuzzles() {
  ui.puzzle.replaceChildren();
  for (const p of catalogue.puzzles) {
    ui.puzzle.append(option(p.id, p.id === 'tiles' ? 'Sliding tiles' : p.id));
  }
  ui.puzzle.value = catalogue.puzzles.some((p) => p.id === '3x3x3') ? '3x3x3' : catalogue.puzzles[0].id;
  ui.engine.replaceChildren();
  ui.compareList.replaceChildren();
  for (const e of catalogue.engines) {
    const o = option(e.name, e.name);
    o.title = e.summary;
    ui.engine.append(o);
    if (e.name === 'auto') continue;
    const label = document.createElement('label');
    label.title = e.summary;
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = 'engines';
    box.value = e.name;
    box.checked = ['astar', 'bibfs', 'idastar'].includes(e.name);
    label.append(box, ` ${e.name}`);
    ui.compareList.append(label);
  }
}

function puzzleChanged() {
  const p = entry();
  if (!p) return;
  closeEditor();
  ui.sizeField.hidden = !isTiles();
  // Tiles are edited on their own board; the others on their net.
  ui.editStickers.hidden = isTiles();
  ui.heuristic.replaceChildren(option('', `default (${p.default_heuristic})`, true));
  for (const h of p.heuristics) {
    const o = option(h.name, h.admissible ? h.name : `${h.name} (inadmissible)`);
    o.title = h.summary;
    ui.heuristic.append(o);
  }
  ui.metric.replaceChildren(...p.metrics.map((m) => option(m, m, m === p.default_metric)));
  ui.metric.disabled = p.metrics.length < 2;
  ui.scrambleHelp.textContent = p.notation;
  ui.stateHelp.textContent = p.state_forms;
  ui.scramble.value = '';
  ui.state.value = '';
  clearErrors();
  resetLive();
  preview();
}

// ---- the picture before a solve -------------------------------------------

async function ensureView(kind) {
  const key = `${kind}:${ui.puzzle.value}:${isTiles() ? ui.size.value : ''}`;
  if (key === viewKey && view) return view;
  viewKey = key;
  stopTimer();
  ui.viewModeField.hidden = !TWISTY_IDS[ui.puzzle.value];
  if (kind === 'tiles') {
    const { rows, cols } = size();
    view = new tiles.TilesView(ui.view, { rows, cols, onSlide: slideTile });
  } else if (kind === 'twisty') {
    view = null;
    ui.view.replaceChildren();
    ui.view.setAttribute('aria-busy', 'true');
    const made = await TwistyView.create(ui.view, ui.puzzle.value, ui.viewMode.value);
    ui.view.removeAttribute('aria-busy');
    if (viewKey !== key) return null; // the puzzle changed meanwhile
    view = made;
  } else {
    view = new SvgView(ui.view, ui.puzzle.value, { size: isTiles() ? ui.size.value : undefined });
  }
  return view;
}

const viewKind = (hasState) => (isTiles() ? 'tiles'
  : (TWISTY_IDS[ui.puzzle.value] && !hasState && ui.viewMode.value !== 'flat' ? 'twisty' : 'svg'));

/** Draws the loaded playback again in the picture the user picked. */
async function reshow() {
  const k = play.k;
  const v = await ensureView(viewKind(Boolean(play.state)));
  if (!v || v instanceof tiles.TilesView) return;
  if (v instanceof TwistyView) {
    v.setVisualization(ui.viewMode.value === 'flat' ? 'PG3D' : ui.viewMode.value);
    v.show(play.setup, play.moves);
  } else {
    v.show(play.setup, play.moves, play.state);
  }
  play.k = 0;
  if (k > 0) stepTo(k);
  else render();
}

/** Shows the input (state, else scramble, else solved) with no solution loaded. */
async function preview() {
  loadPlayback({ moves: [] });
  const stateText = ui.state.value.trim();
  const scrambleText = ui.scramble.value.trim();
  if (isTiles()) {
    const { rows, cols } = size();
    editTiles = (stateText ? tiles.parse(stateText, rows, cols) : tiles.scrambled(scrambleText, rows, cols))
      || tiles.goal(rows, cols);
    play.start = editTiles.slice();
    play.goal = tiles.goal(rows, cols);
  } else {
    play.setup = stateText ? '' : scrambleText;
    play.state = stateText;
  }
  const v = await ensureView(viewKind(Boolean(stateText)));
  if (!v) return;
  if (v instanceof TwistyView) {
    try {
      v.show(play.setup, []);
    } catch {
      v.show('', []);
    }
  } else if (v instanceof SvgView) {
    v.show(play.setup, [], play.state);
  }
  render();
}

function slideTile(n) {
  if (!isTiles() || running) return;
  const { rows, cols } = size();
  const board = play.moves.length ? currentTiles() : editTiles;
  const move = tiles.moveOf(board, cols, n);
  if (!move) return;
  const next = board.slice();
  tiles.apply(next, rows, cols, move);
  ui.state.value = tiles.format(next, cols);
  ui.scramble.value = '';
  clearErrors();
  preview();
}

// ---- playback ---------------------------------------------------------------

function loadPlayback({ moves, start, goal, setup, state }) {
  stopTimer();
  play = { moves: moves || [], start: start || null, goal: goal || null, setup: setup || '', state: state || '', k: 0 };
  ui.moves.replaceChildren(...play.moves.map((m, i) => {
    const li = document.createElement('li');
    li.textContent = m;
    li.dataset.index = String(i);
    return li;
  }));
}

function currentTiles() {
  const { rows, cols } = size();
  const board = play.start.slice();
  for (let i = 0; i < play.k; i += 1) tiles.apply(board, rows, cols, play.moves[i]);
  return board;
}

async function render() {
  const n = play.moves.length;
  const k = play.k;
  ui.counter.textContent = `move ${k} / ${n}`;
  ui.view.dataset.step = String(k);
  ui.view.dataset.length = String(n);
  ui.start.disabled = ui.back.disabled = k === 0;
  ui.forward.disabled = ui.end.disabled = k >= n;
  ui.play.disabled = n === 0;
  ui.moves.querySelectorAll('li').forEach((li, i) => {
    li.classList.toggle('done', i < k);
    if (i === k - 1) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
  });
  if (isTiles() && play.start && view instanceof tiles.TilesView) {
    const { cols } = size();
    const board = currentTiles();
    view.show(board, { goalTiles: play.goal });
    const text = tiles.format(board, cols);
    ui.view.dataset.state = text;
    ui.view.dataset.solved = String(text === tiles.format(play.goal, cols));
    ui.current.textContent = text;
  } else {
    delete ui.view.dataset.state;
    const done = play.moves.slice(0, k).join(' ');
    ui.current.textContent = play.state
      ? `${play.state}${done ? ` then ${done}` : ''}`
      : [play.setup, done].filter(Boolean).join(' · ') || 'solved';
    const solved = view && view.solvedAt ? await view.solvedAt(k) : null;
    if (k !== play.k) return; // a later step rendered meanwhile
    if (solved === null) delete ui.view.dataset.solved; else ui.view.dataset.solved = String(solved);
  }
}

function stepTo(k) {
  const from = play.k;
  const target = Math.max(0, Math.min(play.moves.length, k));
  if (target === from) return;
  play.k = target;
  if (view instanceof TwistyView) view.step(target, from);
  else if (view instanceof SvgView) view.step(target);
  render();
}

function stopTimer() {
  if (timer) clearInterval(timer);
  timer = null;
  ui.play.textContent = 'Play';
  ui.play.setAttribute('aria-label', 'Play');
  ui.play.setAttribute('aria-pressed', 'false');
}

function togglePlay() {
  if (timer) { stopTimer(); return; }
  if (!play.moves.length) return;
  if (play.k >= play.moves.length) stepTo(0);
  ui.play.textContent = 'Pause';
  ui.play.setAttribute('aria-label', 'Pause');
  ui.play.setAttribute('aria-pressed', 'true');
  timer = setInterval(() => {
    if (play.k >= play.moves.length) { stopTimer(); return; }
    stepTo(play.k + 1);
    if (play.k >= play.moves.length) stopTimer();
  }, 500);
}

// ---- editing a state by its stickers -------------------------------------

let editor = null;
let editCheck = 0;

function closeEditor() {
  editor = null;
  ui.view.hidden = false;
  ui.stickerEditor.hidden = true;
  ui.stickerEditor.replaceChildren();
  ui.editStickers.setAttribute('aria-pressed', 'false');
  ui.editStickers.textContent = 'Edit stickers';
}

/** Opens the net of the input (state, else scramble) for painting. */
async function toggleEditor() {
  if (editor) {
    closeEditor();
    return;
  }
  clearErrors();
  const stateText = ui.state.value.trim();
  const made = new StickerEditor(ui.stickerEditor, stickerPainted);
  let text;
  try {
    text = await made.open(ui.puzzle.value, stateText ? { state: stateText } : { scramble: ui.scramble.value.trim() });
  } catch (error) {
    showProblem(error);
    return;
  }
  editor = made;
  ui.state.value = text;
  ui.scramble.value = '';
  // The net being painted is the picture meanwhile.
  ui.view.hidden = true;
  ui.stickerEditor.hidden = false;
  ui.editStickers.setAttribute('aria-pressed', 'true');
  ui.editStickers.textContent = 'Done editing';
  previewSoon();
}

/** A painted sticker: the new text is the state; the API checks it. */
async function stickerPainted(text) {
  ui.state.value = text;
  ui.scramble.value = '';
  clearErrors();
  // The picture follows once the API has accepted the state.
  clearTimeout(previewTimer);
  previewTimer = null;
  const check = ++editCheck;
  let response;
  try {
    response = await fetch(api.renderUrl(ui.puzzle.value, { state: text, px: 32 }));
  } catch (error) {
    showProblem(error);
    return;
  }
  if (check !== editCheck) return; // a later paint is being checked
  if (!response.ok) {
    const problem = await response.json().catch(() => null);
    showProblem({ problem: problem || { detail: `HTTP ${response.status}` } });
    return;
  }
  previewSoon();
}

// ---- solving ----------------------------------------------------------------

function resetLive() {
  ui.status.textContent = 'idle';
  ui.jobEngine.textContent = '';
  ui.message.textContent = '';
  for (const dd of Object.values(ui.stat)) dd.textContent = '–';
  ui.bestSoFar.hidden = true;
  ui.compare.hidden = true;
}

function showJob(job) {
  const s = job.stats || {};
  ui.status.textContent = job.status;
  ui.jobEngine.textContent = job.engine ? `(${job.engine}${job.heuristic && job.heuristic !== 'none' ? ` + ${job.heuristic}` : ''})` : '';
  ui.stat.nodes.textContent = (s.nodes_expanded ?? 0).toLocaleString('en');
  ui.stat.rate.textContent = `${human(s.nodes_per_second ?? 0)} nodes/s`;
  ui.stat.depth.textContent = s.depth_bound >= 0 ? String(s.depth_bound) : '–';
  ui.stat.elapsed.textContent = `${(s.elapsed_ms ?? 0).toLocaleString('en')} ms`;
  ui.stat.best.textContent = s.best_length >= 0 ? String(s.best_length) : '–';
  ui.stat.memory.textContent = bytes(s.peak_memory_bytes ?? 0);
  ui.stat.nodes.dataset.value = String(s.nodes_expanded ?? 0);
  // An anytime engine's answer so far, while it improves on it.
  const best = job.best_so_far;
  ui.bestSoFar.hidden = !best;
  ui.bestMoves.textContent = best ? `${best.text} (${best.length})` : '';
}

function requestBody() {
  const body = { puzzle: ui.puzzle.value };
  if (isTiles()) body.size = ui.size.value;
  const stateText = ui.state.value.trim();
  const scrambleText = ui.scramble.value.trim();
  if (stateText) body.state = stateText;
  else body.scramble = scrambleText;
  if (ui.heuristic.value) body.heuristic = ui.heuristic.value;
  if (!ui.metric.disabled) body.metric = ui.metric.value;
  if (ui.optimal.value) body.optimal = ui.optimal.value === 'true';
  if (ui.timeMs.value) body.time_ms = Number(ui.timeMs.value);
  if (ui.memoryMb.value) body.memory_mb = Number(ui.memoryMb.value);
  if (ui.targetLength.value) body.target_length = Number(ui.targetLength.value);
  if (ui.maxNodes.value) body.max_nodes = Number(ui.maxNodes.value);
  if (ui.maxDepth.value) body.max_depth = Number(ui.maxDepth.value);
  if (mode() === 'compare') {
    body.engines = [...ui.compareList.querySelectorAll('input:checked')].map((b) => b.value);
  } else {
    body.engine = ui.engine.value;
  }
  return body;
}

async function solve(event) {
  event.preventDefault();
  if (running) return;
  // Typed input not shown yet is shown now, before the search starts, so
  // the picture matches what is being solved and the result replaces it.
  if (previewTimer !== null) {
    clearTimeout(previewTimer);
    previewTimer = null;
    await preview();
  }
  clearErrors();
  stopTimer();
  const body = requestBody();
  if (body.engines && body.engines.length === 0) {
    showProblem({ problem: { detail: 'Pick at least one engine to compare.', field: '/engines' } });
    return;
  }
  resetLive();
  ui.status.textContent = 'submitting';
  ui.solve.disabled = true;
  let job;
  try {
    job = await api.submit(body);
  } catch (error) {
    ui.status.textContent = 'refused';
    ui.solve.disabled = false;
    showProblem(error);
    return;
  }
  const follower = api.follow(job, showJob);
  running = { job, follower };
  ui.cancel.disabled = false;
  ui.view.dataset.job = job.id;
  showJob(job);
  let ended;
  try {
    ended = await follower.done;
  } catch (error) {
    showProblem(error);
  } finally {
    running = null;
    ui.cancel.disabled = true;
    ui.solve.disabled = false;
  }
  if (ended) await finished(ended, body);
}

async function finished(job, body) {
  showJob(job);
  if (job.runs) {
    ui.compare.hidden = false;
    drawChart(ui.chart, job.runs);
    fillTable(ui.table, job.runs);
  }
  if (job.status !== 'solved' || !job.solution) {
    ui.message.textContent = job.error ? job.error.detail : `The search ended: ${job.status}.`;
    return;
  }
  const sol = job.solution;
  ui.message.textContent = `Solved in ${sol.length} moves (${sol.metric})${sol.optimal ? ', proven optimal' : ''}.`;
  if (isTiles()) {
    const { rows, cols } = tiles.parseSize(job.size);
    loadPlayback({ moves: sol.moves, start: tiles.parse(job.state, rows, cols), goal: tiles.parse(job.goal, rows, cols) });
    await ensureView('tiles');
  } else {
    const fromState = Boolean(body.state);
    loadPlayback({ moves: sol.moves, setup: fromState ? '' : job.scramble || '', state: fromState ? job.state : '' });
    const v = await ensureView(viewKind(fromState));
    if (!v) return;
    if (v instanceof SvgView) v.show(play.setup, play.moves, play.state);
    else v.show(play.setup, play.moves);
  }
  render();
}

async function cancelJob() {
  if (!running) return;
  ui.cancel.disabled = true;
  try {
    await api.cancel(running.job.id);
    ui.message.textContent = 'Cancelling…';
  } catch (error) {
    showProblem(error);
  }
}

async function randomScramble() {
  clearErrors();
  ui.random.disabled = true;
  try {
    const s = await api.scramble(ui.puzzle.value, isTiles() ? ui.size.value : undefined);
    ui.scramble.value = s.scramble;
    ui.state.value = '';
    ui.scramble.dataset.seed = String(s.seed ?? '');
    await preview();
  } catch (error) {
    showProblem(error.problem && error.problem.field ? error : { problem: { ...(error.problem || {}), field: '/scramble', detail: error.message } });
  } finally {
    ui.random.disabled = false;
  }
}

// ---- wiring -------------------------------------------------------------

function onKey(event) {
  const t = event.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = {
    ArrowRight: () => stepTo(play.k + 1),
    ArrowLeft: () => stepTo(play.k - 1),
    Home: () => stepTo(0),
    End: () => stepTo(play.moves.length),
    ' ': () => togglePlay(),
  };
  if (event.key === ' ' && t instanceof HTMLButtonElement) return; // the button's own click
  const action = keys[event.key];
  if (!action || !play.moves.length) return;
  event.preventDefault();
  if (event.key !== ' ') stopTimer();
  action();
}

function previewSoon() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => {
    previewTimer = null;
    preview();
  }, 250);
}

async function init() {
  ui.form.addEventListener('submit', solve);
  ui.cancel.addEventListener('click', cancelJob);
  ui.random.addEventListener('click', randomScramble);
  ui.puzzle.addEventListener('change', puzzleChanged);
  ui.viewMode.addEventListener('change', reshow);
  ui.size.addEventListener('change', () => { ui.scramble.value = ''; ui.state.value = ''; clearErrors(); preview(); });
  ui.scramble.addEventListener('input', () => { closeEditor(); if (ui.scramble.value.trim()) ui.state.value = ''; previewSoon(); });
  ui.state.addEventListener('input', () => { closeEditor(); if (ui.state.value.trim()) ui.scramble.value = ''; previewSoon(); });
  ui.editStickers.addEventListener('click', toggleEditor);
  for (const radio of ui.form.elements.mode) {
    radio.addEventListener('change', () => {
      ui.compareBox.hidden = mode() !== 'compare';
      ui.engine.disabled = mode() === 'compare';
      ui.solve.textContent = mode() === 'compare' ? 'Compare' : 'Solve';
    });
  }
  ui.start.addEventListener('click', () => { stopTimer(); stepTo(0); });
  ui.back.addEventListener('click', () => { stopTimer(); stepTo(play.k - 1); });
  ui.forward.addEventListener('click', () => { stopTimer(); stepTo(play.k + 1); });
  ui.end.addEventListener('click', () => { stopTimer(); stepTo(play.moves.length); });
  ui.play.addEventListener('click', togglePlay);
  document.addEventListener('keydown', onKey);

  try {
    catalogue = await api.catalogue();
  } catch (error) {
    showProblem(error);
    return;
  }
  fillPuzzles();
  puzzleChanged();
  document.body.dataset.ready = 'true';
}

init();
