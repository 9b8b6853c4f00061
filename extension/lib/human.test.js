// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  bannerTargets,
  checkHumanMessage,
  handoffsOf,
  isHumanMessage,
  originOf,
  runningHandoffs,
} from './human.js';

const EXT = 'pmdndpcaaogpfkegdbdkbpfpldaklhac';
const PANEL = { id: EXT, url: `chrome-extension://${EXT}/sidepanel/panel.html` };
/** @param {number} tabId */
const banner = (tabId, frameId = 0) => ({ id: EXT, url: 'https://example.com/login', frameId, tab: { id: tabId } });

const state = {
  handoffs: [
    { id: 'h1', status: 'RUNNING', reason: 'login', instruction: 'Log in as the test user', tabId: 12,
      deadline: '2026-11-21T14:40:00Z' },
    { id: 'h2', status: 'RUNNING', reason: '2fa', tabId: 12 }, // a second one in the same tab
    { id: 'h3', status: 'RUNNING', reason: 'captcha' }, // no tab
    { id: 'h4', status: 'FINISHED', tabId: 13 },
    { id: 'h5', status: 'RUNNING', reason: 'permission', instruction: 'Allow the camera', tabId: 14,
      deadline: '2026-11-21T14:45:00Z' },
  ],
};

/**
 * @param {unknown} message
 * @param {import('./human.js').Sender} sender
 */
const check = (message, sender, s = /** @type {unknown} */ (state)) =>
  checkHumanMessage(message, sender, { extensionId: EXT, state: s });

test('the state is read defensively', () => {
  assert.deepEqual(handoffsOf(undefined), []);
  assert.deepEqual(handoffsOf({ handoffs: 'no' }), []);
  assert.deepEqual(handoffsOf({ handoffs: [null, { id: 'x' }, { id: 'y', status: 'RUNNING' }] }),
    [{ id: 'y', status: 'RUNNING' }]);
  assert.deepEqual(runningHandoffs(state).map((h) => h.id), ['h1', 'h2', 'h3', 'h5']);
});

test('each tab with a RUNNING handoff gets one banner, the first listed', () => {
  assert.deepEqual([...bannerTargets(state)], [
    [12, { id: 'h1', reason: 'login', instruction: 'Log in as the test user', deadline: '2026-11-21T14:40:00Z' }],
    [14, { id: 'h5', reason: 'permission', instruction: 'Allow the camera', deadline: '2026-11-21T14:45:00Z' }],
  ]);
  assert.deepEqual([...bannerTargets(state, new Set(['h1'])).keys()], [12, 14],
    'h2 takes the tab when h1 was dismissed');
  assert.deepEqual(bannerTargets({ handoffs: [{ id: 'a', status: 'RUNNING', tabId: 1 }] }).get(1),
    { id: 'a', reason: 'other', instruction: '', deadline: '' });
  assert.equal(bannerTargets(null).size, 0);
});

test('only {type: "human"} messages are ours', () => {
  assert.equal(isHumanMessage({ type: 'human', event: 'agent.stop' }), true);
  assert.equal(isHumanMessage({ type: 'other' }), false);
  assert.equal(isHumanMessage('human'), false);
  assert.equal(isHumanMessage(null), false);
});

test('the side panel may send every event', () => {
  assert.deepEqual(check({ type: 'human', event: 'handoff.finish', data: { handoffId: 'h1' } }, PANEL),
    { ok: true, event: 'handoff.finish', data: { handoffId: 'h1' } });
  assert.deepEqual(check({ type: 'human', event: 'handoff.cancel', data: { handoffId: 'zz' } }, PANEL),
    { ok: true, event: 'handoff.cancel', data: { handoffId: 'zz' } }, 'the daemon judges the id');
  assert.deepEqual(check({ type: 'human', event: 'task.cancel', data: { taskId: 't1', extra: 'x' } }, PANEL),
    { ok: true, event: 'task.cancel', data: { taskId: 't1' } }, 'only the one field goes on');
  assert.deepEqual(check({ type: 'human', event: 'agent.stop', data: { anything: 1 } }, PANEL),
    { ok: true, event: 'agent.stop', data: {} });
  assert.deepEqual(check({ type: 'human', event: 'agent.stop' }, PANEL),
    { ok: true, event: 'agent.stop', data: {} });
});

test('the banner may finish or cancel only the handoff running in its own tab', () => {
  const finish = (/** @type {string} */ handoffId) => ({ type: 'human', event: 'handoff.finish', data: { handoffId } });
  assert.equal(check(finish('h1'), banner(12)).ok, true);
  assert.equal(check({ ...finish('h5'), event: 'handoff.cancel' }, banner(14)).ok, true);
  const refused = [
    [finish('h5'), banner(12), 'this handoff is not waiting in this tab'],
    [finish('h4'), banner(13), 'this handoff is not waiting in this tab'],
    [finish('h9'), banner(12), 'this handoff is not waiting in this tab'],
    [finish('h1'), banner(12, 3), 'not a message from an OpenChrome page'],
    [{ type: 'human', event: 'task.cancel', data: { taskId: 't1' } }, banner(12), 'task.cancel is for the side panel'],
    [{ type: 'human', event: 'agent.stop', data: {} }, banner(12), 'agent.stop is for the side panel'],
    [finish('h1'), { id: EXT, url: 'https://example.com/', frameId: 0 }, 'not a message from an OpenChrome page'],
  ];
  for (const [message, sender, error] of refused) {
    assert.deepEqual(check(message, /** @type {any} */ (sender)), { ok: false, error });
  }
});

test('messages from elsewhere, unknown events and bad data are refused', () => {
  const finish = { type: 'human', event: 'handoff.finish', data: { handoffId: 'h1' } };
  assert.deepEqual(check(finish, { ...PANEL, id: 'someoneelse' }), { ok: false, error: 'not a message from OpenChrome' });
  assert.deepEqual(check(finish, { ...PANEL, url: 'chrome-extension://someoneelse/sidepanel/panel.html' }),
    { ok: false, error: 'not a message from an OpenChrome page' });
  assert.deepEqual(check({ ...finish, event: 'tab.close' }, PANEL), { ok: false, error: 'unknown event "tab.close"' });
  assert.deepEqual(check({ ...finish, event: 'toString' }, PANEL), { ok: false, error: 'unknown event "toString"' });
  for (const data of [undefined, {}, { handoffId: 7 }, { handoffId: '' }, { handoffId: 'x'.repeat(201) }]) {
    assert.deepEqual(check({ ...finish, data }, PANEL), { ok: false, error: 'handoff.finish needs handoffId' });
  }
});

test('origins of snapshots', () => {
  assert.equal(originOf('https://example.com:8443/a?b#c'), 'https://example.com:8443');
  assert.equal(originOf('http://127.0.0.1:5000/'), 'http://127.0.0.1:5000');
  assert.equal(originOf('about:blank'), '');
  assert.equal(originOf('data:text/html,hi'), '');
  assert.equal(originOf('file:///tmp/a.html'), '');
  assert.equal(originOf(''), '');
  assert.equal(originOf('not a url'), '');
});
