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
  consoleQuery,
  globMatcher,
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

test('every console call is kept, at the level DevTools files it under', () => {
  const args = [{ type: 'string', value: 'careful' }];
  const levels = {
    warning: 'warning', error: 'error', info: 'info', debug: 'debug', log: 'log',
    dir: 'log', table: 'log', trace: 'log', startGroup: 'log',
  };
  for (const [type, level] of Object.entries(levels)) {
    assert.deepEqual(fromConsoleAPI({ type, args }), { kind: 'console', level, text: 'careful' }, type);
  }
  for (const type of ['clear', 'endGroup']) assert.equal(fromConsoleAPI({ type, args }), undefined, type);
});

test('objects and arrays show their first properties, as DevTools does', () => {
  // As Chromium reports console.log('user', {id: 7, name: 'Ada', tags: [...], next: null}, [1, 2, ...]).
  assert.equal(fromConsoleAPI({
    type: 'log',
    args: [
      { type: 'string', value: 'user' },
      {
        type: 'object', className: 'Object', description: 'Object', preview: {
          properties: [
            { name: 'id', type: 'number', value: '7' },
            { name: 'name', type: 'string', value: 'Ada' },
            { name: 'tags', type: 'object', subtype: 'array', value: 'Array(3)' },
            { name: 'next', type: 'object', subtype: 'null', value: 'null' },
          ],
        },
      },
      {
        type: 'object', subtype: 'array', className: 'Array', description: 'Array(120)', preview: {
          subtype: 'array', overflow: true,
          properties: [{ name: '0', type: 'number', value: '1' }, { name: '1', type: 'number', value: '2' }],
        },
      },
      { type: 'object', subtype: 'node', description: 'div#main', preview: { properties: [] } },
    ],
  })?.text, 'user {id: 7, name: "Ada", tags: Array(3), next: null} [1, 2, …] div#main');
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

test('Log.entryAdded keeps the browser\'s messages at their level', () => {
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
  assert.equal(fromLogEntry({ entry: { level: 'verbose', text: 'violation' } })?.level, 'debug');
  assert.equal(fromLogEntry({ entry: { level: 'info', text: 'x' } })?.level, 'info');
  assert.equal(fromLogEntry({}), undefined);
});

test('an exception is the first line of its description, with its stack', () => {
  assert.deepEqual(fromException({ exceptionDetails: {
    text: 'Uncaught',
    url: PAGE,
    lineNumber: 4,
    exception: { type: 'object', subtype: 'error', description: 'TypeError: boom\n    at f (app.js:5:3)' },
    stackTrace: { callFrames: [
      { functionName: 'f', url: PAGE, lineNumber: 4, columnNumber: 2 },
      { functionName: '', url: PAGE, lineNumber: 9, columnNumber: 0 },
    ] },
  } }), {
    kind: 'exception', level: 'error', text: 'TypeError: boom', url: PAGE, line: 5,
    stack: `at f (${PAGE}:5:3)\nat (anonymous) (${PAGE}:10:1)`,
  });
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
  } }), {
    kind: 'exception', level: 'error', text: 'Uncaught SyntaxError: Unexpected token', url: PAGE, line: 3,
    stack: `at (anonymous) (${PAGE}:3:1)`,
  });
  assert.equal(fromException({}), undefined);
});

test('consoleQuery filters by level and pattern', () => {
  const q = consoleQuery({ levels: ['error', 'warning'], pattern: 'token=*abc' });
  assert.equal(q.match({ kind: 'console', level: 'error', text: 'login failed with TOKEN=xyzabc' }), true);
  assert.equal(q.match({ kind: 'console', level: 'log', text: 'token=abc' }), false, 'a level not asked for');
  assert.equal(q.match({ kind: 'console', level: 'warning', text: 'nothing here' }), false);
  assert.equal(q.match({ kind: 'exception', level: 'error', text: 'Error', stack: 'at f (token=1abc)' }), true,
    'an exception matches by its stack too');
  assert.equal(q.match({ kind: 'navigation', url: 'http://a/', transition: 'link' }), false);
  assert.equal(consoleQuery({}).match({ kind: 'console', level: 'debug', text: 'x' }), true);
  assert.throws(() => consoleQuery({ levels: ['loud'] }), ActionError);
  assert.throws(() => consoleQuery({ pattern: 3 }), ActionError);
  assert.equal(globMatcher('a.b(c)')('xa.b(c)y'), true, 'regex characters are literal');
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
