// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import {
  DEFAULT_LIMIT,
  MAX_TEXT,
  eventsQuery,
  fromCommit,
  fromConsoleAPI,
  fromException,
  fromLogEntry,
  fromRequest,
} from './evidence.js';

const PAGE = 'http://127.0.0.1:8080/app.js';

test('console.error joins its arguments and says where', () => {
  // As Chromium reports console.error('failed:', 42, {a: 1}, new Error('x')).
  assert.deepEqual(fromConsoleAPI({
    type: 'error',
    args: [
      { type: 'string', value: 'failed:' },
      { type: 'number', value: 42, description: '42' },
      { type: 'object', className: 'Object', description: 'Object' },
      { type: 'object', subtype: 'error', description: 'Error: x\n    at a.js:1:1' },
      { type: 'undefined' },
      { type: 'object', subtype: 'null', value: null },
      { type: 'number', unserializableValue: 'NaN', description: 'NaN' },
    ],
    stackTrace: { callFrames: [{ url: PAGE, lineNumber: 9 }, { url: 'other.js', lineNumber: 1 }] },
  }), {
    kind: 'console',
    level: 'error',
    text: 'failed: 42 Object Error: x\n    at a.js:1:1 undefined null NaN',
    url: PAGE,
    line: 10,
  });
});

test('console.warn is a warning; log, info and debug are not kept', () => {
  const args = [{ type: 'string', value: 'careful' }];
  assert.deepEqual(fromConsoleAPI({ type: 'warning', args }),
    { kind: 'console', level: 'warning', text: 'careful' });
  for (const type of ['log', 'info', 'debug', 'dir', 'table', 'trace']) {
    assert.equal(fromConsoleAPI({ type, args }), undefined, type);
  }
});

test('console.assert is an error', () => {
  assert.equal(fromConsoleAPI({ type: 'assert', args: [{ type: 'string', value: 'x > 0' }] })?.text,
    'Assertion failed: x > 0');
  assert.equal(fromConsoleAPI({ type: 'assert', args: [] })?.level, 'error');
});

test('text is clipped to 1000 characters', () => {
  const e = fromConsoleAPI({ type: 'error', args: [{ type: 'string', value: 'x'.repeat(5000) }] });
  assert.equal(e?.text.length, MAX_TEXT);
  assert.equal(MAX_TEXT, 1000);
});

test('Log.entryAdded keeps errors and warnings', () => {
  assert.deepEqual(fromLogEntry({ entry: {
    source: 'network', level: 'error',
    text: 'Failed to load resource: the server responded with a status of 404 (Not Found)',
    url: 'http://127.0.0.1:8080/missing.json',
  } }), {
    kind: 'console',
    level: 'error',
    text: 'Failed to load resource: the server responded with a status of 404 (Not Found)',
    url: 'http://127.0.0.1:8080/missing.json',
  });
  assert.deepEqual(fromLogEntry({ entry: { level: 'warning', text: 'deprecated', url: PAGE, lineNumber: 0 } }),
    { kind: 'console', level: 'warning', text: 'deprecated', url: PAGE, line: 1 });
  assert.equal(fromLogEntry({ entry: { level: 'verbose', text: 'violation' } }), undefined);
  assert.equal(fromLogEntry({ entry: { level: 'info', text: 'x' } }), undefined);
  assert.equal(fromLogEntry({}), undefined);
});

test('an exception is the first line of its description', () => {
  assert.deepEqual(fromException({ exceptionDetails: {
    text: 'Uncaught',
    url: PAGE,
    lineNumber: 4,
    exception: { type: 'object', subtype: 'error', description: 'TypeError: boom\n    at f (app.js:5:3)' },
  } }), { kind: 'exception', text: 'TypeError: boom', url: PAGE, line: 5 });
});

test('an exception without a description', () => {
  // throw 'plain string'
  assert.equal(fromException({ exceptionDetails: {
    text: 'Uncaught', exception: { type: 'string', value: 'plain string' },
  } })?.text, 'plain string');
  // No exception object at all.
  assert.deepEqual(fromException({ exceptionDetails: {
    text: 'Uncaught SyntaxError: Unexpected token',
    stackTrace: { callFrames: [{ url: PAGE, lineNumber: 2 }] },
  } }), { kind: 'exception', text: 'Uncaught SyntaxError: Unexpected token', url: PAGE, line: 3 });
  assert.equal(fromException({}), undefined);
});

test('a request carries no headers or body, whatever the details hold', () => {
  const details = {
    requestId: '1', tabId: 3, frameId: 0, parentFrameId: -1, timeStamp: 1,
    method: 'GET', url: 'http://127.0.0.1:8080/data.json', type: 'xmlhttprequest',
    statusCode: 200, statusLine: 'HTTP/1.0 200 OK', fromCache: false, ip: '127.0.0.1',
    responseHeaders: [{ name: 'set-cookie', value: 'secret' }],
    requestBody: { raw: [] },
  };
  assert.deepEqual(fromRequest(details), {
    kind: 'request', method: 'GET', url: 'http://127.0.0.1:8080/data.json',
    type: 'xmlhttprequest', status: 200, fromCache: false,
  });
});

test('a failed request has its error', () => {
  assert.deepEqual(fromRequest({
    method: 'POST', url: 'http://127.0.0.1:1/x', type: 'fetch', error: 'net::ERR_CONNECTION_REFUSED',
    fromCache: false,
  }), {
    kind: 'request', method: 'POST', url: 'http://127.0.0.1:1/x', type: 'fetch',
    error: 'net::ERR_CONNECTION_REFUSED', fromCache: false,
  });
});

test('file: requests have no status', () => {
  assert.equal(fromRequest({ method: 'GET', url: 'file:///a.html', type: 'main_frame', statusCode: 200 }).status,
    undefined);
});

test('main-frame commits are navigations', () => {
  assert.deepEqual(fromCommit({ frameId: 0, url: 'http://a.test/', transitionType: 'link' }),
    { kind: 'navigation', url: 'http://a.test/', transition: 'link' });
  assert.equal(fromCommit({ frameId: 3, url: 'http://a.test/frame', transitionType: 'auto_subframe' }), undefined);
});

test('eventsQuery defaults and limits', () => {
  assert.deepEqual(eventsQuery({}), { since: 0, kinds: undefined, limit: DEFAULT_LIMIT });
  assert.deepEqual(eventsQuery({ since: 7, limit: 500, kinds: ['console', 'request'] }),
    { since: 7, kinds: new Set(['console', 'request']), limit: 500 });
  assert.equal(eventsQuery({ kinds: [] }).kinds, undefined);
  assert.equal(eventsQuery({ kinds: null }).kinds, undefined);
  for (const params of [
    { limit: 0 }, { limit: 501 }, { since: -1 }, { since: 1.5 },
    { kinds: 'console' }, { kinds: ['console', 'headers'] }, { kinds: [1] },
  ]) {
    assert.throws(() => eventsQuery(params),
      (err) => err instanceof ActionError && err.code === 'bad_request', JSON.stringify(params));
  }
});
