// SPDX-License-Identifier: MIT
// The daemon's HTTP API, on the same origin as the page. Paths are
// relative so the page also works under a path prefix.

/** An RFC 9457 problem answered by the API (or a network failure). */
export class Problem extends Error {
  constructor(problem, status) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.problem = problem;
    this.status = status;
  }
}

async function request(method, url, body) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Problem({ detail: `The server could not be reached (${error.message}).`, code: 'network' }, 0);
  }
  const type = response.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    throw new Problem(data || { detail: `HTTP ${response.status} ${response.statusText}` }, response.status);
  }
  return data;
}

export const catalogue = () => request('GET', 'v1/puzzles');

export function scramble(puzzle, size) {
  const query = new URLSearchParams({ puzzle });
  if (size) query.set('size', size);
  return request('GET', `v1/scramble?${query}`);
}

/** POST /v1/solve without waiting: the job as accepted (or already ended). */
export const submit = (body) => request('POST', 'v1/solve', { ...body, wait_ms: 0 });

export const cancel = (id) => request('DELETE', `v1/jobs/${encodeURIComponent(id)}`);

export const getJob = (id, waitMs = 0) =>
  request('GET', `v1/jobs/${encodeURIComponent(id)}?wait_ms=${waitMs}`);

export function renderUrl(puzzle, { size, scramble: moves, state, px = 320 }) {
  const query = new URLSearchParams({ puzzle });
  if (size) query.set('size', size);
  if (state) query.set('state', state);
  if (moves) query.set('scramble', moves);
  query.set('px', String(px));
  return `v1/render?${query}`;
}

export const ENDED = new Set(['solved', 'timeout', 'memory_limit', 'node_limit', 'depth_limit', 'cancelled', 'failed', 'unreachable']);

/**
 * Follows a job until it ends: the server's event stream (`job` events at
 * least every 250 ms, then `end`), or long polls when the stream fails.
 * onUpdate gets every job object; the promise resolves with the ended job.
 * stop() ends the following (the job itself runs on).
 */
export function follow(job, onUpdate) {
  let stopped = false;
  let source = null;
  let finish;
  let fail;
  const done = new Promise((resolve, reject) => { finish = resolve; fail = reject; });

  const end = (ended) => {
    if (stopped) return;
    stopped = true;
    if (source) source.close();
    finish(ended);
  };

  async function poll() {
    while (!stopped) {
      try {
        const current = await getJob(job.id, 1000);
        if (stopped) return;
        onUpdate(current);
        if (ENDED.has(current.status)) { end(current); return; }
      } catch (error) {
        if (!stopped) { stopped = true; fail(error); }
        return;
      }
    }
  }

  if (ENDED.has(job.status)) {
    end(job);
  } else if (typeof EventSource === 'function') {
    source = new EventSource(`v1/jobs/${encodeURIComponent(job.id)}/events`);
    source.addEventListener('job', (event) => {
      if (!stopped) onUpdate(JSON.parse(event.data));
    });
    source.addEventListener('end', (event) => {
      const ended = JSON.parse(event.data);
      onUpdate(ended);
      end(ended);
    });
    source.addEventListener('error', () => {
      // The server closes the stream after `end`; any other error (no
      // stream here, a proxy cut it) goes on by polling.
      if (stopped) return;
      source.close();
      source = null;
      poll();
    });
  } else {
    poll();
  }

  return { done, stop: () => { if (!stopped) { stopped = true; if (source) source.close(); finish(null); } } };
}
