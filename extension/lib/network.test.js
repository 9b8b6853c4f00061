// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import { MAX_BODY, NetworkLog, bodyPart, networkQuery } from './network.js';

/** A log on a clock that reads 1000, 1001, ... */
function log(capacity = 500) {
  let t = 1000;
  return new NetworkLog({ capacity, now: () => t++ });
}

test('a request from sent to finished', () => {
  const n = log();
  n.sent({ requestId: 'r1', request: { url: 'http://a.test/data.json', method: 'GET' }, type: 'Fetch', timestamp: 10 });
  assert.deepEqual(n.list().requests, [{ id: 1, method: 'GET', url: 'http://a.test/data.json', type: 'Fetch', state: 'pending', ts: 1000 }]);
  n.responded({ requestId: 'r1', type: 'Fetch', response: { status: 200, statusText: 'OK', mimeType: 'application/json',
    headers: { 'content-type': 'application/json', 'set-cookie': 'session=secret' } } });
  n.finished({ requestId: 'r1', timestamp: 10.25, encodedDataLength: 321 });
  assert.deepEqual(n.list().requests, [{
    id: 1, method: 'GET', url: 'http://a.test/data.json', type: 'Fetch', state: 'done', status: 200, statusText: 'OK',
    mimeType: 'application/json', size: 321, ms: 250, ts: 1000,
  }], 'the list holds no headers');
  assert.equal(n.get(1)?.responseHeaders?.['set-cookie'], 'session=secret', 'the detail has the response headers, for the host to redact');
  assert.equal(n.get(1)?.requestId, 'r1');
  assert.equal(n.get(1)?.sessionId, undefined, 'the tab\'s own');

  n.sent({ requestId: 'f1', request: { url: 'http://pay.test/config', method: 'GET' }, type: 'Fetch' }, 'frame-session');
  assert.equal(n.get(2)?.sessionId, 'frame-session', 'a cross-site frame\'s: its body is asked of its session');
  assert.equal(n.list().requests[1].url, 'http://pay.test/config');
  assert.equal('sessionId' in n.list().requests[1], false, 'the list does not say it');
});

test('failures, cache hits and redirects', () => {
  const n = log();
  n.sent({ requestId: 'a', request: { url: 'http://127.0.0.1:1/x', method: 'POST' }, type: 'XHR', timestamp: 1 });
  n.failed({ requestId: 'a', timestamp: 1.1, errorText: 'net::ERR_CONNECTION_REFUSED' });
  n.sent({ requestId: 'b', request: { url: 'http://a.test/old', method: 'GET' }, type: 'Document', timestamp: 2 });
  n.sent({ requestId: 'b', request: { url: 'http://a.test/new', method: 'GET' }, type: 'Document', timestamp: 2.1,
    redirectResponse: { status: 301, statusText: 'Moved' } });
  n.cached({ requestId: 'b' });
  n.finished({ requestId: 'b', timestamp: 2.2 });
  n.sent({ requestId: 'c', request: { url: 'http://a.test/slow', method: 'GET' }, type: 'Image' });
  n.failed({ requestId: 'c', canceled: true });
  const [refused, old, moved, canceled] = n.list().requests;
  assert.equal(refused.state, 'failed');
  assert.equal(refused.error, 'net::ERR_CONNECTION_REFUSED');
  assert.equal(old.status, 301, 'the hop before a redirect ends with it');
  assert.equal(old.state, 'done');
  assert.equal(moved.url, 'http://a.test/new');
  assert.equal(moved.fromCache, true);
  assert.equal(canceled.error, 'canceled');
  n.finished({ requestId: 'nobody' }); // unknown ids are ignored
});

test('filters, cursor and what was dropped', () => {
  const n = log(3);
  /** @param {string} id @param {string} url */
  const send = (id, url, method = 'GET', type = 'Fetch') => n.sent({ requestId: id, request: { url, method }, type });
  send('1', 'http://a.test/api/one');
  send('2', 'http://a.test/img.png', 'GET', 'Image');
  n.responded({ requestId: '2', response: { status: 404 } });
  n.finished({ requestId: '2' });
  send('3', 'http://a.test/api/two', 'POST');
  n.failed({ requestId: '3', errorText: 'net::ERR_FAILED' });
  assert.deepEqual(n.list({ filter: { url: '/api/*' } }).requests.map((r) => r.id), [1, 3]);
  assert.deepEqual(n.list({ filter: { method: 'post' } }).requests.map((r) => r.id), [3]);
  assert.deepEqual(n.list({ filter: { status: 404 } }).requests.map((r) => r.id), [2]);
  assert.deepEqual(n.list({ filter: { type: 'image' } }).requests.map((r) => r.id), [2]);
  assert.deepEqual(n.list({ filter: { failed: true } }).requests.map((r) => r.id), [3]);
  assert.deepEqual(n.list({ filter: { failed: false } }).requests.map((r) => r.id), [1, 2]);
  const first = n.list({ limit: 2 });
  assert.deepEqual(first.requests.map((r) => r.id), [1, 2]);
  assert.equal(first.next, 3);
  send('4', 'http://a.test/four');
  const more = n.list({ since: first.next });
  assert.deepEqual(more.requests.map((r) => r.id), [3, 4]);
  assert.equal(more.next, 5);
  assert.equal(n.list({ since: 1 }).dropped, 1, 'the oldest went to make room');
  assert.equal(n.get(1), undefined);
});

