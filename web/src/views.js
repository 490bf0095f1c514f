// SPDX-License-Identifier: MIT
// Views of the twisty puzzles: cubing's <twisty-player> where it knows the
// puzzle and the start is a scramble, else the daemon's SVG picture.

import { renderUrl } from './api.js';

/** The cubing.js puzzle id of an API puzzle id, where cubing can show it. */
export const TWISTY_IDS = { '2x2x2': '2x2x2', '3x3x3': '3x3x3', pyraminx: 'pyraminx', skewb: 'skewb' };

let cubing = null;
/** cubing/twisty and cubing/puzzles, loaded on first use (a separate chunk). */
function loadCubing() {
  if (!cubing) {
    cubing = Promise.all([import('cubing/twisty'), import('cubing/puzzles'), import('cubing/alg')])
      .then(([twisty, puzzles, alg]) => ({ ...twisty, ...puzzles, ...alg }));
  }
  return cubing;
}

/** 3D view by cubing.js: setup = the scramble, alg = the solution. */
export class TwistyView {
  static async create(container, puzzle, visualization = 'PG3D') {
    const lib = await loadCubing();
    return new TwistyView(container, puzzle, lib, visualization);
  }

  constructor(container, puzzle, lib, visualization) {
    this.lib = lib;
    this.puzzle = TWISTY_IDS[puzzle];
    this.player = new lib.TwistyPlayer({
      puzzle: this.puzzle,
      background: 'none',
      controlPanel: 'none',
      hintFacelets: 'none',
      visualization,
      experimentalDragInput: 'none',
    });
    this.player.className = 'twisty';
    this.player.setAttribute('aria-label', `${puzzle} picture`);
    this.moves = [];
    this.setup = '';
    this.kpuzzle = lib.puzzles[this.puzzle].kpuzzle();
    container.replaceChildren(this.player);
  }

  /** 'PG3D' (3D) or '2D' (a flat net). */
  setVisualization(visualization) {
    this.player.visualization = visualization;
  }

  show(setup, moves) {
    this.setup = setup || '';
    this.moves = moves || [];
    this.player.experimentalSetupAlg = this.setup;
    this.player.alg = this.moves.join(' ');
    this.player.jumpToStart({ flash: false });
  }

  /** Moves to step k; one step forward or back is animated. */
  async step(k, from) {
    const controller = this.player.controller.animationController;
    // A step still animating would otherwise go on from wherever this one
    // puts the player, and leave it between moves.
    this.player.pause();
    if (k === from + 1) {
      controller.play({ direction: 1, untilBoundary: 'move', autoSkipToOtherEndIfStartingAtBoundary: false });
    } else if (k === from - 1) {
      controller.play({ direction: -1, untilBoundary: 'move', autoSkipToOtherEndIfStartingAtBoundary: false });
    } else if (k === 0) {
      this.player.jumpToStart({ flash: false });
    } else if (k === this.moves.length) {
      this.player.jumpToEnd({ flash: false });
    } else {
      const indexer = await this.player.experimentalModel.indexer.get();
      this.player.timestamp = indexer.indexToMoveStartTimestamp(k);
    }
  }

  /**
   * Whether the setup plus the first k moves leaves the puzzle solved, by
   * cubing's own model: the solved pattern or one of its whole-puzzle
   * rotations (a 2x2x2 scramble may turn the whole cube).
   */
  async solvedAt(k) {
    const kpuzzle = await this.kpuzzle;
    const alg = [this.setup, ...this.moves.slice(0, k)].join(' ');
    let pattern;
    try {
      pattern = kpuzzle.defaultPattern().applyAlg(alg);
    } catch {
      return null;
    }
    try {
      return pattern.experimentalIsSolved({ ignorePuzzleOrientation: true, ignoreCenterOrientation: true });
    } catch {
      // not offered for this puzzle: compare with the solved patterns
    }
    if (!this.rotations) {
      this.rotations = [];
      for (const a of ['', 'x', 'x2', "x'", 'z', "z'"]) {
        for (const b of ['', 'y', 'y2', "y'"]) {
          try {
            this.rotations.push(kpuzzle.defaultPattern().applyAlg(`${a} ${b}`));
          } catch {
            // a puzzle without this rotation
          }
        }
      }
    }
    return this.rotations.some((solved) => solved.isIdentical(pattern));
  }
}

/** The daemon's SVG picture, rendered again for every step. */
export class SvgView {
  constructor(container, puzzle, { size } = {}) {
    this.puzzle = puzzle;
    this.size = size;
    this.img = document.createElement('img');
    this.img.className = 'render';
    this.img.width = 320;
    this.img.alt = `${puzzle} picture`;
    this.img.decoding = 'async';
    this.img.addEventListener('error', () => { this.img.alt = `No picture of this ${puzzle} state`; });
    container.replaceChildren(this.img);
  }

  show(setup, moves, state) {
    this.setup = setup || '';
    this.state = state || '';
    this.moves = moves || [];
    this.step(0);
  }

  step(k) {
    const prefix = this.moves.slice(0, k).join(' ');
    const scramble = this.state ? prefix : [this.setup, prefix].filter(Boolean).join(' ');
    this.img.src = renderUrl(this.puzzle, { size: this.size, state: this.state, scramble, px: 320 });
  }

  async solvedAt() { return null; }
}
