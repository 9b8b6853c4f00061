// @ts-check
/// <reference types="node" />
// No test here orders events with a sleep: actions say when they started
// through promises, the router's timers are a clock the test fires, and
// "nothing more happens" is checked after the router has said so (its
// debug log of a late result).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import {
  BUSY_AFTER_MS,
  BUSY_EVERY_MS,
  BUSY_LOOKS,
  Router,
  action,
  joinTables,
  tabAction,
} from './router.js';

/** @typedef {import('./router.js').Action} Action */
/** @typedef {import('./router.js').TabAction} TabAction */
/** @typedef {import('./router.js').ActionEntry} ActionEntry */
/** @typedef {import('./router.js').CheckTab} CheckTab */
/** @typedef {import('./frames.js').BrowserFrame} BrowserFrame */

/**
 * A promise and the functions that settle it.
 * @template [T=void]
 */
class Deferred {
  constructor() {
    /** @type {(value: T) => void} */
    this.resolve = () => {};
    /** @type {(reason: unknown) => void} */
    this.reject = () => {};
    /** @type {Promise<T>} */
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}

/**
 * Timers that fire only when the test says so.
 */
class Clock {
  constructor() {
    /** @type {Map<number, { fn: () => void, ms: number }>} */
    this.pending = new Map();
    this.next = 1;
    /** Counts the timers set, for a test to wait until one is. */
    this.set = new Counter();
  }

  /** @param {() => void} fn @param {number} ms */
  setTimeout(fn, ms) {
    const handle = this.next++;
    this.pending.set(handle, { fn, ms });
    this.set.add();
    return handle;
  }

  /** @param {unknown} handle */
  clearTimeout(handle) {
    this.pending.delete(/** @type {number} */ (handle));
  }

  /** The delays of the timers still pending. */
  delays() {
    return [...this.pending.values()].map((t) => t.ms);
  }

  /** Fires every pending timer, as if their time had come. */
  fire() {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }

  /**
   * Fires the pending timers set for ms, leaving the others.
   * @param {number} ms
   */
  fireDelay(ms) {
    for (const [handle, t] of [...this.pending]) {
      if (t.ms !== ms) continue;
      this.pending.delete(handle);
      t.fn();
    }
  }
}

/**
 * Resolves waiters once a count reaches what each waits for.
 */
class Counter {
  constructor() {
    this.n = 0;
    /** @type {Array<{ want: number, done: () => void }>} */
    this.waiters = [];
  }

  add() {
    this.n++;
    this.waiters = this.waiters.filter((w) => {
      if (this.n < w.want) return true;
      w.done();
      return false;
    });
  }

