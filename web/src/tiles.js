// SPDX-License-Identifier: MIT
// Sliding tiles: the board model (the API's row-major text form, 0 for the
// blank; moves U D L R are the direction the tile slides into the blank)
// and a view that draws the board with buttons that slide.

export function parseSize(size) {
  const m = /^(\d+)x(\d+)$/.exec(size || '');
  return m ? { rows: Number(m[1]), cols: Number(m[2]) } : null;
}

export function goal(rows, cols) {
  const n = rows * cols;
  return Array.from({ length: n }, (_, i) => (i + 1) % n);
}

/** "1 2 3 / 4 5 6 / 7 8 0" (the API's canonical form) */
export function format(tiles, cols) {
  const lines = [];
  for (let i = 0; i < tiles.length; i += cols) lines.push(tiles.slice(i, i + cols).join(' '));
  return lines.join(' / ');
}

/** Numbers separated by blanks, commas, / or ; (or a JSON array); null when not a board. */
export function parse(text, rows, cols) {
  const numbers = String(text).replace(/[[\]]/g, ' ').split(/[\s,;/]+/).filter(Boolean);
  if (numbers.length !== rows * cols || numbers.some((t) => !/^\d+$/.test(t))) return null;
  const tiles = numbers.map(Number);
  const seen = new Set(tiles);
  if (seen.size !== tiles.length || tiles.some((t) => t >= tiles.length)) return null;
  return tiles;
}

const OFFSET = { U: [1, 0], D: [-1, 0], L: [0, 1], R: [0, -1] };

/** Applies one move (U D L R or a tile number) in place; false when it cannot be made. */
export function apply(tiles, rows, cols, move) {
  const blank = tiles.indexOf(0);
  const br = Math.floor(blank / cols);
  const bc = blank % cols;
  let from;
  if (/^\d+$/.test(move)) {
    from = tiles.indexOf(Number(move));
    if (from < 0) return false;
    const fr = Math.floor(from / cols);
    const fc = from % cols;
    if (Math.abs(fr - br) + Math.abs(fc - bc) !== 1) return false;
  } else {
    const off = OFFSET[move.toUpperCase()];
    if (!off) return false;
    const r = br + off[0];
    const c = bc + off[1];
    if (r < 0 || r >= rows || c < 0 || c >= cols) return false;
    from = r * cols + c;
  }
  tiles[blank] = tiles[from];
  tiles[from] = 0;
  return true;
}

/** The moves of a scramble: letters (runs like ULDR allowed) or tile numbers. */
export function tokens(text) {
  return String(text).match(/\d+|[UDLR]/gi) || [];
}

/** The board after a scramble from the goal; null when a move cannot be made. */
export function scrambled(text, rows, cols) {
  const tiles = goal(rows, cols);
  for (const move of tokens(text)) if (!apply(tiles, rows, cols, move)) return null;
  return tiles;
}

/** The direction letter of sliding tile number n, or null when it is not next to the blank. */
export function moveOf(tiles, cols, n) {
  const blank = tiles.indexOf(0);
  const from = tiles.indexOf(n);
  const dr = Math.floor(from / cols) - Math.floor(blank / cols);
  const dc = (from % cols) - (blank % cols);
  if (dr === 1 && dc === 0) return 'U';
  if (dr === -1 && dc === 0) return 'D';
  if (dr === 0 && dc === 1) return 'L';
  if (dr === 0 && dc === -1) return 'R';
  return null;
}

/**
 * The board view. onSlide(n) is called when a tile next to the blank is
 * clicked (or activated with the keyboard).
 */
export class TilesView {
  constructor(container, { rows, cols, onSlide }) {
    this.rows = rows;
    this.cols = cols;
    this.el = document.createElement('div');
    this.el.className = 'tiles';
    this.el.setAttribute('role', 'group');
    this.el.setAttribute('aria-label', `${rows} by ${cols} sliding-tile board`);
    this.el.style.setProperty('--rows', rows);
    this.el.style.setProperty('--cols', cols);
    this.el.style.aspectRatio = `${cols} / ${rows}`;
    this.buttons = new Map();
    for (let n = 1; n < rows * cols; n += 1) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'tile';
      b.textContent = String(n);
      b.dataset.tile = String(n);
      b.addEventListener('click', () => onSlide && onSlide(n));
      this.buttons.set(n, b);
      this.el.append(b);
    }
    container.replaceChildren(this.el);
  }

  show(tiles, { goalTiles } = {}) {
    const blank = tiles.indexOf(0);
    tiles.forEach((n, i) => {
      if (n === 0) return;
      const b = this.buttons.get(n);
      const r = Math.floor(i / this.cols);
      const c = i % this.cols;
      b.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
      const movable = moveOf(tiles, this.cols, n) !== null;
      b.classList.toggle('movable', movable);
      b.classList.toggle('home', goalTiles ? goalTiles[i] === n : false);
      b.setAttribute('aria-label', `Tile ${n}, row ${r + 1}, column ${c + 1}${movable ? ', can slide' : ''}`);
    });
    this.el.dataset.blank = String(blank);
  }
}
