// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';

import { ActionError } from './errors.js';
import { Router } from './router.js';

/** @typedef {import('./router.js').Action} Action */
/** @typedef {import('./frames.js').BrowserFrame} BrowserFrame */

/**
 * A router over actions whose sent frames land in `sent`.
 * @param {Record<string, Action>} actions
 */
function setup(actions) {
  /** @type {BrowserFrame[]} */
  const sent = [];
  /** @type {string[]} */
  const warnings = [];
  const router = new Router({
    actions: new Map(Object.entries(actions)),
    send: (frame) => sent.push(frame),
    log: { warn: (msg) => warnings.push(String(msg)), debug: () => {} },
  });
  return { router, sent, warnings };
}

/**
 * @param {string} id
 * @param {string} action
 * @param {Record<string, unknown>} [extra]
 */
function command(id, action, extra = {}) {
  return { type: 'command', id, action, params: {}, timeoutMs: 30_000, ...extra };
}

/**
 * The result sent for id.
 * @param {BrowserFrame[]} sent
 * @param {string} id
 * @returns {import('./frames.js').CommandResult | undefined}
 */
function byId(sent, id) {
  for (const f of sent) if (f.type === 'result' && f.id === id) return f;
  return undefined;
}

/** Resolves once the microtasks and timers queued so far have run. */
const settle = () => delay(5);

/**
 * An action that waits until its signal aborts, records that, and then
 * (like a careless action) resolves anyway after `lateMs`.
 * @param {{ aborted: unknown[] }} log
 * @param {number} lateMs
 * @returns {Action}
 */
function waitsForAbort(log, lateMs = 1) {
  return (_params, { signal }) => new Promise((resolve) => {
    signal.addEventListener('abort', () => {
      log.aborted.push(signal.reason);
      setTimeout(() => resolve({ late: true }), lateMs);
    });
  });
}

test('a command gets its action data as one ok result', async () => {
  /** @type {unknown[]} */
  const got = [];
  const { router, sent } = setup({
    'tab.echo': async (params) => {
      got.push(params);
      return { echoed: params.x };
    },
  });
  router.handle(command('k1', 'tab.echo', { params: { x: 42 } }));
  await settle();
  assert.deepEqual(got, [{ x: 42 }]);
  assert.deepEqual(sent, [{ type: 'result', id: 'k1', ok: true, data: { echoed: 42 } }]);
  assert.equal(router.size, 0);
});

test('absent params are {}, non-object params are bad_request', async () => {
  const { router, sent } = setup({ 'a.b': async (params) => params });
  router.handle({ type: 'command', id: 'k1', action: 'a.b', timeoutMs: 1000 });
  router.handle(command('k2', 'a.b', { params: [1, 2] }));
  await settle();
  assert.deepEqual(byId(sent, 'k1'), { type: 'result', id: 'k1', ok: true, data: {} });
  assert.equal(byId(sent, 'k2')?.error?.code, 'bad_request');
});

test('an unknown action is bad_request', async () => {
  const { router, sent } = setup({});
  router.handle(command('k1', 'tab.explode'));
  await settle();
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0], {
    type: 'result',
    id: 'k1',
    ok: false,
    error: { code: 'bad_request', message: 'unknown action "tab.explode"' },
  });
});

test('an ActionError keeps its code, message and hint', async () => {
  const { router, sent } = setup({
    'tab.x': async () => {
      throw new ActionError('tab_not_allowed', 'tab 3 is not ours', 'use tabs_create');
    },
  });
  router.handle(command('k1', 'tab.x'));
  await settle();
  assert.deepEqual(sent, [{
    type: 'result',
    id: 'k1',
    ok: false,
    error: { code: 'tab_not_allowed', message: 'tab 3 is not ours', hint: 'use tabs_create' },
  }]);
});

test('any other throw is internal, sync or async', async () => {
  const { router, sent } = setup({
    'a.async': async () => {
      throw new Error('No tab with id: 9.');
    },
    'a.sync': /** @type {Action} */ (() => {
      throw new TypeError('x is undefined');
    }),
  });
  router.handle(command('k1', 'a.async'));
  router.handle(command('k2', 'a.sync'));
  await settle();
  assert.equal(sent.length, 2);
  assert.deepEqual(byId(sent, 'k1')?.error, {
    code: 'internal',
    message: 'internal error: No tab with id: 9.',
  });
  assert.deepEqual(byId(sent, 'k2')?.error, {
    code: 'internal',
    message: 'internal error: x is undefined',
  });
});