  /**
   * Resolves once the count is at least want.
   * @param {number} want
   * @returns {Promise<void>}
   */
  reach(want) {
    if (this.n >= want) return Promise.resolve();
    return new Promise((done) => this.waiters.push({ want, done }));
  }
}

/**
 * A router over actions (plain ones, and tab ones behind checkTab) whose
 * sent frames land in `sent`; `frames(n)` resolves once n were sent and
 * `lates(n)` once the router has dropped n late results.
 * @param {Record<string, Action>} actions
 * @param {{ tabActions?: Record<string, TabAction>, unwatched?: Record<string, TabAction>,
 *   checkTab?: CheckTab, answers?: import('./router.js').Answers }} [options]
 */
function setup(actions, { tabActions = {}, unwatched = {}, checkTab, answers } = {}) {
  /** @type {BrowserFrame[]} */
  const sent = [];
  /** @type {string[]} */
  const warnings = [];
  const sends = new Counter();
  const late = new Counter();
  const clock = new Clock();
  /** @type {ActionEntry[]} */
  const entries = [
    ...Object.entries(actions).map(([name, run]) => action(name, run)),
    ...Object.entries(tabActions).map(([name, run]) => tabAction(name, run)),
    ...Object.entries(unwatched).map(([name, run]) => tabAction(name, run, { unwatched: true })),
  ];
  const router = new Router({
    actions: entries,
    checkTab,
    answers,
    send: (frame) => {
      sent.push(frame);
      sends.add();
    },
    log: {
      warn: (msg) => warnings.push(String(msg)),
      debug: (msg) => {
        if (/late/.test(String(msg))) late.add();
      },
    },
    timers: clock,
  });
  return {
    router,
    sent,
    warnings,
    clock,
    /** @param {number} n */
    frames: (n) => sends.reach(n),
    /** @param {number} n */
    lates: (n) => late.reach(n),
  };
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

/**
 * Each result as [id, error code or 'ok'].
 * @param {BrowserFrame[]} sent
 */
function outcomes(sent) {
  return sent.map((f) => f.type === 'result' && [f.id, f.ok ? 'ok' : f.error?.code]);
}

/**
 * An action that says when it started, waits until its signal aborts,
 * records the reason, and then (like a careless action) settles anyway when
 * the test releases it: resolves, or rejects with rejectWith.
 * @param {{ aborted: unknown[], started?: Deferred, release?: Promise<void>, rejectWith?: Error }} log
 * @returns {Action}
 */
function waitsForAbort(log) {
  return (_params, { signal }) => new Promise((resolve, reject) => {
    log.started?.resolve();
    signal.addEventListener('abort', () => {
      log.aborted.push(signal.reason);
      (log.release ?? Promise.resolve()).then(() => {
        if (log.rejectWith) reject(log.rejectWith);
        else resolve({ late: true });
      });
    });
  });
}

test('a command gets its action data as one ok result', async () => {
  /** @type {unknown[]} */
  const got = [];
  const { router, sent, frames } = setup({
    'tab.echo': async (params) => {
      got.push(params);
      return { echoed: params.x };
    },
  });
  router.handle(command('k1', 'tab.echo', { params: { x: 42 } }));
  await frames(1);
  assert.deepEqual(got, [{ x: 42 }]);
  assert.deepEqual(sent, [{ type: 'result', id: 'k1', ok: true, data: { echoed: 42 } }]);
  assert.equal(router.size, 0);
});

test('the action starts after handle returns', async () => {
  let ran = false;
  const { router, frames } = setup({
    'a.b': async () => {
      ran = true;
    },
  });
  router.handle(command('k1', 'a.b'));
  assert.equal(ran, false);
  await frames(1);
  assert.equal(ran, true);
});

test('absent params are {}, non-object params are bad_request', async () => {
  const { router, sent, frames } = setup({ 'a.b': async (params) => params });
  router.handle({ type: 'command', id: 'k1', action: 'a.b', timeoutMs: 1000 });
  router.handle(command('k2', 'a.b', { params: [1, 2] }));
  await frames(2);
  assert.deepEqual(byId(sent, 'k1'), { type: 'result', id: 'k1', ok: true, data: {} });
  assert.equal(byId(sent, 'k2')?.error?.code, 'bad_request');
});

test('an unknown action is bad_request', async () => {
  const { router, sent, frames } = setup({});
  router.handle(command('k1', 'tab.explode'));
  await frames(1);
  assert.deepEqual(sent, [{
    type: 'result',
    id: 'k1',
    ok: false,
    error: { code: 'bad_request', message: 'unknown action "tab.explode"' },
  }]);
});

test('an ActionError keeps its code, message and hint', async () => {
  const { router, sent, frames } = setup({
    'tab.x': async () => {
      throw new ActionError('tab_not_allowed', 'tab 3 is not ours', 'use tabs_create');
    },
  });
  router.handle(command('k1', 'tab.x'));
  await frames(1);
  assert.deepEqual(sent, [{
    type: 'result',
    id: 'k1',
    ok: false,
    error: { code: 'tab_not_allowed', message: 'tab 3 is not ours', hint: 'use tabs_create' },
  }]);
});

test('any other throw is internal, sync or async', async () => {
  const { router, sent, frames } = setup({
    'a.async': async () => {
      throw new Error('No tab with id: 9.');
    },
    'a.sync': /** @type {Action} */ (() => {
      throw new TypeError('x is undefined');
    }),
  });
  router.handle(command('k1', 'a.async'));
  router.handle(command('k2', 'a.sync'));
  await frames(2);
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
  const log = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const { router, sent } = setup({ 'page.wait': waitsForAbort(log) });
  router.handle(command('k1', 'page.wait'));
  await log.started.promise;
  assert.equal(sent.length, 0);
  router.handle({ type: 'cancel', id: 'k1' });
  router.handle({ type: 'cancel', id: 'k1' }); // a second cancel is ignored
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
  const { router, sent, warnings, frames } = setup({ 'a.b': async () => 1 });
  router.handle(command('k1', 'a.b'));
  await frames(1);
  router.handle({ type: 'cancel', id: 'k1' });
  router.handle({ type: 'cancel', id: 'nope' });
  assert.equal(sent.length, 1);
  assert.deepEqual(warnings, []);
});

test('timeoutMs aborts the action and answers timeout', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const { router, sent, clock } = setup({ 'page.wait': waitsForAbort(log) });
  router.handle(command('k1', 'page.wait', { timeoutMs: 30 }));
  await log.started.promise;
  assert.deepEqual(clock.delays(), [30]);
  assert.equal(sent.length, 0);
  clock.fire();
  assert.equal(log.aborted.length, 1);
  assert.ok(log.aborted[0] instanceof ActionError);
  assert.equal(sent.length, 1);
  const [frame] = sent;
  assert.ok(frame.type === 'result' && !frame.ok);
  assert.equal(frame.error?.code, 'timeout');
  assert.match(frame.error?.message ?? '', /page\.wait timed out after 30 ms/);
});

test('a command that finishes in time is not answered again by its timer', async () => {
  const { router, sent, clock, frames } = setup({ 'a.b': async () => ({ ok: 1 }) });
  router.handle(command('k1', 'a.b', { timeoutMs: 20 }));
  assert.deepEqual(clock.delays(), [20]);
  await frames(1);
  assert.deepEqual(clock.delays(), [], 'the timer is cleared');
  clock.fire();
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type === 'result' && sent[0].ok, true);
});

