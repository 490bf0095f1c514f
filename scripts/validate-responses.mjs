// SPDX-License-Identifier: MIT
// validate-responses.mjs - checks live puzzled responses against openapi.yaml.
//
// Run by scripts/validate-responses, which installs the npm packages and
// starts the daemon. For each request below it finds the operation and the
// documented response of the status that came back (an undocumented status
// is an error), validates the body with Ajv (JSON Schema 2020-12, the
// dialect of OpenAPI 3.1) against that response's schema, and validates the
// documented headers that are present. Usage:
//   node validate-responses.mjs NPM_DIR SPEC BASE_URL
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [npmDir, specPath, base] = process.argv.slice(2);
const require = createRequire(path.join(npmDir, 'package.json'));
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats');
const { parse } = require('@stoplight/yaml');

const spec = parse(readFileSync(specPath, 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addFormat('int64', true);
ajv.addSchema(spec, 'openapi');

const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const get = (ptr) =>
  ptr.split('/').slice(1).reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
// Follows a $ref; returns [object, pointer of the object].
const deref = (obj, ptr) => (obj?.$ref ? [get(obj.$ref.slice(1)), obj.$ref.slice(1)] : [obj, ptr]);

function findOperation(method, urlPath) {
  for (const template of Object.keys(spec.paths)) {
    const re = new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$');
    const op = spec.paths[template][method.toLowerCase()];
    if (re.test(urlPath) && op) return [op, `/paths/${esc(template)}/${method.toLowerCase()}`];
  }
  return [null, null];
}

let failures = 0;
let checked = 0;

function fail(name, msg) {
  failures++;
  console.log(`FAIL ${name}: ${msg}`);
}

function validate(name, ptr, value) {
  const v = ajv.getSchema(`openapi#${ptr}`) ?? ajv.compile({ $ref: `openapi#${ptr}` });
  if (!v(value)) {
    fail(name, `${ptr}: ${ajv.errorsText(v.errors, { separator: '; ' })}`);
    return false;
  }
  return true;
}

async function check(name, method, url, { body, type = 'application/json', chunked = false, expect } = {}) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = type;
    if (chunked) {
      const bytes = new TextEncoder().encode(body);
      init.body = new ReadableStream({
        start(c) {
          c.enqueue(bytes);
          c.close();
        },
      });
      init.duplex = 'half';
    } else {
      init.body = body;
    }
  }
  const res = await fetch(base + url, init);
  const text = await res.text();
  const urlPath = url.split('?')[0];
  const ctype = (res.headers.get('content-type') ?? '').split(';')[0].trim();
  checked++;
  if (expect !== undefined && res.status !== expect) {
    fail(name, `status ${res.status}, expected ${expect}: ${text.slice(0, 200)}`);
  }
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(res.headers.get('x-request-id') ?? '')) {
    fail(name, 'no valid X-Request-Id');
  }
  const [op, opPtr] = findOperation(method, urlPath);
  let respPtr;
  let resp;
  if (op === null) {
    // Unknown paths and methods: a Problem, as the description promises.
    const known = Object.keys(spec.paths).some((t) =>
      new RegExp('^' + t.replace(/\{[^}]+\}/g, '[^/]+') + '$').test(urlPath));
    const want = known ? 405 : 404;
    if (res.status !== want) fail(name, `status ${res.status} for an undocumented route, expected ${want}`);
    [resp, respPtr] = deref(spec.components.responses[known ? 'MethodNotAllowed' : 'JobNotFound'],
      `/components/responses/${known ? 'MethodNotAllowed' : 'JobNotFound'}`);
  } else {
    const raw = op.responses[String(res.status)] ?? op.responses.default;
    if (raw === undefined) {
      fail(name, `status ${res.status} is not documented for ${method} ${urlPath}`);
      return { res, text };
    }
    [resp, respPtr] = deref(raw, `${opPtr}/responses/${res.status}`);
  }
  const media = resp.content?.[ctype];
  if (resp.content && media === undefined) {
    fail(name, `content type '${ctype}' is not documented (${Object.keys(resp.content)})`);
  } else if (media?.schema && /json$/.test(ctype)) {
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      fail(name, `body is not JSON: ${text.slice(0, 200)}`);
    }
    if (json !== undefined) validate(name, `${respPtr}/content/${esc(ctype)}/schema`, json);
  }
  for (const [h, hdefRaw] of Object.entries(resp.headers ?? {})) {
    const [hdef, hptr] = deref(hdefRaw, `${respPtr}/headers/${esc(h)}`);
    const val = res.headers.get(h);
    if (val === null) {
      if (['Location', 'Retry-After', 'Allow'].includes(h)) fail(name, `header ${h} missing`);
      continue;
    }
    const typed = hdef.schema?.type === 'integer' ? Number(val) : val;
    validate(`${name} header ${h}`, `${hptr}/schema`, typed);
  }
  return { res, text };
}

