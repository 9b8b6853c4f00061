// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RING_CAPACITY, Ring } from './ring.js';

/** @typedef {{ kind: string, n: number }} Item */

/**
 * A ring of small capacity holding count entries, kinds alternating a/b,
 * whose ts is the entry's number times 10.
 * @param {number} count
 * @param {number} [capacity]
 * @returns {Ring<Item>}
 */
function filled(count, capacity = 5) {
  let clock = 0;
  /** @type {Ring<Item>} */
  const ring = new Ring({ capacity, now: () => (clock += 10) });
  for (let n = 1; n <= count; n++) ring.push({ kind: n % 2 ? 'a' : 'b', n });
  return ring;
}

/** @param {{ events: Array<{ seq: number }> }} page */
const seqs = (page) => page.events.map((e) => e.seq);

test('entries are numbered from 1 and stamped', () => {
  const ring = filled(2);
  assert.deepEqual(ring.read(), {
    events: [
      { kind: 'a', n: 1, seq: 1, ts: 10 },
      { kind: 'b', n: 2, seq: 2, ts: 20 },
    ],
    next: 3,
    dropped: 0,
  });
});

test('the default capacity is 500', () => {
  const ring = new Ring();
  for (let i = 0; i < 501; i++) ring.push({ kind: 'a' });
  assert.equal(RING_CAPACITY, 500);
  assert.equal(ring.size, 500);
  assert.equal(ring.read().events[0].seq, 2);
});

test('an empty ring', () => {
  assert.deepEqual(new Ring().read({ since: 0 }), { events: [], next: 1, dropped: 0 });
  assert.deepEqual(new Ring().read({ since: 1 }), { events: [], next: 1, dropped: 0 });
});

test('reading from next sees each entry once', () => {
  const ring = filled(3);
  const first = ring.read();
  assert.deepEqual(seqs(first), [1, 2, 3]);
  assert.deepEqual(ring.read({ since: first.next }), { events: [], next: 4, dropped: 0 });
  ring.push({ kind: 'a', n: 4 });
  const second = ring.read({ since: first.next });
  assert.deepEqual(seqs(second), [4]);
  assert.equal(second.next, 5);
});

test('the oldest entries are dropped and counted', () => {
  const ring = filled(8); // keeps 4..8
  assert.equal(ring.size, 5);
  const all = ring.read();
  assert.deepEqual(seqs(all), [4, 5, 6, 7, 8]);
  assert.equal(all.dropped, 3);
  assert.equal(ring.read({ since: 2 }).dropped, 2);
  assert.equal(ring.read({ since: 4 }).dropped, 0);
  assert.equal(ring.read({ since: 7 }).dropped, 0);
});

test('limit stops early and next resumes there', () => {
  const ring = filled(5);
  const page = ring.read({ limit: 2 });
  assert.deepEqual(seqs(page), [1, 2]);
  assert.equal(page.next, 3);
  const rest = ring.read({ since: page.next, limit: 2 });
  assert.deepEqual(seqs(rest), [3, 4]);
  assert.deepEqual(seqs(ring.read({ since: rest.next, limit: 2 })), [5]);
});

test('kinds filter, and next skips what does not match', () => {
  const ring = filled(5); // a b a b a
  const page = ring.read({ kinds: new Set(['b']) });
  assert.deepEqual(seqs(page), [2, 4]);
  assert.equal(page.next, 6);
  const limited = ring.read({ kinds: new Set(['a']), limit: 1 });
  assert.deepEqual(seqs(limited), [1]);
  assert.equal(limited.next, 3);
});

test('a since beyond the newest entry starts over', () => {
  // A reader that kept its since across a service worker restart.
  const ring = filled(2);
  const page = ring.read({ since: 900 });
  assert.deepEqual(seqs(page), [1, 2]);
  assert.equal(page.next, 3);
  // since equal to next is the reader being up to date, not a restart.
  assert.deepEqual(seqs(ring.read({ since: 3 })), []);
});

test('a restart with drops reports them', () => {
  const ring = filled(8);
  assert.equal(ring.read({ since: 900 }).dropped, 3);
});
