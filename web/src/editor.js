// SPDX-License-Identifier: MIT
// Editing a state by its picture: the daemon's net of the state (each
// polygon's data-i is the index of the character of the state's text form
// it shows), a palette of the puzzle's colours, and a click (or Enter) on
// a sticker paints it. The edited text goes to the state field; the API
// says whether it is a state at all.

import { renderUrl } from './api.js';

const SVG = 'image/svg+xml';

/** The picture (an SVG element, owned by the page) and its state text. */
async function picture(puzzle, query) {
  const response = await fetch(renderUrl(puzzle, { ...query, px: 360 }));
  const text = await response.text();
  if (!response.ok) {
    let problem = null;
    try {
      problem = JSON.parse(text);
    } catch {
      // not a problem body
    }
    const error = new Error(problem?.detail || `HTTP ${response.status}`);
    error.problem = problem;
    throw error;
  }
  const doc = new DOMParser().parseFromString(text, SVG);
  const svg = document.importNode(doc.documentElement, true);
  const state = svg.querySelector('desc')?.textContent || '';
  return { svg, state };
}

export class StickerEditor {
  /**
   * container: where the palette and the net go; onEdit(text) is called
   * with the new state text after each painted sticker.
   */
  constructor(container, onEdit) {
    this.container = container;
    this.onEdit = onEdit;
    this.palette = document.createElement('div');
    this.palette.className = 'palette';
    this.palette.setAttribute('role', 'radiogroup');
    this.palette.setAttribute('aria-label', 'Sticker colour');
    this.net = document.createElement('div');
    this.net.className = 'sticker-net';
    container.replaceChildren(this.palette, this.net);
  }

  /**
   * Shows puzzle in the state query gives ({ state } or { scramble }),
   * with the colours of its solved state on the palette.
   */
  async open(puzzle, query) {
    const solved = await picture(puzzle, {});
    const current = await picture(puzzle, query);
    this.puzzle = puzzle;
    this.text = current.state.split('');
    this.letters = [];
    this.palette.replaceChildren();
    for (const polygon of solved.svg.querySelectorAll('polygon[data-i]')) {
      const letter = solved.state[Number(polygon.dataset.i)];
      if (letter === undefined || this.letters.includes(letter)) continue;
      this.letters.push(letter);
      this.addSwatch(letter, polygon.getAttribute('fill'));
    }
    this.select(this.letters[0]);
    this.fills = {};
    for (const polygon of solved.svg.querySelectorAll('polygon[data-i]')) {
      this.fills[solved.state[Number(polygon.dataset.i)]] = polygon.getAttribute('fill');
    }
    const svg = current.svg;
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', `${puzzle} stickers: pick a colour, then a sticker`);
    for (const polygon of svg.querySelectorAll('polygon[data-i]')) {
      polygon.setAttribute('tabindex', '0');
      polygon.setAttribute('role', 'button');
      polygon.setAttribute('aria-label', `sticker ${Number(polygon.dataset.i) + 1}`);
      polygon.classList.add('sticker');
      polygon.addEventListener('click', () => this.paint(polygon));
      polygon.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          this.paint(polygon);
        }
      });
    }
    this.net.replaceChildren(svg);
    return this.text.join('');
  }

  addSwatch(letter, fill) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'swatch';
    button.style.background = fill;
    button.dataset.letter = letter;
    button.setAttribute('role', 'radio');
    button.setAttribute('aria-label', `colour ${letter}`);
    button.addEventListener('click', () => this.select(letter));
    this.palette.append(button);
  }

  select(letter) {
    this.letter = letter;
    for (const b of this.palette.querySelectorAll('.swatch')) {
      b.setAttribute('aria-checked', String(b.dataset.letter === letter));
    }
  }

  paint(polygon) {
    const i = Number(polygon.dataset.i);
    if (this.text[i] === this.letter) return;
    this.text[i] = this.letter;
    polygon.setAttribute('fill', this.fills[this.letter]);
    this.onEdit(this.text.join(''));
  }
}