const long = (wait) =>
  JSON.stringify({
    puzzle: '15-puzzle',
    state: [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3],
    goal: [...Array(16).keys()],
    engine: 'idastar',
    heuristic: 'none',
    time_ms: 60000,
    memory_mb: 16,
    wait_ms: wait,
  });

// A server on an empty table directory builds its start-up tables first
// (/readyz answers 503 "warming" meanwhile): wait for them.
for (let i = 0; i < 600; i++) {
  const res = await fetch(`${base}/readyz`);
  await res.text();
  if (res.status === 200) break;
  await new Promise((r) => setTimeout(r, 200));
}

await check('solve 2x2x2', 'POST', '/v1/solve', {
  body: '{"puzzle":"2x2x2","metric":"qtm","scramble":"R U\' R\' F\' U"}', expect: 200 });
await check('solve alias', 'POST', '/solve', { body: '{"puzzle":"8-puzzle","state":[1,2,3,4,5,6,0,7,8]}', expect: 200 });
await check('solve compare', 'POST', '/v1/solve', {
  body: '{"puzzle":"8-puzzle","state":[8,6,7,2,5,4,3,0,1],"engines":["astar","bibfs","idastar","wastar"]}',
  expect: 200 });
await check('solve text state', 'POST', '/v1/solve', {
  body: '{"puzzle":"tiles","size":"3x3","state":"1 2 3 / 4 5 6 / 7 0 8","engine":"wastar","weight":2}', expect: 200 });
await check('solve anytime', 'POST', '/v1/solve', {
  body: '{"puzzle":"15-puzzle","state":[14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3],"goal":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"engine":"anytime","heuristic":"linear-conflict","time_ms":200}',
  expect: 200 });
await check('node limit', 'POST', '/v1/solve', {
  body: '{"puzzle":"8-puzzle","state":[8,6,7,2,5,4,3,0,1],"engine":"astar","heuristic":"none","max_nodes":10}',
  expect: 200 });
const { text: accepted } = await check('solve 202', 'POST', '/v1/solve', { body: long(0), expect: 202 });
const id = JSON.parse(accepted).id;
await check('job running', 'GET', `/v1/jobs/${id}?wait_ms=100`, { expect: 200 });
await check('job list', 'GET', '/v1/jobs?limit=2', { expect: 200 });
await check('job list last page', 'GET', '/v1/jobs?limit=100&offset=3', { expect: 200 });
await check('cancel', 'DELETE', `/v1/jobs/${id}`, { expect: 202 });
await check('cancelled', 'GET', `/v1/jobs/${id}?wait_ms=2000`, { expect: 200 });
await check('cancel ended', 'DELETE', `/v1/jobs/${id}`, { expect: 200 });
const { text: batch } = await check('batch', 'POST', '/v1/solve/batch', {
  body: '{"puzzle":"8-puzzle","wait_ms":20000,"items":["R D","D R U L",{"state":"1 2 3 / 4 0 6 / 7 5 8"}]}',
  expect: 200 });
await check('batch job', 'GET', `/v1/jobs/${JSON.parse(batch).id}`, { expect: 200 });
await check('batch bad item', 'POST', '/v1/solve/batch', {
  body: '{"puzzle":"8-puzzle","items":["R D","L"]}', expect: 422 });
await check('batch without items', 'POST', '/v1/solve/batch', {
  body: '{"puzzle":"8-puzzle","scramble":"R"}', expect: 400 });
await check('subset', 'POST', '/v1/solve', {
  body: '{"puzzle":"2x2x2","scramble":"R U R\' U\'","moves":["R","U"]}', expect: 200 });
await check('subset unreachable', 'POST', '/v1/solve', {
  body: '{"puzzle":"2x2x2","scramble":"R U F","moves":["R","U"]}', expect: 422 });
await check('several solutions', 'POST', '/v1/solve', {
  body: '{"puzzle":"8-puzzle","state":"1 2 3 / 4 0 6 / 7 5 8","solutions":3}', expect: 200 });
await check('all optimal', 'POST', '/v1/solve', {
  body: '{"puzzle":"2x2x2","scramble":"R U F R2","all_optimal":true}', expect: 200 });
await check('partial goal', 'POST', '/v1/solve', {
  body: '{"puzzle":"2x2x2","scramble":"R U F R2 U\'","care":"first-layer"}', expect: 200 });
