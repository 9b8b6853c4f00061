// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import { NavigationWatch, navigationFailed } from './navigation.js';

/** @typedef {import('./navigation.js').NavigationEvent} NavigationEvent */

/**
 * Feeds events to a new watch and returns how it settled ('pending' if not).
 * @param {NavigationEvent[]} events
 * @param {string} [expectUrl]
 */
async function outcome(events, expectUrl) {
  const watch = new NavigationWatch({ expectUrl });
  for (const event of events) watch.feed(event);
  const pending = Symbol('pending');
  const got = await Promise.race([
    watch.done.then((ok) => ({ ok }), (err) => ({ err })),
    new Promise((resolve) => setImmediate(() => resolve(pending))),
  ]);
  return got === pending ? 'pending' : got;
}

const URL_A = 'http://127.0.0.1:8080/a';
const URL_B = 'http://127.0.0.1:8080/b';

test('a load completes with its HTTP status', async () => {
  assert.deepEqual(await outcome([
    { kind: 'start', url: URL_B },
    { kind: 'status', url: URL_B, status: 200 },
    { kind: 'complete', url: URL_B },
  ]), { ok: { url: URL_B, status: 200 } });
});

test('a document ready whose load event is held back is answered as still loading, when the caller says', async () => {
  let readies = 0;
  const watch = new NavigationWatch({ onReady: () => { readies++; } });
  watch.stillLoading(); // nothing to read yet: no answer
  for (const event of /** @type {NavigationEvent[]} */ ([
    { kind: 'ready', url: URL_A }, // the old page's, before ours started
    { kind: 'start', url: URL_B },
    { kind: 'status', url: URL_B, status: 200 },
  ])) watch.feed(event);
  watch.stillLoading();
  assert.equal(readies, 0);
  assert.equal(watch.settled, false, 'not before its document is ready');
  watch.feed({ kind: 'ready', url: URL_B });
  watch.feed({ kind: 'ready', url: URL_B });
  assert.equal(readies, 1, 'the caller is told once');
  watch.stillLoading();
  assert.deepEqual(await watch.done, { url: URL_B, status: 200, loading: true });
  // A load event that comes in time answers as ever.
  assert.deepEqual(await outcome([
    { kind: 'start', url: URL_B },
    { kind: 'ready', url: URL_B },
    { kind: 'complete', url: URL_B },
  ]), { ok: { url: URL_B } });
});

test('a document that drew something but is not parsed is answered as still loading, when the caller has seen it drawn', async () => {
  let commits = 0;
  const watch = new NavigationWatch({ onCommit: () => { commits++; } });
  watch.feed({ kind: 'commit', url: URL_A }); // the old page's, before ours started
  watch.stillLoading(true);
  assert.equal(watch.settled, false, 'nothing of ours committed yet');
  for (const event of /** @type {NavigationEvent[]} */ ([
    { kind: 'start', url: URL_B },
    { kind: 'status', url: URL_B, status: 200 },
    { kind: 'commit', url: URL_B },
  ])) watch.feed(event);
  assert.equal(commits, 1);
  watch.stillLoading();
  assert.equal(watch.settled, false, 'committed but not ready: only when it drew something');
  watch.stillLoading(true);
  assert.deepEqual(await watch.done, { url: URL_B, status: 200, loading: true });
});

test('the load of the page being left, called off once ours has started, is not ours failing', async () => {
  const OLD = 'doc-old';
  const watch = new NavigationWatch({ replaces: OLD });
  for (const event of /** @type {NavigationEvent[]} */ ([
    { kind: 'start', url: URL_A }, // a reload of a page still loading: the same URL
    { kind: 'error', error: 'net::ERR_ABORTED', documentId: OLD },
    { kind: 'status', url: URL_A, status: 200 },
    { kind: 'complete', url: URL_A },
  ])) watch.feed(event);
  assert.deepEqual(await watch.done, { url: URL_A, status: 200 });
  // Ours failing has no document, or another one.
  assert.equal((await outcome([
    { kind: 'start', url: URL_B },
    { kind: 'error', error: 'net::ERR_ABORTED', documentId: 'doc-new' },
  ])).err?.message, 'navigation failed: net::ERR_ABORTED');
});

test('a new tab reports its response before the navigation starts', async () => {
  // Seen in Chromium 156 for chrome.tabs.create({url}): webRequest's
  // onHeadersReceived, then webNavigation's onBeforeNavigate.
  assert.deepEqual(await outcome([
    { kind: 'status', url: URL_B, status: 200 },
    { kind: 'start', url: URL_B },
    { kind: 'complete', url: URL_B },
  ]), { ok: { url: URL_B, status: 200 } });
});