test('cancel aborts the action and answers cancelled, once', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]) };
  const { router, sent } = setup({ 'page.wait': waitsForAbort(log) });
  router.handle(command('k1', 'page.wait'));
  await settle();
  assert.equal(sent.length, 0);
  router.handle({ type: 'cancel', id: 'k1' });
  router.handle({ type: 'cancel', id: 'k1' }); // a second cancel is ignored
  await settle();
  assert.equal(log.aborted.length, 1);
  const reason = log.aborted[0];
  assert.ok(reason instanceof ActionError && reason.code === 'cancelled');
  assert.deepEqual(sent, [{
    type: 'result',
    id: 'k1',
    ok: false,
    error: { code: 'cancelled', message: 'command cancelled' },
  }]);
  assert.equal(router.size, 0);
});

test('a cancel for an unknown or finished id is ignored', async () => {
  const { router, sent, warnings } = setup({ 'a.b': async () => 1 });
  router.handle(command('k1', 'a.b'));
  await settle();
  router.handle({ type: 'cancel', id: 'k1' });
  router.handle({ type: 'cancel', id: 'nope' });
  await settle();
  assert.equal(sent.length, 1);
  assert.deepEqual(warnings, []);
});

test('timeoutMs aborts the action and answers timeout', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]) };
  const { router, sent } = setup({ 'page.wait': waitsForAbort(log) });
  const started = Date.now();
  router.handle(command('k1', 'page.wait', { timeoutMs: 30 }));
  await delay(80);
  assert.ok(Date.now() - started < 1000);
  assert.equal(log.aborted.length, 1);
  assert.ok(log.aborted[0] instanceof ActionError);
  assert.equal(sent.length, 1);
  const [frame] = sent;
  assert.ok(frame.type === 'result' && !frame.ok);
  assert.equal(frame.error?.code, 'timeout');
  assert.match(frame.error?.message ?? '', /page\.wait timed out after 30 ms/);
});

test('a command that finishes in time is not answered again by its timer', async () => {
  const { router, sent } = setup({ 'a.b': async () => ({ ok: 1 }) });
  router.handle(command('k1', 'a.b', { timeoutMs: 20 }));
  await delay(60);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type === 'result' && sent[0].ok, true);
});

test('an action finishing after its abort is ignored', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]) };
  // It resolves 20 ms after the cancel, and one that rejects late too.
  const { router, sent } = setup({
    'late.ok': waitsForAbort(log, 20),
    'late.err': (_p, { signal }) => new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => setTimeout(() => reject(new Error('late')), 20));
    }),
  });
  router.handle(command('k1', 'late.ok'));
  router.handle(command('k2', 'late.err', { timeoutMs: 10 }));
  router.handle({ type: 'cancel', id: 'k1' });
  await delay(80);
  assert.deepEqual(sent.map((f) => f.type === 'result' && [f.id, f.error?.code]), [
    ['k1', 'cancelled'],
    ['k2', 'timeout'],
  ]);
});

test('commands run concurrently and each gets its own result', async () => {
  const { router, sent } = setup({
    'a.slow': async (params) => {
      await delay(/** @type {number} */ (params.ms));
      return { ms: params.ms };
    },
  });
  router.handle(command('k1', 'a.slow', { params: { ms: 30 } }));
  router.handle(command('k2', 'a.slow', { params: { ms: 5 } }));
  assert.equal(router.size, 2);
  await delay(60);
  assert.deepEqual(sent.map((f) => f.type === 'result' && f.id), ['k2', 'k1']);
});

test('a second command with a running id is dropped, not answered twice', async () => {
  let calls = 0;
  const { router, sent, warnings } = setup({
    'a.b': async () => {
      calls++;
      await delay(10);
      return {};
    },
  });
  router.handle(command('k1', 'a.b'));
  router.handle(command('k1', 'a.b'));
  await delay(40);
  assert.equal(calls, 1);
  assert.equal(sent.length, 1);
  assert.equal(warnings.length, 1);
});

