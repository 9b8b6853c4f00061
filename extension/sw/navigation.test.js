// @ts-check
/// <reference types="node" />
// sw/navigation.js's begun: the wait for a navigation the page said it
// began, against webNavigation events a test fires.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, installChrome } from './testdata.js';

const beforeNavigate = event();
installChrome({ 'webNavigation.onBeforeNavigate': beforeNavigate });

/** @type {typeof import('./navigation.js')} */
const navigation = await import('./navigation.js');

const never = new AbortController().signal;

test('a navigation the browser reports after the wait began ends it', async () => {
  const since = Date.now();
  const waiting = navigation.begun(1, since, 60_000, never);
  beforeNavigate.fire({ tabId: 2, frameId: 0, url: 'http://127.0.0.1/other-tab' });
  beforeNavigate.fire({ tabId: 1, frameId: 3, url: 'http://127.0.0.1/a-frame' });
  beforeNavigate.fire({ tabId: 1, frameId: 0, url: 'http://127.0.0.1/next' });
  assert.equal(await waiting, true);
  assert.equal(navigation.startedSince(1, since), true);
});

test('a navigation begun already is no wait', async () => {
  const since = Date.now();
  beforeNavigate.fire({ tabId: 3, frameId: 0, url: 'http://127.0.0.1/next' });
  assert.equal(await navigation.begun(3, since, 60_000, never), true);
});

test('none within the time: it says so', async () => {
  beforeNavigate.fire({ tabId: 4, frameId: 0, url: 'http://127.0.0.1/before' });
  const since = Date.now() + 1; // the one before does not count
  assert.equal(await navigation.begun(4, since, 20, never), false);
});

test('an abort ends the wait', async () => {
  const stop = new AbortController();
  const waiting = navigation.begun(5, Date.now(), 60_000, stop.signal);
  stop.abort(new Error('the person pressed Stop'));
  await assert.rejects(waiting, /pressed Stop/);
});
