// @ts-check
/// <reference types="node" />
// Stop ends the debugger's sessions for good: sw/cdp.js and what keeps a
// session going (sw/evidence.js) against a stand-in chrome.debugger that
// records every attach, detach and command, in order. Nothing that belongs
// to a session a Stop ended may start one again; only a command may.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, installChrome } from './testdata.js';

/** What reached the browser, in order: [what, tabId]. @type {Array<[string, number]>} */
const log = [];
/**
 * How each command answers, by method; the default answers {} at once.
 * @type {Map<string, (tabId: number) => Promise<unknown>>}
 */
const answersTo = new Map();
/** @type {Set<number>} */
const held = new Set();

const GROUP = 7;
installChrome({
  debugger: {
    attach: async (/** @type {{ tabId: number }} */ { tabId }) => {
      log.push(['attach', tabId]);
      held.add(tabId);
    },
    detach: async (/** @type {{ tabId: number }} */ { tabId }) => {
      log.push(['detach', tabId]);
      held.delete(tabId);
    },
    sendCommand: async (/** @type {{ tabId: number }} */ { tabId }, /** @type {string} */ method) => {
      if (!held.has(tabId)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}`);
      log.push([method, tabId]);
      return (answersTo.get(method) ?? (async () => ({})))(tabId);
    },
    onDetach: event(),
    onEvent: event(),
  },
  'tabs.get': async (/** @type {number} */ id) => ({ id, groupId: GROUP }),
  tabGroups: { TAB_GROUP_ID_NONE: -1, get: async () => ({ id: GROUP, title: 'OpenChrome' }), query: async () => [] },
});

/** @type {typeof import('./cdp.js')} */
const cdp = await import('./cdp.js');

/**
 * What reached tabId, in order.
 * @param {number} tabId
 */
function seen(tabId) {
  return log.filter(([, t]) => t === tabId).map(([what]) => what);
}

/** Lets every callback queued so far run, and what they queue in turn. */
function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

test('a session let go of is not started again for what belonged to it', async () => {
  const tab = 1;
  await cdp.send(tab, 'Runtime.evaluate');
  await cdp.detach(tab);
  await assert.rejects(cdp.sendInSession(tab, 'Fetch.continueRequest'), /no debugger session/);
  await cdp.undo(tab, 'Runtime.releaseObjectGroup');
  assert.equal(await cdp.answers(tab, 50), true, 'a tab let go of counts as answering');
  await cdp.interrupt(tab);
  assert.deepEqual(seen(tab), ['attach', 'Page.enable', 'Runtime.evaluate', 'detach']);

  // A command starts one: it is the agent's next step.
  await cdp.send(tab, 'Runtime.evaluate');
  assert.deepEqual(seen(tab).slice(4), ['attach', 'Page.enable', 'Runtime.evaluate']);
  await cdp.detach(tab); // and its idle timer with it
});

test('an aborted command attaches nothing', async () => {
  const tab = 2;
  const stop = new AbortController();
  stop.abort(new Error('the person pressed Stop'));
  await assert.rejects(cdp.send(tab, 'Runtime.evaluate', {}, { signal: stop.signal }), /pressed Stop/);
  assert.deepEqual(seen(tab), []);
});

test('Stop lets go of a tab once the script its command ran is stopped', async () => {
  const tab = 3;
  await cdp.send(tab, 'Debugger.enable');
  // The page's thread is held by the script: a probe is not answered until
  // the pause ends it.
  /** @type {() => void} */
  let free = () => {};
  const busy = new Promise((resolve) => {
    free = () => resolve({});
  });
  answersTo.set('Runtime.evaluate', () => busy);
  answersTo.set('Debugger.resume', async () => {
    free();
    return {};
  });
  try {
    const stopped = cdp.interrupt(tab);
    // Stop comes while the interrupt still probes the page.
    const detached = await cdp.detachAll();
    await stopped;
    assert.equal(detached, 1);
    assert.deepEqual(seen(tab), ['attach', 'Page.enable', 'Debugger.enable', 'Runtime.evaluate',
      'Debugger.pause', 'Debugger.resume', 'detach']);
  } finally {
    answersTo.clear();
  }
});

test('the keep-alive keeps a session and starts none after a Stop; the next command does, ready', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  /** @type {typeof import('./evidence.js')} */
  const evidence = await import('./evidence.js');
  const tab = 4;
  await evidence.watch(tab);
  const watched = seen(tab).length;
  assert.ok(seen(tab).includes('Network.enable'), `watching enabled ${seen(tab)}`);

  t.mock.timers.tick(60_000);
  await settle();
  assert.deepEqual(seen(tab).slice(watched), ['Runtime.enable'], 'the keep-alive visits the session');

  await cdp.detachAll();
  const stopped = seen(tab).length;
  t.mock.timers.tick(60_000);
  await settle();
  assert.deepEqual(seen(tab).slice(stopped - 1), ['detach'], 'nothing reached the tab after Stop');
  assert.ok(evidence.isWatched(tab), 'still the agent\'s: its next command attaches');

  // The next command attaches, and goes on once the new session has the
  // site policy's interception and the evidence domains back.
  const before = seen(tab).length;
  await cdp.send(tab, 'Input.dispatchMouseEvent');
  const next = seen(tab).slice(before);
  assert.equal(next[0], 'attach');
  assert.equal(next.at(-1), 'Input.dispatchMouseEvent');
  for (const method of ['Fetch.enable', 'Network.enable', 'Runtime.enable']) {
    assert.ok(next.includes(method), `${method} before the command: ${next}`);
  }
  await cdp.detach(tab);
  evidence.unwatch(tab);
});
