// @ts-check
/// <reference types="node" />

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  KEEP_ANSWER_MS,
  checkAnswer,
  isFeedbackMessage,
  newRecord,
  parseRequest,
  reconcile,
  rectFromCorners,
  resultOf,
  takeUp,
  timedOut,
  toImagePixels,
} from './feedback.js';

const ID = 'pmdndpcaaogpfkegdbdkbpfpldaklhac';
const PANEL = { id: ID, url: `chrome-extension://${ID}/sidepanel/panel.html` };
const PAGE = { id: ID, url: 'http://127.0.0.1/form.html', frameId: 0, tab: { id: 4 } };
const REQ = '0123456789abcdef';

/**
 * @param {Partial<import('./feedback.js').Question>} over
 * @returns {import('./feedback.js').Question}
 */
function record(over = {}) {
  return {
    id: REQ, tabId: 4, mode: 'confirm', prompt: 'Deploy?', options: [], deadline: 10_000,
    place: 'overlay', status: 'pending', ...over,
  };
}

/** @param {Record<string, unknown>} answer */
const msg = (answer) => ({ type: 'feedback', requestId: REQ, answer });

test('a request reads its params', () => {
  const req = parseRequest({
    requestId: REQ, mode: 'choose', prompt: ' Which plan? ', timeoutMs: 5000, tabId: 4,
    options: [{ label: 'Pro', value: 'pro' }, { label: 'Free', value: 'free' }],
  });
  assert.deepEqual(req, {
    requestId: REQ, mode: 'choose', prompt: 'Which plan?', timeoutMs: 5000,
    options: [{ label: 'Pro', value: 'pro' }, { label: 'Free', value: 'free' }],
  });
  assert.deepEqual(newRecord(req, 4, 1000), {
    id: REQ, tabId: 4, mode: 'choose', prompt: 'Which plan?', options: req.options, deadline: 6000,
    place: 'overlay', status: 'pending',
  });
});

test('a bad request is refused', () => {
  const good = { requestId: REQ, mode: 'confirm', prompt: 'ok?', timeoutMs: 1000 };
  for (const [name, params] of /** @type {Array<[string, Record<string, unknown>]>} */ ([
    ['no id', { ...good, requestId: 'x' }],
    ['an unknown mode', { ...good, mode: 'guess' }],
    ['no prompt', { ...good, prompt: ' ' }],
    ['no timeout', { ...good, timeoutMs: undefined }],
    ['options to confirm', { ...good, options: [{ label: 'A', value: 'a' }] }],
    ['choose without options', { ...good, mode: 'choose' }],
    ['an option without a value', { ...good, mode: 'choose', options: [{ label: 'A' }] }],
  ])) {
    assert.throws(() => parseRequest(params), { code: 'bad_request' }, name);
  }
});

test('who may answer what', () => {
  const cases = [
    // [name, record, sender, answer, ok?]
    ['the overlay confirms', record(), PAGE, { kind: 'confirm' }, true],
    ['the panel confirms', record(), PANEL, { kind: 'confirm' }, true],
    ['the panel skips a marking question', record({ mode: 'point' }), PANEL, { dismissed: true }, true],
    ['the panel cannot point on a page that shows the overlay', record({ mode: 'point' }), PANEL, { kind: 'point', x: 1, y: 2 }, false],
    ['the panel points on its screenshot', record({ mode: 'point', place: 'panel' }), PANEL, { kind: 'point', x: 1, y: 2 }, true],
    ['another tab cannot answer', record(), { ...PAGE, tab: { id: 5 } }, { kind: 'confirm' }, false],
    ['a subframe cannot answer', record(), { ...PAGE, frameId: 3 }, { kind: 'confirm' }, false],
    ['a page cannot answer a question shown in the panel', record({ place: 'panel' }), PAGE, { kind: 'confirm' }, false],
    ['another extension cannot answer', record(), { ...PANEL, id: 'other' }, { kind: 'confirm' }, false],
    ['an answered question takes no more', record({ status: 'answered' }), PAGE, { kind: 'confirm' }, false],
    ['a choice must be an option', record({ mode: 'choose', options: [{ label: 'A', value: 'a' }] }), PAGE, { kind: 'choice', value: 'b' }, false],
    ['a region too small is none', record({ mode: 'region' }), PAGE, { kind: 'region', rect: { x: 0, y: 0, width: 2, height: 90 } }, false],
    ['a note needs its spot on the page', record({ mode: 'comment' }), PAGE, { kind: 'comment', text: 'hi' }, false],
    ['a note on the panel may have none', record({ mode: 'comment', place: 'panel' }), PANEL, { kind: 'comment', text: 'hi' }, true],
    ['an empty note is none', record({ mode: 'comment' }), PAGE, { kind: 'comment', text: ' ', x: 1, y: 1 }, false],
  ];
  for (const [name, rec, sender, answer, ok] of /** @type {Array<[string, any, any, any, boolean]>} */ (cases)) {
    const v = checkAnswer(msg(answer), sender, { extensionId: ID, record: rec });
    assert.equal(v.ok, ok, `${name}: ${JSON.stringify(v)}`);
  }
  assert.equal(checkAnswer(msg({ kind: 'confirm' }), PAGE, { extensionId: ID, record: undefined }).ok, false, 'an unknown question');
});

