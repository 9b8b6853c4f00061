// @ts-check
/// <reference types="node" />
// sw/frame-navigation.js against stand-in webNavigation events: where a
// tab's frames went since an input, waited for as the browser reports it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, installChrome } from './testdata.js';

const nav = {
  onBeforeNavigate: event(),
  onCommitted: event(),
  onErrorOccurred: event(),
};
installChrome({
  'webNavigation.onBeforeNavigate': nav.onBeforeNavigate,
  'webNavigation.onCommitted': nav.onCommitted,
  'webNavigation.onErrorOccurred': nav.onErrorOccurred,
  'tabs.onRemoved': event(),
});

/** @type {typeof import('./frame-navigation.js')} */
const frames = await import('./frame-navigation.js');

const signal = new AbortController().signal;

/** @param {number} tabId @param {number} frameId @param {string} url */
function begins(tabId, frameId, url) {
  nav.onBeforeNavigate.fire({ tabId, frameId, parentFrameId: 0, url });
}

test('a frame that began to navigate is said once it committed, with where it went', async () => {
  const since = Date.now();
  begins(1, 5, 'http://b/list');
  const went = frames.navigatedSince(1, since, { beginMs: 0, endMs: 5000, signal });
  nav.onCommitted.fire({ tabId: 1, frameId: 5, url: 'http://b/list?redirected' });
  assert.deepEqual((await went).map((n) => [n.frameId, n.url]), [[5, 'http://b/list?redirected']]);
});

test('a navigation called off (a download) left its frame where it was', async () => {
  const since = Date.now();
  begins(2, 5, 'http://b/file.zip');
  nav.onErrorOccurred.fire({ tabId: 2, frameId: 5, error: 'net::ERR_ABORTED' });
  assert.deepEqual(await frames.navigatedSince(2, since, { beginMs: 0, endMs: 5000, signal }), []);
});

test("another frame's navigation is not the element's frame's", async () => {
  const since = Date.now();
  begins(3, 7, 'http://ads/next');
  nav.onCommitted.fire({ tabId: 3, frameId: 7, url: 'http://ads/next' });
  assert.deepEqual(await frames.navigatedSince(3, since, { frameId: 5, beginMs: 0, endMs: 5000, signal }), []);
  assert.equal((await frames.navigatedSince(3, since, { beginMs: 0, endMs: 5000, signal })).length, 1, 'any frame when none is named');
});

test('a navigation the page said it began is waited for until the browser tells of it', async () => {
  const since = Date.now();
  const went = frames.navigatedSince(4, since, { frameId: 5, beginMs: 5000, endMs: 5000, signal });
  begins(4, 5, 'http://b/next');
  nav.onCommitted.fire({ tabId: 4, frameId: 5, url: 'http://b/next' });
  assert.deepEqual((await went).map((n) => n.url), ['http://b/next']);
});

test('the main frame is not a frame of the page', async () => {
  const since = Date.now();
  nav.onBeforeNavigate.fire({ tabId: 6, frameId: 0, parentFrameId: -1, url: 'http://a/' });
  assert.deepEqual(await frames.navigatedSince(6, since, { beginMs: 0, endMs: 5000, signal }), []);
});
