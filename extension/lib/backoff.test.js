// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Backoff } from './backoff.js';

test('delays start at 100 ms, double, and stop at 5 s', () => {
  const b = new Backoff();
  const delays = [];
  let now = 0;
  for (let i = 0; i < 9; i++) {
    b.connected(now);
    now += 10; // the host dies at once
    delays.push(b.disconnected(now));
  }
  assert.deepEqual(delays, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
});

test('a connection that stayed up 5 s resets the schedule', () => {
  const b = new Backoff();
  b.connected(0);
  b.disconnected(10);
  b.connected(100);
  assert.equal(b.disconnected(110), 200);
  b.connected(1_000);
  assert.equal(b.disconnected(6_000), 100, 'up exactly 5 s');
  b.connected(7_000);
  assert.equal(b.disconnected(7_010), 200);
});

test('a connection that never opened does not reset it', () => {
  const b = new Backoff();
  assert.equal(b.disconnected(0), 100);
  assert.equal(b.disconnected(60_000), 200);
});

test('options change the schedule', () => {
  const b = new Backoff({ initialMs: 10, maxMs: 25, stableMs: 50 });
  assert.deepEqual([b.disconnected(0), b.disconnected(0), b.disconnected(0)], [10, 20, 25]);
  b.connected(0);
  assert.equal(b.disconnected(50), 10);
});
