// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RefBook, parseRef } from './refs.js';

test('refs resolve to the document that handed them out', () => {
  const book = new RefBook();
  assert.equal(book.base(7), 1);
  book.record(7, 0, 'docA', 1, 5);
  book.record(7, 3, 'frameDoc', 5, 9);
  assert.equal(book.base(7), 9);
  assert.deepEqual(book.lookup(7, 4), { lo: 1, hi: 5, frameId: 0, documentId: 'docA' });
  assert.equal(book.lookup(7, 6)?.frameId, 3);
  assert.equal(book.lookup(7, 9), undefined);
  assert.equal(book.lookup(8, 1), undefined, 'tabs have their own books');
});

test('a ref number is never handed out twice in a tab', () => {
  const book = new RefBook();
  book.record(1, 0, 'old', 1, 10);
  book.prune(1, (r) => r.documentId !== 'old'); // the tab navigated
  assert.equal(book.base(1), 10, 'the counter survives the navigation');
  assert.equal(book.lookup(1, 3), undefined, 'an old ref names nothing');
  book.record(1, 0, 'new', 10, 12);
  assert.equal(book.lookup(1, 3), undefined);
  assert.equal(book.lookup(1, 11)?.documentId, 'new');
});

test('consecutive runs of one document merge', () => {
  const book = new RefBook();
  book.record(1, 0, 'd', 1, 3);
  book.record(1, 0, 'd', 3, 6);
  book.record(1, 0, 'd', 6, 6); // handed out nothing new
  assert.deepEqual(book.tab(1).ranges, [{ lo: 1, hi: 6, frameId: 0, documentId: 'd' }]);
});

test('the book survives a round trip through storage', () => {
  const book = new RefBook();
  book.record(4, 0, 'd', 1, 3);
  const again = RefBook.from(JSON.parse(JSON.stringify(book)));
  assert.equal(again.base(4), 3);
  assert.equal(again.lookup(4, 2)?.documentId, 'd');
  assert.equal(RefBook.from('junk').tabs.size, 0);
});

test('parseRef', () => {
  for (const [input, want] of [['e12', 12], ['12', 12], [12, 12], ['[e3]', 3], [' e4 ', 4],
    ['x1', undefined], [0, undefined], [-2, undefined], [1.5, undefined], [null, undefined], ['e', undefined]]) {
    assert.equal(parseRef(input), want, String(input));
  }
});