test('cancelAll answers every command in flight as cancelled', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]) };
  const { router, sent } = setup({ 'page.wait': waitsForAbort(log) });
  router.handle(command('k1', 'page.wait'));
  router.handle(command('k2', 'page.wait'));
  await settle();
  router.cancelAll();
  await delay(20);
  assert.equal(log.aborted.length, 2);
  assert.deepEqual(sent.map((f) => f.type === 'result' && [f.id, f.error?.code]), [
    ['k1', 'cancelled'],
    ['k2', 'cancelled'],
  ]);
  assert.equal(router.size, 0);
});

test('cancelAll can leave one command running, and counts the others', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]) };
  const { router, sent } = setup({
    'page.wait': waitsForAbort(log),
    'browser.stop': async () => ({ cancelled: router.cancelAll({ except: 'k3', message: 'stopped by the user' }) }),
  });
  router.handle(command('k1', 'page.wait'));
  router.handle(command('k2', 'page.wait'));
  await settle();
  router.handle(command('k3', 'browser.stop'));
  await delay(20);
  assert.equal(log.aborted.length, 2);
  assert.deepEqual(sent.map((f) => f.type === 'result' && [f.id, f.ok, f.error?.message]), [
    ['k1', false, 'stopped by the user'],
    ['k2', false, 'stopped by the user'],
    ['k3', true, undefined],
  ]);
  assert.deepEqual(byId(sent, 'k3')?.data, { cancelled: 2 });
  assert.equal(router.cancelAll(), 0);
});

test('state frames go to onState', () => {
  /** @type {unknown[]} */
  const states = [];
  /** @type {string[]} */
  const warnings = [];
  const router = new Router({
    actions: new Map(),
    send: () => assert.fail('a state frame is not answered'),
    onState: (data) => {
      states.push(data);
      if (states.length === 2) throw new Error('storage is full');
    },
    log: { warn: (msg) => warnings.push(String(msg)), debug: () => {} },
  });
  router.handle({ type: 'state', data: { handoffs: [] } });
  router.handle({ type: 'state', data: { tasks: [] } });
  router.handle({ type: 'state' }); // data is raw: null stays null
  assert.deepEqual(states, [{ handoffs: [] }, { tasks: [] }, null]);
  assert.deepEqual(warnings, ['router: state frame: internal error: storage is full']);
});

test('a malformed command whose id can be read is answered bad_request', async () => {
  const { router, sent } = setup({});
  router.handle({ type: 'command', id: 'k1', timeoutMs: 5 }); // no action
  router.handle({ type: 'command', id: 'k2', action: 'a', timeoutMs: 'soon' });
  await settle();
  assert.deepEqual(sent.map((f) => f.type === 'result' && [f.id, f.error?.code]), [
    ['k1', 'bad_request'],
    ['k2', 'bad_request'],
  ]);
});

test('frames it does not handle are ignored with a warning', async () => {
  const { router, sent, warnings } = setup({});
  router.handle({ type: 'state', data: {} });
  router.handle({ type: 'shout' });
  router.handle('not even json {');
  await settle();
  assert.deepEqual(sent, []);
  assert.equal(warnings.length, 3);
});

test('ping is answered with pong', () => {
  const { router, sent } = setup({});
  router.handle({ type: 'ping' });
  assert.deepEqual(sent, [{ type: 'pong' }]);
});

test('a send that throws does not break the router', async () => {
  let fail = true;
  /** @type {BrowserFrame[]} */
  const sent = [];
  const router = new Router({
    actions: new Map([['a.b', async () => 1]]),
    send: (frame) => {
      if (fail) throw new Error('Attempting to use a disconnected port object');
      sent.push(frame);
    },
    log: { warn: () => {}, debug: () => {} },
  });
  router.handle(command('k1', 'a.b'));
  await settle();
  fail = false;
  router.handle(command('k2', 'a.b'));
  await settle();
  assert.deepEqual(sent.map((f) => f.type === 'result' && f.id), ['k2']);
  assert.equal(router.size, 0);
});
