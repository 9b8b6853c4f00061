// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { KEPT, RefBook, parseRef, without } from './refs.js';

test('refs resolve to the document that handed them out', () => {
  const book = new RefBook();
  book.enter(7, 'docA');
  assert.deepEqual(book.plan(7), { base: 1, skip: [] });
  book.record(7, 0, 'docA', 1, 5);
  book.record(7, 3, 'frameDoc', 5, 9);
  assert.equal(book.plan(7).base, 9);
  assert.deepEqual(book.lookup(7, 4), { lo: 1, hi: 5, frameId: 0, documentId: 'docA', page: 1 });
  assert.equal(book.lookup(7, 6)?.frameId, 3);
  assert.equal(book.lookup(7, 9), undefined);
  assert.equal(book.lookup(8, 1), undefined, 'tabs have their own books');
});

test('a new page counts from 1 again, passing over what the kept pages handed out', () => {
  const book = new RefBook();
  book.enter(1, 'p1');
  book.record(1, 0, 'p1', 1, 101);
  book.enter(1, 'p1'); // the same document: no new page
  assert.equal(book.plan(1).base, 101);

  book.enter(1, 'p2');
  const plan = book.plan(1);
  assert.deepEqual(plan, { base: 1, skip: [[1, 101]] });
  // The page passed over 1..100 and handed out 101..150.
  book.record(1, 0, 'p2', 1, 151, plan.skip);
  assert.equal(book.lookup(1, 50)?.documentId, 'p1', 'an old ref still names its own, gone, document');
  assert.equal(book.lookup(1, 120)?.documentId, 'p2');

  book.enter(1, 'p3');
  book.record(1, 0, 'p3', 1, 171, book.plan(1).skip);
  book.enter(1, 'p4');
  book.record(1, 0, 'p4', 1, 191, book.plan(1).skip);
  assert.equal(book.lookup(1, 50)?.documentId, 'p1', 'p1 to p4 are kept');

  // p5: p1 is now more than KEPT pages back, and its numbers are free again.
  book.enter(1, 'p5');
  assert.deepEqual(book.plan(1), { base: 1, skip: [[101, 191]] });
  book.record(1, 0, 'p5', 1, 210, [[101, 191]]); // handed out 1..100, then 191..209
  assert.equal(book.lookup(1, 50)?.documentId, 'p5');
  assert.equal(book.lookup(1, 150)?.documentId, 'p2', 'a kept page keeps its numbers');
  assert.equal(book.lookup(1, 160)?.documentId, 'p3');
  assert.equal(book.lookup(1, 195)?.documentId, 'p5');
  assert.equal(book.lookup(1, 120)?.documentId, 'p2', 'p5 passed over the kept pages');
  assert.ok(book.handedOut(1, 150));
  assert.ok(!book.handedOut(1, 500));
  assert.equal(KEPT, 3);
});

test('a document that counts past the plan books only what it handed out', () => {
  const book = new RefBook();
  book.enter(1, 'a');
  book.record(1, 0, 'a', 1, 40);
  book.enter(1, 'b');
  book.record(1, 0, 'b', 1, 60, [[1, 40]]);
  // a comes back from the back-forward cache with its own counter at 40;
  // b's numbers are in its way, and it hands out 60..64.
  book.enter(1, 'a');
  const { skip } = book.plan(1);
  assert.deepEqual(skip, [[1, 60]]);
  book.record(1, 0, 'a', 40, 65, skip);
  assert.equal(book.lookup(1, 62)?.documentId, 'a');
  assert.equal(book.lookup(1, 10)?.documentId, 'a', 'its first refs still name it');
  assert.equal(book.lookup(1, 50)?.documentId, 'b');
});

test('without takes runs out of a span', () => {
  assert.deepEqual(without(1, 10, []), [[1, 10]]);
  assert.deepEqual(without(1, 10, [[3, 5], [7, 8]]), [[1, 3], [5, 7], [8, 10]]);
  assert.deepEqual(without(4, 10, [[1, 6]]), [[6, 10]]);
  assert.deepEqual(without(1, 5, [[5, 9]]), [[1, 5]]);
  assert.deepEqual(without(3, 3, [[1, 2]]), []);
});

test('consecutive runs of one document merge', () => {
  const book = new RefBook();
  book.enter(1, 'd');
  book.record(1, 0, 'd', 1, 3);
  book.record(1, 0, 'd', 3, 6);
  book.record(1, 0, 'd', 6, 6); // handed out nothing new
  assert.deepEqual(book.tab(1).ranges, [{ lo: 1, hi: 6, frameId: 0, documentId: 'd', page: 1 }]);
});

test('the book survives a round trip through storage', () => {
  const book = new RefBook();
  book.enter(4, 'd');
  book.record(4, 0, 'd', 1, 3);
  const again = RefBook.from(JSON.parse(JSON.stringify(book)));
  assert.equal(again.plan(4).base, 3);
  assert.equal(again.lookup(4, 2)?.documentId, 'd');
  again.enter(4, 'd');
  assert.equal(again.plan(4).base, 3, 'the page it was on is still its page');
  assert.equal(RefBook.from('junk').tabs.size, 0);
  assert.equal(RefBook.from({ 4: { next: 3, ranges: [] } }).tabs.size, 0, 'a book of an older version is dropped');
});

test('parseRef', () => {
  for (const [input, want] of [['e12', 12], ['12', 12], [12, 12], ['[e3]', 3], [' e4 ', 4], ['ref=e5', 5], ['[ref=e6]', 6],
    ['x1', undefined], [0, undefined], [-2, undefined], [1.5, undefined], [null, undefined], ['e', undefined]]) {
    assert.equal(parseRef(input), want, String(input));
  }
});