await check('catalogue', 'GET', '/v1/puzzles', { expect: 200 });
await check('healthz', 'GET', '/healthz', { expect: 200 });
await check('readyz', 'GET', '/readyz', { expect: 200 });
await check('metrics', 'GET', '/metrics', { expect: 200 });
await check('openapi', 'GET', '/openapi.yaml', { expect: 200 });
await check('invalid json', 'POST', '/v1/solve', { body: '{"puzzle":', expect: 400 });
await check('unknown member', 'POST', '/v1/solve', { body: '{"puzzle":"2x2x2","x":1}', expect: 400 });
await check('bad list limit', 'GET', '/v1/jobs?limit=0', { expect: 400 });
await check('unknown job', 'GET', '/v1/jobs/nope', { expect: 404 });
await check('unknown path', 'GET', '/v2/none', { expect: 404 });
await check('wrong method', 'PUT', '/v1/solve', { body: '{}', expect: 405 });
await check('chunked', 'POST', '/v1/solve', { body: '{"puzzle":"2x2x2","scramble":"R"}', chunked: true, expect: 200 });
await check('too large', 'POST', '/v1/solve', { body: ' '.repeat(70000), expect: 413 });
await check('text body', 'POST', '/v1/solve', { body: '{}', type: 'text/plain', expect: 415 });
await check('bad move', 'POST', '/v1/solve', { body: '{"puzzle":"2x2x2","scramble":"R U Q"}', expect: 422 });
await check('unsolvable', 'POST', '/v1/solve', { body: '{"puzzle":"8-puzzle","state":[1,2,3,4,5,6,8,7,0]}', expect: 422 });
await check('tables', 'GET', '/v1/tables', { expect: 200 });
await check('render', 'GET', "/v1/render?puzzle=3x3x3&scramble=R%20U%27&px=300", { expect: 200 });
await check('render tiles', 'GET', '/v1/render?puzzle=tiles&state=1%202%203%20/%204%205%206%20/%207%200%208', {
  expect: 200 });
await check('render bad state', 'GET', '/v1/render?puzzle=3x3x3&state=UUUU', { expect: 422 });
await check('render bad move', 'GET', '/v1/render?puzzle=skewb&scramble=R%20F', { expect: 422 });
await check('render unknown puzzle', 'GET', '/v1/render?puzzle=megaminx', { expect: 400 });
await check('render px', 'GET', '/v1/render?puzzle=2x2x2&px=4096', { expect: 400 });
await check('table missing', 'POST', '/v1/solve', {
  body: '{"puzzle":"3x3x3","scramble":"R U","engine":"idastar","heuristic":"pdb-large","memory_mb":64}',
  expect: 503 });
await check('table fallback', 'POST', '/v1/solve', {
  body: '{"puzzle":"15-puzzle","state":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15],"heuristic":"pdb","tables":"fallback"}',
  expect: 200 });
await check('auto without tables', 'POST', '/v1/solve', {
  body: '{"puzzle":"15-puzzle","state":[1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15]}', expect: 200 });
await check('tables fail', 'POST', '/v1/solve', {
  body: '{"puzzle":"15-puzzle","state":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15],"heuristic":"pdb","tables":"fail"}',
  expect: 503 });
await check('too long', 'POST', '/v1/solve', { body: '{"puzzle":"8-puzzle","scramble":"D","time_ms":999999999}', expect: 422 });

await check('scramble random state', 'GET', '/v1/scramble?puzzle=333&seed=1', { expect: 200 });
await check('scramble tiles', 'GET', '/v1/scramble?puzzle=tiles&size=3x4&seed=2', { expect: 200 });
await check('scramble moves', 'GET', '/v1/scramble?puzzle=pyram&moves=11', { expect: 200 });
await check('scramble unknown puzzle', 'GET', '/v1/scramble?puzzle=444', { expect: 400 });
await check('scramble bad seed', 'GET', '/v1/scramble?puzzle=222&seed=-1', { expect: 400 });
await check('page', 'GET', '/', { expect: 200 });
await check('reference page', 'GET', '/docs', { expect: 200 });
await check('unknown asset', 'GET', '/assets/none.js', { expect: 404 });
await check('events unknown job', 'GET', '/v1/jobs/0123/events', { expect: 404 });
await check('events wrong method', 'DELETE', '/v1/jobs/0123/events', { expect: 405 });

// The event stream of a job that runs for a while: every event's data is
// a Job, the stream ends with one "end" event.
{
  const { text: body } = await check('solve for events', 'POST', '/v1/solve', {
    body: JSON.stringify({ ...JSON.parse(long(0)), time_ms: 700 }), expect: 202 });
  const { text } = await check('events', 'GET', `/v1/jobs/${JSON.parse(body).id}/events`, { expect: 200 });
  const events = text.split('\n\n').filter((e) => e.length > 0).map((e) => {
    const name = /^event: (.*)$/m.exec(e)?.[1];
    const data = /^data: (.*)$/m.exec(e)?.[1];
    return { name, data };
  });
  checked++;
  if (events.length < 2 || events.at(-1).name !== 'end' ||
      events.slice(0, -1).some((e) => e.name !== 'job')) {
    fail('events', `expected job events then one end: ${events.map((e) => e.name)}`);
  }
  for (const [i, e] of events.entries()) {
    validate(`events #${i}`, '/components/schemas/Job', JSON.parse(e.data));
  }
}

console.log(`${checked} responses checked against ${specPath}, ${failures} failures`);
process.exit(failures === 0 ? 0 : 1);