test('networkQuery reads and checks its params', () => {
  assert.deepEqual(networkQuery({}), { since: 0, limit: 100, filter: {} });
  assert.deepEqual(networkQuery({ since: 3, limit: 10, filter: { url: '/api', method: 'GET', status: 404, type: 'Fetch', failed: false } }),
    { since: 3, limit: 10, filter: { url: '/api', method: 'GET', status: 404, type: 'Fetch', failed: false } });
  for (const bad of [{ filter: [] }, { filter: { failed: 'yes' } }, { filter: { status: 1000 } }, { limit: 0 }]) {
    assert.throws(() => networkQuery(bad), ActionError, JSON.stringify(bad));
  }
});

test('activity counts what an action may be waiting on, from a time on', () => {
  const n = log();
  n.sent({ requestId: 'old', request: { url: 'http://a.test/poll', method: 'GET' }, type: 'XHR' }); // ts 1000
  const since = 1001;
  assert.deepEqual(n.activity(since), { pending: 0, sent: 0, lastEnded: 0 }, 'one sent before it does not count');
  n.sent({ requestId: 'img', request: { url: 'http://a.test/a.png', method: 'GET' }, type: 'Image' }); // 1001
  n.sent({ requestId: 'es', request: { url: 'http://a.test/stream', method: 'GET' }, type: 'EventSource' }); // 1002
  assert.deepEqual(n.activity(since), { pending: 0, sent: 0, lastEnded: 0 }, 'nor images and streams');
  n.sent({ requestId: 'api', request: { url: 'http://a.test/api', method: 'POST' }, type: 'Fetch' }); // 1003
  assert.deepEqual(n.activity(since), { pending: 1, sent: 1, lastEnded: 0 });
  n.finished({ requestId: 'api' }); // ended 1004
  assert.deepEqual(n.activity(since), { pending: 0, sent: 1, lastEnded: 1004 });
  n.sent({ requestId: 'mod', request: { url: 'http://a.test/m.js', method: 'GET' }, type: 'Script' }); // 1005
  n.failed({ requestId: 'mod', errorText: 'net::ERR_FAILED' }); // 1006
  assert.deepEqual(n.activity(since), { pending: 0, sent: 2, lastEnded: 1006 }, 'a failure ends one too');
  assert.equal(n.list().requests.some((r) => 'ended' in r), false, 'the list does not show when it ended');
});

test('failedSince: what an action sent that the server refused or the network failed', () => {
  const n = log();
  /**
   * @param {string} id
   * @param {string} type
   * @param {number} [status]
   */
  const answered = (id, type, status) => {
    n.sent({ requestId: id, request: { url: `http://a.test/${id}`, method: 'POST' }, type });
    if (status) n.responded({ requestId: id, response: { status, statusText: status >= 500 ? 'Internal Server Error' : '' } });
  };
  answered('before', 'Fetch', 500); // ts 1000
  n.finished({ requestId: 'before' });
  n.sent({ requestId: 'poll-1', request: { url: 'http://a.test/poll?n=1', method: 'GET' }, type: 'XHR' });
  n.failed({ requestId: 'poll-1', errorText: 'net::ERR_CONNECTION_REFUSED' });
  const since = n.now();
  n.sent({ requestId: 'poll-2', request: { url: 'http://a.test/poll?n=2', method: 'GET' }, type: 'XHR' });
  n.failed({ requestId: 'poll-2', errorText: 'net::ERR_CONNECTION_REFUSED' }); // fails on its own: not the action's
  answered('ok', 'Fetch', 200);
  n.finished({ requestId: 'ok' });
  answered('save', 'XHR', 500);
  n.finished({ requestId: 'save' });
  answered('img', 'Image', 404);
  n.finished({ requestId: 'img' });
  answered('down', 'Fetch');
  n.failed({ requestId: 'down', errorText: 'net::ERR_CONNECTION_REFUSED' });
  answered('typed-on', 'Fetch');
  n.failed({ requestId: 'typed-on', canceled: true });
  answered('ad', 'XHR');
  n.failed({ requestId: 'ad', errorText: 'net::ERR_BLOCKED_BY_CLIENT' });
  answered('widget', 'Script', 404);
  n.finished({ requestId: 'widget' });
  answered('pending', 'Fetch', 404);
  assert.deepEqual(n.failedSince(since), [
    { method: 'POST', url: 'http://a.test/save', status: 500, error: 'Internal Server Error' },
    { method: 'POST', url: 'http://a.test/down', error: 'net::ERR_CONNECTION_REFUSED' },
  ]);
  n.finished({ requestId: 'pending' });
  assert.deepEqual(n.failedSince(since, 2).map((r) => r.url), ['http://a.test/save', 'http://a.test/down'], 'at most limit, oldest first');
  assert.deepEqual(n.failedSince(since).map((r) => r.status), [500, undefined, 404]);

  // The agent saves again: the same refusal, the action's again, not the page's own.
  const again = n.now();
  answered('save', 'XHR', 500);
  n.finished({ requestId: 'save' });
  assert.deepEqual(n.failedSince(again).map((r) => r.url), ['http://a.test/save']);
});

test('a long body is read in parts, each saying where the next begins', () => {
  const text = 'a'.repeat(MAX_BODY) + 'b'.repeat(MAX_BODY) + 'c'.repeat(10);
  const first = bodyPart(text, 0);
  assert.deepEqual({ ...first, text: first.text.length }, { text: MAX_BODY, truncated: text.length, next: MAX_BODY });
  const second = bodyPart(text, /** @type {number} */ (first.next));
  assert.equal(second.text, 'b'.repeat(MAX_BODY));
  assert.equal(second.offset, MAX_BODY);
  const last = bodyPart(text, /** @type {number} */ (second.next));
  assert.deepEqual(last, { text: 'c'.repeat(10), truncated: text.length, offset: 2 * MAX_BODY });
});