test('each mode\'s result', () => {
  const mark = { ref: 12, role: 'button', name: 'Save', selector: '#save', text: 'Save' };
  const opts = [{ label: 'Pro', value: 'pro' }];
  const cases = [
    ['confirm', record(), { kind: 'confirm' }, [], { kind: 'confirm', value: true }],
    ['choose', record({ mode: 'choose', options: opts }), { kind: 'choice', value: 'pro' }, [], { kind: 'choice', value: 'pro', label: 'Pro' }],
    ['point', record({ mode: 'point' }), { kind: 'point', x: 10.456, y: 20 }, [mark], { kind: 'point', x: 10.46, y: 20, ref: 12 }],
    ['element', record({ mode: 'element' }), { kind: 'element', x: 1, y: 2 }, [mark], { kind: 'element', ...mark }],
    ['region', record({ mode: 'region' }), { kind: 'region', rect: { x: 0, y: 0, width: 50, height: 40 } }, [mark, null, { ...mark, ref: 13 }],
      { kind: 'region', rect: { x: 0, y: 0, width: 50, height: 40 }, refs: [12, 13] }],
    ['comment', record({ mode: 'comment' }), { kind: 'comment', x: 5, y: 6, text: ' too small ' }, [mark],
      { kind: 'comment', text: 'too small', x: 5, y: 6, ref: 12 }],
  ];
  for (const [name, rec, answer, marks, want] of /** @type {Array<[string, any, any, any, any]>} */ (cases)) {
    const v = checkAnswer(msg(answer), PAGE, { extensionId: ID, record: rec });
    assert.ok(v.ok, `${name}: ${JSON.stringify(v)}`);
    if (!v.ok) continue;
    assert.deepEqual(resultOf(rec, v.answer, marks),
      { responded: true, timedOut: false, dismissed: false, via: 'overlay', annotations: [want] }, name);
  }
});

test('skipped, timed out and answered are three things', () => {
  const v = checkAnswer(msg({ dismissed: true }), PANEL, { extensionId: ID, record: record() });
  assert.ok(v.ok);
  if (!v.ok) return;
  assert.deepEqual(resultOf(record(), v.answer), { responded: false, timedOut: false, dismissed: true, via: 'panel', annotations: [] });
  assert.deepEqual(timedOut(), { responded: false, timedOut: true, dismissed: false, annotations: [] });
});

test('a request asked again takes up the question kept', () => {
  assert.equal(takeUp(undefined, 4), 'new');
  assert.equal(takeUp(record(), 4), 'wait', 'the person has not answered yet');
  assert.equal(takeUp(record({ status: 'answered', result: timedOut() }), 4), 'answered', 'the answer kept is the answer');
  assert.throws(() => takeUp(record(), 5), { code: 'bad_request' }, 'not for another tab');
});

test('a state withdraws the questions its daemon does not know', () => {
  const records = [
    record({ id: 'a' }), // listed: kept
    record({ id: 'b' }), // not listed, no command waits: its agent is gone
    record({ id: 'c' }), // not listed, but a command of this worker waits for it
    record({ id: 'd', status: 'answered', deadline: 1000 }), // an answer kept for the host
    record({ id: 'e', status: 'answered', deadline: 1000 - KEEP_ANSWER_MS - 1 }), // kept too long
  ];
  const state = { feedback: [{ id: 'a', tabId: 4 }] };
  assert.deepEqual(reconcile(records, state, new Set(['c']), 1000), { withdraw: ['b'], drop: ['e'] });
  assert.deepEqual(reconcile(records, undefined, new Set(), 1000).withdraw, ['a', 'b', 'c']);
});

test('screenshot pixels and boxes', () => {
  const box = { left: 10, top: 20, width: 400, height: 300 };
  assert.deepEqual(toImagePixels(210, 170, box, { width: 800, height: 600 }), { x: 400, y: 300 });
  assert.deepEqual(toImagePixels(0, 1000, box, { width: 800, height: 600 }), { x: 0, y: 600 }, 'clamped to the image');
  assert.deepEqual(rectFromCorners({ x: 50, y: 40 }, { x: 10, y: 10 }), { x: 10, y: 10, width: 40, height: 30 });
  assert.equal(rectFromCorners({ x: 1, y: 1 }, { x: 3, y: 90 }), undefined);
  assert.ok(isFeedbackMessage({ type: 'feedback' }));
  assert.ok(!isFeedbackMessage({ type: 'human' }));
});
