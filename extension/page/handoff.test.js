// @ts-check
/// <reference types="node" />
// page/handoff.js's handoffState needs only a few DOM properties, so node
// runs the real page script here against a small fake document (no jsdom:
// the fingerprint walks 100,000 elements).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { runInVm } from './testdata.js';

/**
 * An element as the tests write it: [tag, attributes?, ...children].
 * @typedef {[string, ...any[]]} Spec
 */

/**
 * A fake element with what a walk of the element tree reads.
 * @typedef {{ tagName: string, getAttribute(name: string): string | null,
 *   parentElement: FakeElement | null, firstElementChild: FakeElement | null,
 *   nextElementSibling: FakeElement | null, children: FakeElement[] }} FakeElement
 */

/**
 * @param {Spec} spec
 * @param {FakeElement | null} parent
 * @returns {FakeElement}
 */
function build([tag, ...rest], parent = null) {
  const attrs = rest[0] && !Array.isArray(rest[0]) ? rest.shift() : {};
  /** @type {FakeElement} */
  const el = {
    tagName: tag.toUpperCase(),
    getAttribute: (name) => (Object.hasOwn(attrs, name) ? String(attrs[name]) : null),
    parentElement: parent,
    firstElementChild: null,
    nextElementSibling: null,
    children: [],
  };
  el.children = rest.map((child) => build(child, el));
  el.children.forEach((c, i) => {
    c.nextElementSibling = el.children[i + 1] ?? null;
  });
  el.firstElementChild = el.children[0] ?? null;
  return el;
}

/**
 * Runs the page script against root and storage, and calls handoffState.
 * @param {FakeElement} root
 * @param {unknown} localStorage
 * @returns {{ storageKeys: string[], domFingerprint: string }}
 */
function handoffState(root, localStorage) {
  const context = runInVm({ document: { documentElement: root }, localStorage });
  const out = JSON.parse(context.__openchrome.call('handoffState', {}));
  assert.equal(out.error, undefined, JSON.stringify(out.error));
  return out.ok;
}

/**
 * A reference FNV-1a 64 over the UTF-8 of text, with BigInt.
 * @param {string} text
 */
function fnv1a64(text) {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) {
    h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

/**
 * The tokens of docs/human.md, by a plain recursion.
 * @param {FakeElement} el
 * @param {number} depth
 * @param {string[]} out
 */
function tokens(el, depth = 0, out = []) {
  if (el.tagName === 'OPENCHROME-BANNER') return out;
  let tag = el.tagName.toLowerCase();
  if (tag === 'input') tag = `input[${(el.getAttribute('type') ?? 'text').toLowerCase()}]`;
  out.push(`${depth}:${tag}`);
  for (const c of el.children) tokens(c, depth + 1, out);
  return out;
}

const noStorage = { length: 0, key: () => null };

test('the reference FNV-1a 64 gives the published vectors', () => {
  assert.equal(fnv1a64(''), 'cbf29ce484222325');
  assert.equal(fnv1a64('a'), 'af63dc4c8601ec8c');
  assert.equal(fnv1a64('foobar'), '85944171f73967e8');
});

test('the fingerprint hashes depth:tag per element, in document order, banner left out', () => {
  /** @type {Spec} */
  const page = ['html',
    ['head', ['title'], ['meta', { charset: 'utf-8' }]],
    ['body', { class: 'x' },
      ['form',
        ['input', { type: 'Password', value: 'hunter2' }],
        ['input', { name: 'user' }],
        ['button']],
      ['svg', ['linearGradient']],
      ['div', ['p'], ['p']]],
    ['openchrome-banner', ['div', ['button']]]];
  const root = build(page);
  assert.deepEqual(tokens(root), [
    '0:html', '1:head', '2:title', '2:meta', '1:body', '2:form', '3:input[password]', '3:input[text]',
    '3:button', '2:svg', '3:lineargradient', '2:div', '3:p', '3:p',
  ]);
  const { domFingerprint } = handoffState(root, noStorage);
  assert.equal(domFingerprint, `fnv1a64:${fnv1a64(tokens(root).join('\n'))}`);

  // Text, values and other attributes change nothing; structure does.
  page[2][1] = { class: 'y', 'data-secret': 'changed' };
  assert.equal(handoffState(build(page), noStorage).domFingerprint, domFingerprint);
  const withoutBanner = build(['html', ...page.slice(1, 3)]);
  assert.equal(handoffState(withoutBanner, noStorage).domFingerprint, domFingerprint);
  const moved = build(['html', page[2], page[1]]);
  assert.notEqual(handoffState(moved, noStorage).domFingerprint, domFingerprint);
});

test('the fingerprint hashes the UTF-8 of tag names', () => {
  const root = build(['html', ['body', ['math-α'], ['x-😀', ['input', { type: 'DATE' }]]]]);
  assert.equal(handoffState(root, noStorage).domFingerprint, `fnv1a64:${fnv1a64(tokens(root).join('\n'))}`);
  assert.equal(handoffState(build(['html']), noStorage).domFingerprint, `fnv1a64:${fnv1a64('0:html')}`);
});

test('the fingerprint stops after 100,000 elements', () => {
  /** @param {number} n elements under <body> */
  const wide = (n) => build(['html', ['body', ...Array.from({ length: n }, () => ['div'])]]);
  const full = wide(99_998); // 100,000 with html and body
  const fullTokens = tokens(full);
  assert.equal(fullTokens.length, 100_000);
  assert.equal(handoffState(full, noStorage).domFingerprint, `fnv1a64:${fnv1a64(fullTokens.join('\n'))}`);
  const over = wide(99_999);
  assert.equal(handoffState(over, noStorage).domFingerprint,
    `fnv1a64:${fnv1a64(`${fullTokens.join('\n')}\ntruncated`)}`);
});

test('storage keys: names only, sorted, at most 200, each at most 200 characters', () => {
  const keys = ['token', 'a', 'x'.repeat(300), ...Array.from({ length: 250 }, (_, i) => `k${String(i).padStart(3, '0')}`)];
  const storage = { length: keys.length, key: (/** @type {number} */ i) => keys[i] ?? null, getItem: () => assert.fail('values are never read') };
  const { storageKeys } = handoffState(build(['html']), storage);
  assert.equal(storageKeys.length, 200);
  assert.deepEqual(storageKeys.slice(0, 3), ['a', 'k000', 'k001']);
  assert.equal(storageKeys.at(-1), 'k198');
  const few = handoffState(build(['html']), { length: 3, key: (/** @type {number} */ i) => ['token', 'x'.repeat(300), 'a'][i] }).storageKeys;
  assert.deepEqual(few, ['a', 'token', 'x'.repeat(200)]);
});

test('storage keys are [] when storage cannot be read', () => {
  const blocked = {
    get length() {
      throw new Error("SecurityError: Failed to read the 'localStorage' property from 'Window'");
    },
  };
  assert.deepEqual(handoffState(build(['html']), blocked).storageKeys, []);
});
