// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError, CODES, isCode, oneLine, toWireError } from './errors.js';
import { loadGolden } from './testdata.js';

test('the code list is protocol/testdata/codes.json, in order', () => {
  assert.deepEqual([...CODES], loadGolden('codes.json'));
});

test('isCode knows the list and nothing else', () => {
  for (const code of CODES) assert.ok(isCode(code), code);
  assert.equal(isCode('gremlins'), false);
  assert.equal(isCode(undefined), false);
});

test('an ActionError keeps its code, message and hint on the wire', () => {
  const err = new ActionError('stale_ref', 'ref e5 is gone', 'call read_page for fresh refs');
  assert.deepEqual(toWireError(err), {
    code: 'stale_ref',
    message: 'ref e5 is gone',
    hint: 'call read_page for fresh refs',
  });
});

test('an ActionError without a hint has no hint field', () => {
  assert.deepEqual(toWireError(new ActionError('timeout', 'too slow')), {
    code: 'timeout',
    message: 'too slow',
  });
});

test('an ActionError with an unknown code is internal', () => {
  const err = new ActionError(/** @type {any} */ ('gremlins'), 'm');
  assert.equal(toWireError(err).code, 'internal');
});

test('any other throw is internal, one line', () => {
  assert.deepEqual(toWireError(new Error('No tab with id: 5.\n  at x')), {
    code: 'internal',
    message: 'internal error: No tab with id: 5.',
  });
  assert.deepEqual(toWireError('plain string'), {
    code: 'internal',
    message: 'internal error: plain string',
  });
  assert.deepEqual(toWireError(new TypeError('')), {
    code: 'internal',
    message: 'internal error',
  });
  assert.ok(toWireError(new Error('x'.repeat(1000))).message.length < 400);
});

test('oneLine takes the first non-empty line', () => {
  assert.equal(oneLine('\n  Error: boom \n    at <anonymous>:1:7'), 'Error: boom');
  assert.equal(oneLine(''), '');
});
