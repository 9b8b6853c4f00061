// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DownloadLedger, LEDGER_CAPACITY, MATCH_MS, describe, settled } from './downloads.js';

/** A ledger on a clock the test moves. */
function ledger() {
  const clock = { t: 1000 };
  return { clock, l: new DownloadLedger({ now: () => clock.t }) };
}

test('a download is the agent tab\'s whichever comes first, the CDP event or the item', () => {
  const { l } = ledger();
  assert.equal(l.began(7, 'http://a/report.csv'), undefined);
  assert.ok(l.awaiting(7));
  assert.ok(!l.awaiting(8));
  assert.deepEqual(l.created(1, 'http://a/report.csv'), { id: 1, tabId: 7, at: 1000 });

  assert.equal(l.created(2, 'http://a/other.zip'), undefined);
  assert.deepEqual(l.began(8, 'http://a/other.zip'), { id: 2, tabId: 8, at: 1000 });
  assert.ok(!l.awaiting(7));
  assert.deepEqual(l.list().map((o) => o.id), [1, 2]);
  assert.deepEqual(l.list(8).map((o) => o.id), [2]);
});

test('a tab opened at a URL that shows a page is no download to wait for', () => {
  const { l } = ledger();
  l.began(7, 'http://a/page.html');
  l.began(7, 'http://a/report.csv');
  assert.ok(l.wasPage(7, 'http://a/page.html'));
  assert.ok(!l.wasPage(8, 'http://a/report.csv'), 'another tab\'s');
  assert.ok(l.awaiting(7), 'the report is still awaited');
  assert.ok(l.wasPage(7, 'http://a/report.csv'));
  assert.ok(!l.awaiting(7));
});

test('a redirected download matches on its final URL', () => {
  const { l } = ledger();
  l.began(7, 'http://a/final.pdf');
  assert.equal(l.created(3, 'http://a/go?to=final', 'http://a/final.pdf')?.tabId, 7);
});

test('the person\'s downloads are never the agent\'s', () => {
  const { clock, l } = ledger();
  assert.equal(l.created(1, 'http://a/theirs.csv'), undefined, 'no agent tab began it');
  assert.deepEqual(l.list(), []);
  // An agent tab downloading the same URL much later takes only its own.
  clock.t += MATCH_MS;
  l.began(7, 'http://a/theirs.csv');
  assert.deepEqual(l.list(), []);
  assert.equal(l.created(2, 'http://a/theirs.csv')?.id, 2);
  assert.deepEqual(l.list().map((o) => o.id), [2]);
});

test('one CDP event claims one download', () => {
  const { l } = ledger();
  l.began(7, 'http://a/x');
  assert.ok(l.created(1, 'http://a/x'));
  assert.equal(l.created(2, 'http://a/x'), undefined, 'the person downloading it too keeps theirs');
});

test('the ledger keeps its newest downloads, and survives a worker', () => {
  const { l } = ledger();
  for (let id = 1; id <= LEDGER_CAPACITY + 3; id++) {
    l.began(7, `http://a/${id}`);
    l.created(id, `http://a/${id}`);
  }
  assert.equal(l.list().length, LEDGER_CAPACITY);
  assert.equal(l.list()[0].id, 4);
  const again = new DownloadLedger({ saved: JSON.parse(JSON.stringify(l)) });
  assert.deepEqual(again.list(), l.list());
  again.erased(4);
  assert.equal(again.list()[0].id, 5);
});

test('describe and settled', () => {
  const item = {
    id: 4, url: 'http://a/go', finalUrl: 'http://a/r.csv', filename: '/home/p/Downloads/r.csv',
    mime: 'text/csv', state: /** @type {const} */ ('interrupted'), bytesReceived: 10, totalBytes: 100,
    error: /** @type {const} */ ('NETWORK_FAILED'), paused: false, startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:00:01Z',
  };
  const d = describe(item, 7);
  assert.deepEqual(d, {
    id: 4, tabId: 7, url: 'http://a/r.csv', name: 'r.csv', path: '/home/p/Downloads/r.csv', mimeType: 'text/csv',
    state: 'interrupted', bytes: 10, totalBytes: 100, error: 'NETWORK_FAILED',
    started: '2026-01-01T00:00:00Z', ended: '2026-01-01T00:00:01Z',
  });
  assert.equal(settled([]), false, 'nothing yet: keep waiting for one');
  assert.equal(settled([d]), true);
  assert.equal(settled([d, { ...d, state: 'in_progress' }]), false);
  assert.equal(settled([{ ...d, state: 'in_progress', paused: true }]), true, 'paused waits for the person');
});
