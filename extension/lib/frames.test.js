// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import {
  DEFAULT_COMMAND_MS,
  MAX_COMMAND_MS,
  clampTimeout,
  decodeAgentFrame,
  decodeBrowserFrame,
  encodeFrame,
  errorResult,
  eventFrame,
  helloFrame,
  okResult,
} from './frames.js';
import { loadGolden } from './testdata.js';

/** @typedef {import('./testdata.js').Golden} Golden */

/**
 * @param {'agent' | 'browser'} channel
 * @param {unknown} input
 */
function decodeOn(channel, input) {
  return channel === 'agent' ? decodeAgentFrame(input) : decodeBrowserFrame(input);
}

/** @type {Golden[]} */
const frames = loadGolden('frames.json');
/** @type {Golden[]} */
const invalid = loadGolden('invalid.json');

test('the golden vectors are there', () => {
  assert.ok(frames.length >= 20);
  assert.ok(invalid.length >= 10);
});

for (const v of frames) {
  test(`golden frame round-trips: ${v.name}`, () => {
    const text = JSON.stringify(v.frame);
    // Chrome hands native messages over parsed; the tests also see text.
    for (const input of [text, JSON.parse(text)]) {
      const frame = decodeOn(v.channel, input);
      assert.deepEqual(frame, v.frame);
      const out = encodeFrame(frame, v.channel);
      assert.deepEqual(JSON.parse(out), v.frame);
      assert.ok(out.startsWith(`{"type":"${v.frame?.type}"`), `type comes first: ${out}`);
    }
  });
}

for (const v of invalid) {
  test(`invalid frame is a bad_request: ${v.name}`, () => {
    assert.throws(
      () => decodeOn(v.channel, v.raw),
      (err) => err instanceof ActionError && err.code === 'bad_request',
    );
  });
}

test('result is a call result on the agent channel, a command result on the browser one', () => {
  assert.deepEqual(decodeAgentFrame('{"type":"result","id":"c1","result":{"content":[]}}'), {
    type: 'result',
    id: 'c1',
    result: { content: [] },
  });
  assert.deepEqual(decodeBrowserFrame('{"type":"result","id":"k1","ok":true,"data":{"a":1}}'), {
    type: 'result',
    id: 'k1',
    ok: true,
    data: { a: 1 },
  });
  assert.throws(() => decodeAgentFrame('{"type":"result","id":"k1","ok":true}'), ActionError);
});

test('an unknown error code from a newer extension becomes internal', () => {
  const frame = decodeBrowserFrame(
    '{"type":"result","id":"k1","ok":false,"error":{"code":"gremlins","message":"m","hint":"h"}}',
  );
  assert.deepEqual(frame, {
    type: 'result',
    id: 'k1',
    ok: false,
    error: { code: 'internal', message: 'm (gremlins)', hint: 'h' },
  });
});

test('decoding gives the frame as Go encodes it: zero values and omitempty', () => {
  // timeoutMs has no omitempty; unknown fields are dropped.
  assert.deepEqual(decodeBrowserFrame({ type: 'command', id: 'k1', action: 'a', extra: 1 }), {
    type: 'command',
    id: 'k1',
    action: 'a',
    timeoutMs: 0,
  });
  // Empty optional fields vanish; null is the zero value.
  assert.deepEqual(
    decodeBrowserFrame({ type: 'hello', role: 'extension', version: '1', browser: '', profile: null }),
    { type: 'hello', role: 'extension', version: '1' },
  );
  // A nil slice without omitempty is null, an empty one stays empty.
  assert.deepEqual(decodeAgentFrame({ type: 'ready', version: '1' }), {
    type: 'ready',
    version: '1',
    browsers: null,
  });
  // A raw message keeps null as it came.
  assert.deepEqual(decodeBrowserFrame({ type: 'state', data: null }), { type: 'state', data: null });
  assert.deepEqual(decodeBrowserFrame({ type: 'state' }), { type: 'state', data: null });
});

test('field types are checked', () => {
  const bad = [
    { type: 'command', id: 'k1', action: 'a', timeoutMs: 1.5 },
    { type: 'command', id: 'k1', action: 'a', timeoutMs: '5' },
    { type: 'result', id: 'k1', ok: 'yes', data: {} },
    { type: 'result', id: 'k1', ok: false, error: 'boom' },
    { type: 'progress', id: 'k1', progress: '3' },
    { type: 'event', name: 5 },
    { type: 7 },
  ];
  for (const frame of bad) {
    assert.throws(() => decodeBrowserFrame(frame), ActionError, JSON.stringify(frame));
  }
  assert.throws(
    () => decodeAgentFrame({ type: 'result', id: 'c1', result: { content: [{ type: 'image', data: 'not base64!' }] } }),
    ActionError,
  );
  assert.throws(() => decodeBrowserFrame('{not json'), ActionError);
  assert.throws(() => decodeBrowserFrame(null), ActionError);
  assert.throws(() => decodeBrowserFrame('"a string"'), ActionError);
});

test('frame builders make frames that decode', () => {
  const hello = helloFrame({ version: '0.1.0', browser: 'Chromium/156', profile: 'p1' });
  assert.deepEqual(decodeBrowserFrame(hello), hello);
  assert.deepEqual(decodeBrowserFrame(okResult('k1', { a: 1 })), { type: 'result', id: 'k1', ok: true, data: { a: 1 } });
  const failed = errorResult('k2', { code: 'timeout', message: 'slow' });
  assert.deepEqual(decodeBrowserFrame(failed), failed);
  const finish = eventFrame('handoff.finish', { handoffId: 'h1' });
  assert.deepEqual(finish, { type: 'event', name: 'handoff.finish', data: { handoffId: 'h1' } });
  assert.deepEqual(decodeBrowserFrame(finish), finish);
  assert.equal(encodeFrame(finish), '{"type":"event","name":"handoff.finish","data":{"handoffId":"h1"}}');
  assert.deepEqual(decodeBrowserFrame(eventFrame('agent.stop', {})), { type: 'event', name: 'agent.stop', data: {} });
  assert.deepEqual(eventFrame('agent.stop'), { type: 'event', name: 'agent.stop' });
});

test('clampTimeout mirrors protocol.ClampTimeout', () => {
  assert.equal(clampTimeout(0), DEFAULT_COMMAND_MS);
  assert.equal(clampTimeout(-5), DEFAULT_COMMAND_MS);
  assert.equal(clampTimeout(undefined), DEFAULT_COMMAND_MS);
  assert.equal(clampTimeout(1500), 1500);
  assert.equal(clampTimeout(MAX_COMMAND_MS), MAX_COMMAND_MS);
  assert.equal(clampTimeout(MAX_COMMAND_MS + 1), MAX_COMMAND_MS);
  assert.equal(DEFAULT_COMMAND_MS, 30_000);
  assert.equal(MAX_COMMAND_MS, 600_000);
});