test('after a redirect the final status counts', async () => {
  assert.deepEqual(await outcome([
    { kind: 'start', url: URL_A },
    { kind: 'status', url: URL_A, status: 301 },
    { kind: 'status', url: URL_B, status: 404 },
    { kind: 'complete', url: URL_B },
  ]), { ok: { url: URL_B, status: 404 } });
});

test('a load without a response (file:, about:, bfcache) has no status', async () => {
  assert.deepEqual(await outcome([
    { kind: 'start', url: 'about:blank' },
    { kind: 'complete', url: 'about:blank' },
  ]), { ok: { url: 'about:blank' } });
});

test('the old page finishing before ours started does not answer', async () => {
  assert.equal(await outcome([
    { kind: 'status', url: URL_A, status: 500 },
    { kind: 'complete', url: URL_A },
    { kind: 'error', error: 'net::ERR_ABORTED' },
  ]), 'pending');
  // ...and its status does not leak into ours.
  assert.deepEqual(await outcome([
    { kind: 'status', url: URL_A, status: 500 },
    { kind: 'complete', url: URL_A },
    { kind: 'start', url: 'file:///tmp/x.html' },
    { kind: 'complete', url: 'file:///tmp/x.html' },
  ]), { ok: { url: 'file:///tmp/x.html' } });
});

test('a main-frame error is not_found with the net error', async () => {
  const got = await outcome([
    { kind: 'start', url: URL_B },
    { kind: 'error', error: 'net::ERR_CONNECTION_REFUSED' },
  ]);
  assert.ok(typeof got === 'object' && 'err' in got);
  assert.ok(got.err instanceof ActionError);
  assert.equal(got.err.code, 'not_found');
  assert.equal(got.err.message, 'navigation failed: net::ERR_CONNECTION_REFUSED: nothing answers at that address');
  assert.equal(got.err.hint, 'check the URL, and that the server is running');
});

test('a net error says what it means and what to do, in a code an agent can branch on', () => {
  const cases = [
    ['net::ERR_NAME_NOT_RESOLVED', 'not_found', /no such host/, /host name/],
    ['net::ERR_CONNECTION_TIMED_OUT', 'timeout', /did not answer in time/, /again/],
    ['net::ERR_INVALID_AUTH_CREDENTIALS', 'conflict', /user name and password/, /oc_handoff_start/],
    ['net::ERR_CERT_AUTHORITY_INVALID', 'conflict', /certificate is not trusted/, /only the person/],
    ['net::ERR_BLOCKED_BY_CLIENT', 'conflict', /another extension/, /allow the site/],
  ];
  for (const [error, code, why, hint] of /** @type {[string, string, RegExp, RegExp][]} */ (cases)) {
    const err = navigationFailed(error);
    assert.equal(err.code, code, error);
    assert.ok(err.message.startsWith(`navigation failed: ${error}: `), err.message);
    assert.match(err.message, why);
    assert.match(err.hint ?? '', hint);
  }
  // One not listed says its name, as Chrome does.
  const other = navigationFailed('net::ERR_HTTP2_PROTOCOL_ERROR');
  assert.deepEqual([other.code, other.message, other.hint], ['not_found', 'navigation failed: net::ERR_HTTP2_PROTOCOL_ERROR', undefined]);
});

test('a fragment navigation answers when it lands on the URL asked for', async () => {
  assert.deepEqual(await outcome([
    { kind: 'same-document', url: `${URL_A}#x` },
  ], `${URL_A}#x`), { ok: { url: `${URL_A}#x` } });
  // The page's own pushState elsewhere is not ours.
  assert.equal(await outcome([
    { kind: 'same-document', url: `${URL_A}#other` },
  ], `${URL_A}#x`), 'pending');
  // Going back or forward, any same-document landing is ours.
  assert.deepEqual(await outcome([
    { kind: 'same-document', url: URL_A },
  ]), { ok: { url: URL_A } });
});

test('a pushState during a cross-document load does not end it', async () => {
  assert.deepEqual(await outcome([
    { kind: 'start', url: URL_B },
    { kind: 'status', url: URL_B, status: 200 },
    { kind: 'same-document', url: `${URL_B}?spa` },
    { kind: 'complete', url: URL_B },
  ], URL_B), { ok: { url: URL_B, status: 200 } });
});

test('the tab closing is tab_not_found', async () => {
  const got = await outcome([{ kind: 'start', url: URL_B }, { kind: 'removed' }]);
  assert.ok(typeof got === 'object' && 'err' in got);
  assert.equal(/** @type {ActionError} */ (got.err).code, 'tab_not_found');
});

test('only the first outcome counts', async () => {
  assert.deepEqual(await outcome([
    { kind: 'start', url: URL_B },
    { kind: 'complete', url: URL_B },
    { kind: 'error', error: 'net::ERR_ABORTED' },
    { kind: 'removed' },
  ]), { ok: { url: URL_B } });
});
