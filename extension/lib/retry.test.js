// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { raceSignal, sleep } from './abort.js';
import { DRAG_RETRY_DELAYS, isDragging, retry } from './retry.js';

const DRAGGING = 'Tabs cannot be edited right now (user may be dragging a tab).';

test('isDragging knows Chrome\'s refusal', () => {
  assert.ok(isDragging(new Error(DRAGGING)));
  assert.equal(isDragging(new Error('No tab with id: 4.')), false);
});

test('retry runs fn again while the user drags, then succeeds', async () => {
  /** @type {number[]} */
  const waits = [];
  let calls = 0;
  const got = await retry(async () => {
    if (++calls < 3) throw new Error(DRAGGING);
    return 'grouped';
  }, { wait: async (ms) => void waits.push(ms) });
  assert.equal(got, 'grouped');
  assert.equal(calls, 3);
  assert.deepEqual(waits, DRAG_RETRY_DELAYS.slice(0, 2));
});

test('retry gives up after its delays, with the last error', async () => {
  let calls = 0;
  await assert.rejects(
    retry(async () => {
      calls++;
      throw new Error(DRAGGING);
    }, { wait: async () => {} }),
    /dragging/,
  );
  assert.equal(calls, DRAG_RETRY_DELAYS.length + 1);
});

test('retry does not retry other errors', async () => {
  let calls = 0;
  await assert.rejects(retry(async () => {
    calls++;
    throw new Error('No group with id: 3.');
  }, { wait: async () => {} }), /No group/);
  assert.equal(calls, 1);
});

test('raceSignal rejects with the reason as soon as the signal aborts', async () => {
  const controller = new AbortController();
  const never = new Promise(() => {});
  const raced = raceSignal(never, controller.signal);
  const reason = new Error('cancelled');
  controller.abort(reason);
  await assert.rejects(raced, (err) => err === reason);
  await assert.rejects(raceSignal(Promise.resolve(1), controller.signal), (err) => err === reason);
  assert.equal(await raceSignal(Promise.resolve(2), new AbortController().signal), 2);
  assert.equal(await raceSignal(Promise.resolve(3)), 3);
});

test('sleep resolves when its time comes, or rejects at once on abort', async (t) => {
  // node's mock clock: time moves only when the test ticks it.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let done = false;
  const slept = sleep(100).then(() => {
    done = true;
  });
  t.mock.timers.tick(99);
  await Promise.resolve();
  assert.equal(done, false);
  t.mock.timers.tick(1);
  await slept;
  assert.equal(done, true);

  const controller = new AbortController();
  const aborted = sleep(10_000, controller.signal);
  controller.abort(new Error('stop'));
  // No tick: the abort alone settles it.
  await assert.rejects(aborted, /stop/);
});
