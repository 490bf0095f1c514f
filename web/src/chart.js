// SPDX-License-Identifier: MIT
// The engine comparison: one panel per measure (nodes expanded, time, peak
// memory), a bar per engine on a log scale, drawn as SVG; and the table of
// the numbers.

const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function human(n, unit = '') {
  if (n === null || n === undefined || Number.isNaN(n)) return '–';
  const abs = Math.abs(n);
  const steps = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [size, suffix] of steps) {
    if (abs >= size) return `${(n / size).toFixed(n / size >= 100 ? 0 : 1)} ${suffix}${unit}`;
  }
  return `${Number.isInteger(n) ? n : n.toFixed(n < 10 ? 2 : 1)}${unit ? ` ${unit}` : ''}`;
}

export function bytes(n) {
  if (n === null || n === undefined) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
  return `${i === 0 ? v : v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}

const MEASURES = [
  { key: 'nodes', title: 'Nodes expanded', value: (r) => r.stats.nodes_expanded, label: (v) => human(v) },
  { key: 'time', title: 'Time', value: (r) => r.stats.elapsed_ms, label: (v) => `${human(v)} ms` },
  { key: 'memory', title: 'Peak memory', value: (r) => r.stats.peak_memory_bytes, label: bytes },
];

/** Draws the chart of a job's runs into container. */
export function drawChart(container, runs) {
  const names = runs.map((r) => r.engine);
  const bar = 22;
  const gap = 8;
  const left = 90;
  const width = 560;
  const plot = width - left - 90;
  const panelHeight = 30 + runs.length * (bar + gap);
  const height = MEASURES.length * (panelHeight + 16);
  const svg = el('svg', {
    viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img',
    'aria-labelledby': 'chart-title chart-desc',
  });
  svg.append(el('title', { id: 'chart-title' }, 'Engine comparison on a log scale'));
  svg.append(el('desc', { id: 'chart-desc' },
    `Nodes expanded, time and peak memory for ${names.join(', ')}; the table below has the numbers.`));

  MEASURES.forEach((m, p) => {
    const y0 = p * (panelHeight + 16);
    const g = el('g', { class: `panel-${m.key}`, transform: `translate(0 ${y0})` });
    g.append(el('text', { x: 0, y: 16, class: 'chart-title' }, `${m.title} (log scale)`));
    const values = runs.map((r) => Math.max(0, Number(m.value(r)) || 0));
    const max = Math.max(...values, 1);
    // Log scale from 1 (or the smallest value below it) to the largest.
    const floor = Math.min(1, ...values.filter((v) => v > 0));
    const lo = Math.log10(floor) - 0.3;
    const hi = Math.max(Math.log10(max), lo + 1);
    const x = (v) => (v > 0 ? ((Math.log10(v) - lo) / (hi - lo)) * plot : 0);
    for (let d = Math.ceil(lo); d <= Math.floor(hi); d += 1) {
      const gx = left + x(10 ** d);
      g.append(el('line', { x1: gx, x2: gx, y1: 24, y2: panelHeight - 2, class: 'grid' }));
    }
    runs.forEach((r, i) => {
      const y = 26 + i * (bar + gap);
      const w = Math.max(1, x(values[i]));
      g.append(el('text', { x: left - 6, y: y + bar * 0.7, class: 'chart-label', 'text-anchor': 'end' }, r.engine));
      const rect = el('rect', {
        x: left, y, width: w, height: bar, rx: 3,
        class: `bar bar-${i % 6}${r.status === 'solved' ? '' : ' unsolved'}`,
        'data-engine': r.engine, 'data-value': values[i],
      });
      rect.append(el('title', {}, `${r.engine}: ${m.label(values[i])} (${r.status})`));
      g.append(rect);
      g.append(el('text', { x: left + w + 6, y: y + bar * 0.7, class: 'chart-value' }, m.label(values[i])));
    });
    svg.append(g);
  });
  container.replaceChildren(svg);
}

/** The table of the runs' numbers. */
export function fillTable(table, runs) {
  const head = ['Engine', 'Heuristic', 'Status', 'Length', 'Nodes expanded', 'Nodes generated', 'Time (ms)', 'Nodes/s', 'Peak memory'];
  const thead = document.createElement('thead');
  const tr = document.createElement('tr');
  for (const h of head) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    tr.append(th);
  }
  thead.append(tr);
  const tbody = document.createElement('tbody');
  for (const r of runs) {
    const row = document.createElement('tr');
    row.dataset.engine = r.engine;
    const cells = [
      r.engine, r.heuristic, r.status,
      r.solution ? String(r.solution.length) : '–',
      r.stats.nodes_expanded.toLocaleString('en'),
      r.stats.nodes_generated.toLocaleString('en'),
      r.stats.elapsed_ms.toLocaleString('en'),
      r.stats.nodes_per_second.toLocaleString('en'),
      bytes(r.stats.peak_memory_bytes),
    ];
    cells.forEach((text, i) => {
      const cell = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) cell.scope = 'row';
      cell.textContent = text;
      row.append(cell);
    });
    tbody.append(row);
  }
  const caption = document.createElement('caption');
  caption.textContent = 'Each engine under the same limits';
  table.replaceChildren(caption, thead, tbody);
}