test('an action finishing after its abort is ignored', async () => {
  const release = new Deferred();
  const ok = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred(), release: release.promise };
  const err = { ...ok, aborted: /** @type {unknown[]} */ ([]), started: new Deferred(), rejectWith: new Error('late') };
  const { router, sent, clock, lates } = setup({ 'late.ok': waitsForAbort(ok), 'late.err': waitsForAbort(err) });
  router.handle(command('k1', 'late.ok'));
  router.handle(command('k2', 'late.err', { timeoutMs: 10 }));
  await Promise.all([ok.started.promise, err.started.promise]);
  router.handle({ type: 'cancel', id: 'k1' });
  clock.fire(); // k2's timeout (k1's timer went with its cancel)
  assert.deepEqual(outcomes(sent), [['k1', 'cancelled'], ['k2', 'timeout']]);
  release.resolve();
  await lates(2);
  assert.deepEqual(outcomes(sent), [['k1', 'cancelled'], ['k2', 'timeout']]);
});

test('commands run concurrently and each gets its own result', async () => {
  /** @type {Record<string, Deferred>} */
  const gates = { k1: new Deferred(), k2: new Deferred() };
  const { router, sent, frames } = setup({
    'a.slow': async (_params, { id }) => {
      await gates[id].promise;
      return { id };
    },
  });
  router.handle(command('k1', 'a.slow'));
  router.handle(command('k2', 'a.slow'));
  assert.equal(router.size, 2);
  gates.k2.resolve();
  await frames(1);
  gates.k1.resolve();
  await frames(2);
  assert.deepEqual(outcomes(sent), [['k2', 'ok'], ['k1', 'ok']]);
});

test('a second command with a running id is dropped, not answered twice', async () => {
  let calls = 0;
  const gate = new Deferred();
  const { router, sent, warnings, frames } = setup({
    'a.b': async () => {
      calls++;
      await gate.promise;
      return {};
    },
  });
  router.handle(command('k1', 'a.b'));
  router.handle(command('k1', 'a.b'));
  assert.equal(warnings.length, 1);
  gate.resolve();
  await frames(1);
  assert.equal(calls, 1);
  assert.equal(sent.length, 1);
});

test('cancelAll answers every command in flight as cancelled', async () => {
  const one = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const two = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const { router, sent } = setup({ 'page.one': waitsForAbort(one), 'page.two': waitsForAbort(two) });
  router.handle(command('k1', 'page.one'));
  router.handle(command('k2', 'page.two'));
  await Promise.all([one.started.promise, two.started.promise]);
  assert.equal(router.cancelAll(), 2);
  assert.equal(one.aborted.length + two.aborted.length, 2);
  assert.deepEqual(outcomes(sent), [['k1', 'cancelled'], ['k2', 'cancelled']]);
  assert.equal(router.size, 0);
});

test('cancelAll can leave one command running, and counts the others', async () => {
  const one = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const two = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const { router, sent, frames } = setup({
    'page.one': waitsForAbort(one),
    'page.two': waitsForAbort(two),
    'browser.stop': async () => ({ cancelled: router.cancelAll({ except: 'k3', message: 'stopped by the user' }) }),
  });
  router.handle(command('k1', 'page.one'));
  router.handle(command('k2', 'page.two'));
  await Promise.all([one.started.promise, two.started.promise]);
  router.handle(command('k3', 'browser.stop'));
  await frames(3);
  assert.equal(one.aborted.length + two.aborted.length, 2);
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
    actions: [],
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

test('a malformed command whose id can be read is answered bad_request', () => {
  const { router, sent } = setup({});
  router.handle({ type: 'command', id: 'k1', timeoutMs: 5 }); // no action
  router.handle({ type: 'command', id: 'k2', action: 'a', timeoutMs: 'soon' });
  assert.deepEqual(outcomes(sent), [['k1', 'bad_request'], ['k2', 'bad_request']]);
});

test('frames it does not handle are ignored with a warning', () => {
  const { router, sent, warnings } = setup({});
  router.handle({ type: 'state', data: {} });
  router.handle({ type: 'shout' });
  router.handle('not even json {');
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
  const attempts = new Counter();
  const router = new Router({
    actions: [action('a.b', async () => 1)],
    send: (frame) => {
      attempts.add();
      if (fail) throw new Error('Attempting to use a disconnected port object');
      sent.push(frame);
    },
    log: { warn: () => {}, debug: () => {} },
  });
  router.handle(command('k1', 'a.b'));
  await attempts.reach(1);
  fail = false;
  router.handle(command('k2', 'a.b'));
  await attempts.reach(2);
  assert.deepEqual(sent.map((f) => f.type === 'result' && f.id), ['k2']);
  assert.equal(router.size, 0);
});

// --- the tab gate ---------------------------------------------------------

/**
 * A gate over known tabs: 7 is ours, 8 is someone else's, others are gone.
 * It records each tabId it is asked about.
 * @param {number[]} asked
 * @returns {CheckTab}
 */
function gate(asked) {
  return async (tabId) => {
    asked.push(tabId);
    if (tabId === 7) return { id: 7, url: 'http://127.0.0.1/a', title: 'A' };
    if (tabId === 8) throw new ActionError('tab_not_allowed', `tab ${tabId} is not in the OpenChrome tab group`, 'drag it in');
    throw new ActionError('tab_not_found', `no tab ${tabId}`, 'call tabs_context');
  };
}

test('a tab action gets the tab the gate let through, checked once', async () => {
  /** @type {number[]} */
  const asked = [];
  /** @type {unknown[]} */
  const got = [];
  const { router, sent, frames } = setup({}, {
    checkTab: gate(asked),
    tabActions: {
      'page.read': async (params, { tabId, tab, signal, id }) => {
        got.push({ params, tabId, tab, aborted: signal.aborted, id });
        return { title: tab.title };
      },
    },
  });
  router.handle(command('k1', 'page.read', { params: { tabId: 7, x: 1 } }));
  await frames(1);
  assert.deepEqual(asked, [7]);
  assert.deepEqual(got, [{
    params: { tabId: 7, x: 1 },
    tabId: 7,
    tab: { id: 7, url: 'http://127.0.0.1/a', title: 'A' },
    aborted: false,
    id: 'k1',
  }]);
  assert.deepEqual(sent, [{ type: 'result', id: 'k1', ok: true, data: { title: 'A' } }]);
});

test('a refused tab is the gate\'s one error, and the action never runs', async () => {
  /** @type {number[]} */
  const asked = [];
  let ran = 0;
  const { router, sent, frames } = setup({}, {
    checkTab: gate(asked),
    tabActions: {
      'page.read': async () => {
        ran++;
        return {};
      },
    },
  });
  router.handle(command('k1', 'page.read', { params: { tabId: 8 } }));
  router.handle(command('k2', 'page.read', { params: { tabId: 9 } }));
  await frames(2);
  assert.equal(ran, 0);
  assert.deepEqual(asked, [8, 9]);
  assert.deepEqual(sent, [
    {
      type: 'result', id: 'k1', ok: false,
      error: { code: 'tab_not_allowed', message: 'tab 8 is not in the OpenChrome tab group', hint: 'drag it in' },
    },
    {
      type: 'result', id: 'k2', ok: false,
      error: { code: 'tab_not_found', message: 'no tab 9', hint: 'call tabs_context' },
    },
  ]);
  assert.equal(router.size, 0);
});

test('a tab action without an integer tabId is bad_request, asked of no gate', async () => {
  /** @type {number[]} */
  const asked = [];
  let ran = 0;
  const { router, sent, frames } = setup({}, {
    checkTab: gate(asked),
    tabActions: {
      'page.read': async () => {
        ran++;
        return {};
      },
    },
  });
  router.handle(command('k1', 'page.read'));
  router.handle(command('k2', 'page.read', { params: { tabId: '7' } }));
  router.handle(command('k3', 'page.read', { params: { tabId: 7.5 } }));
  await frames(3);
  assert.equal(ran, 0);
  assert.deepEqual(asked, []);
  const badRequest = {
    code: 'bad_request',
    message: 'tabId must be an integer tab id',
    hint: "call tabs_context for the agent's tabs",
  };
  assert.deepEqual(sent.map((f) => f.type === 'result' && f.error), [badRequest, badRequest, badRequest]);
});

test('an action that takes no tab is not gated', async () => {
  /** @type {number[]} */
  const asked = [];
  const { router, sent, frames } = setup({ 'tab.create': async (params) => ({ got: params.tabId }) }, {
    checkTab: gate(asked),
  });
  router.handle(command('k1', 'tab.create', { params: { tabId: 8 } }));
  await frames(1);
  assert.deepEqual(asked, []);
  assert.deepEqual(byId(sent, 'k1')?.data, { got: 8 });
});

test('a command answered while the gate is out never runs its action', async () => {
  const checked = new Deferred();
  const asked = new Deferred();
  let ran = 0;
  const { router, sent, clock, lates } = setup({}, {
    checkTab: async (tabId) => {
      asked.resolve();
      await checked.promise;
      return { id: tabId };
    },
    tabActions: {
      'page.read': async () => {
        ran++;
        return {};
      },
    },
  });
  router.handle(command('k1', 'page.read', { params: { tabId: 7 }, timeoutMs: 50 }));
  router.handle(command('k2', 'page.read', { params: { tabId: 7 } }));
  await asked.promise;
  clock.fire(); // both time out
  assert.deepEqual(outcomes(sent), [['k1', 'timeout'], ['k2', 'timeout']]);
  checked.resolve();
  await lates(2);
  assert.equal(ran, 0);
  assert.equal(sent.length, 2);
});

/**
 * A page for the router's looks: each look is recorded and answered with
 * the next of replies once the test calls reply.
 */
class Page {
  constructor() {
    /** @type {number[]} the tabs looked at */
    this.looked = [];
    /** @type {Array<(answered: boolean) => void>} */
    this.waiting = [];
    this.asked = new Counter();
    /** @type {import('./router.js').Answers} */
    this.answers = (tabId) => new Promise((resolve) => {
      this.looked.push(tabId);
      this.waiting.push(resolve);
      this.asked.add();
    });
  }

  /**
   * Answers the oldest look.
   * @param {boolean} answered
   */
  reply(answered) {
    const resolve = this.waiting.shift();
    assert.ok(resolve, 'no look is waiting');
    resolve(answered);
  }
}

/**
 * Fires the look set for ms, and has the page give it answered; resolves
 * once the router has either set its next timer or sent a frame.
 * @param {{ clock: Clock, frames: (n: number) => Promise<void>, sent: BrowserFrame[] }} r
 * @param {Page} page
 * @param {number} ms
 * @param {boolean} answered
 */
async function look(r, page, ms, answered) {
  const sets = r.clock.set.n;
  const frames = r.sent.length;
  const asked = page.asked.n;
  r.clock.fireDelay(ms);
  await page.asked.reach(asked + 1);
  page.reply(answered);
  await Promise.race([r.clock.set.reach(sets + 1), r.frames(frames + 1)]);
}

test('a tab action whose page stops answering is answered so, with the way out', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const page = new Page();
  const r = setup({}, { checkTab: gate([]), tabActions: { 'element.act': waitsForAbort(log) }, answers: page.answers });
  r.router.handle(command('k1', 'element.act', { params: { tabId: 7 } }));
  await log.started.promise;
  assert.deepEqual(r.clock.delays().sort(), [30_000, BUSY_AFTER_MS].sort(), 'the page is not looked at before');
  assert.deepEqual(page.looked, []);

  await look(r, page, BUSY_AFTER_MS, false);
  for (let i = 1; i < BUSY_LOOKS; i++) {
    assert.equal(r.sent.length, 0, `still waiting after ${i} looks`);
    await look(r, page, BUSY_EVERY_MS, false);
  }
  assert.equal(page.looked.length, BUSY_LOOKS);
  assert.ok(page.looked.every((t) => t === 7));
  const frame = byId(r.sent, 'k1');
  assert.ok(frame && !frame.ok);
  assert.equal(frame.error?.code, 'timeout');
  assert.match(frame.error?.message ?? '', /the page has not answered for 16 s: a script of its own keeps it busy/);
  assert.match(frame.error?.hint ?? '', /tabs_close ends it \(a navigation to another URL may get past it/);
  assert.equal(log.aborted.length, 1, 'the action was aborted');
  await r.lates(1);
  assert.deepEqual(r.clock.delays(), [], 'nothing is watched once it settled');

  // The next command on that page is looked at at once, and needs two looks.
  let sets = r.clock.set.n;
  r.router.handle(command('k2', 'element.act', { params: { tabId: 7 } }));
  await r.clock.set.reach(sets + 2); // its timeout, and the look
  await look(r, page, 0, false);
  assert.equal(byId(r.sent, 'k2'), undefined, 'a navigation away has the time to commit');
  await look(r, page, BUSY_EVERY_MS, false);
  assert.equal(byId(r.sent, 'k2')?.error?.code, 'timeout');

  // Once it answers, it is a page like any other again.
  sets = r.clock.set.n;
  r.router.handle(command('k3', 'element.act', { params: { tabId: 7 } }));
  await r.clock.set.reach(sets + 2);
  await look(r, page, 0, true);
  assert.equal(byId(r.sent, 'k3'), undefined);
  await look(r, page, BUSY_AFTER_MS, false);
  assert.equal(byId(r.sent, 'k3'), undefined, 'one look it did not answer is not enough again');
});

/**
 * A router running command k1, a page.snapshot of tab 7 that ends when done
 * resolves, its page the test answers for.
 */
async function snapshotRunning() {
  const page = new Page();
  const done = new Deferred();
  const started = new Deferred();
  const r = setup({}, {
    checkTab: gate([]),
    tabActions: {
      'page.snapshot': async () => {
        started.resolve();
        await done.promise;
        return {};
      },
    },
    answers: page.answers,
  });
  r.router.handle(command('k1', 'page.snapshot', { params: { tabId: 7 } }));
  await started.promise;
  return { r, page, done };
}

test('a page that answers is never stopped, and its watch ends with the action', async () => {
  const { r, page, done } = await snapshotRunning();
  for (let i = 0; i < BUSY_LOOKS + 1; i++) await look(r, page, BUSY_AFTER_MS, true);
  assert.equal(r.sent.length, 0);
  done.resolve();
  await r.frames(1);
  assert.deepEqual(outcomes(r.sent), [['k1', 'ok']]);
  assert.deepEqual(r.clock.delays(), []);
});

test('a look that comes back after its command ended does nothing', async () => {
  const { r, page, done } = await snapshotRunning();
  r.clock.fireDelay(BUSY_AFTER_MS);
  await page.asked.reach(1);
  done.resolve();
  await r.frames(1);
  page.reply(false);
  await Promise.resolve();
  assert.deepEqual(outcomes(r.sent), [['k1', 'ok']]);
  assert.deepEqual(r.clock.delays(), []);
});

test('an unwatched tab action\'s page is never looked at', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const page = new Page();
  const r = setup({}, { checkTab: gate([]), unwatched: { 'page.evaluate': waitsForAbort(log) }, answers: page.answers });
  r.router.handle(command('k1', 'page.evaluate', { params: { tabId: 7 } }));
  await log.started.promise;
  assert.deepEqual(r.clock.delays(), [30_000]);
});

test('an unwatched tab action on a page found stuck is looked at until it answers', async () => {
  const log = { aborted: /** @type {unknown[]} */ ([]), started: new Deferred() };
  const page = new Page();
  const r = setup({}, {
    checkTab: gate([]),
    tabActions: { 'element.act': waitsForAbort(log) },
    unwatched: { 'page.evaluate': waitsForAbort(log) },
    answers: page.answers,
  });
  r.router.handle(command('k1', 'element.act', { params: { tabId: 7 } }));
  await log.started.promise;
  await look(r, page, BUSY_AFTER_MS, false);
  for (let i = 1; i < BUSY_LOOKS; i++) await look(r, page, BUSY_EVERY_MS, false);
  assert.equal(byId(r.sent, 'k1')?.error?.code, 'timeout');

  // Its script could never start: said in two looks, not at its timeout.
  let sets = r.clock.set.n;
  r.router.handle(command('k2', 'page.evaluate', { params: { tabId: 7 } }));
  await r.clock.set.reach(sets + 2); // its timeout, and the look
  await look(r, page, 0, false);
  await look(r, page, BUSY_EVERY_MS, false);
  assert.match(byId(r.sent, 'k2')?.error?.message ?? '', /the page has not answered/);

  // Once the page answers, its own script may keep it busy: no more looks.
  sets = r.clock.set.n;
  r.router.handle(command('k3', 'page.evaluate', { params: { tabId: 7 } }));
  await r.clock.set.reach(sets + 2);
  const asked = page.asked.n;
  r.clock.fireDelay(0);
  await page.asked.reach(asked + 1);
  page.reply(true);
  await r.lates(1);
  assert.deepEqual(r.clock.delays(), [30_000], 'only its timeout is left');
  assert.equal(byId(r.sent, 'k3'), undefined);
});

test('the router refuses a table it cannot serve', () => {
  const send = () => {};
  const run = async () => ({});
  assert.throws(() => new Router({ actions: [tabAction('page.read', run)], send }), /takes a tab/);
  assert.throws(() => new Router({ actions: [action('a.b', run), action('a.b', run)], send }), /twice/);
});

test('joinTables wants each name to start with its file and to appear once', () => {
  const run = async () => ({});
  const joined = joinTables({
    tab: [action('tab.list', run), tabAction('tab.close', run)],
    page: [tabAction('page.text', run)],
  });
  assert.deepEqual(joined.map((e) => [e.name, e.tab]), [['tab.list', false], ['tab.close', true], ['page.text', true]]);
  assert.throws(() => joinTables({ tab: [action('tabs.list', run)] }), /must start with "tab\."/);
  assert.throws(() => joinTables({ page: [tabAction('element.find', run)] }), /actions\/page\.js/);
  assert.throws(() => joinTables({ tab: [action('tab.list', run), action('tab.list', run)] }), /twice/);
});
