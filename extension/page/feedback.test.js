// @ts-check
/// <reference types="node" />
// page/feedback.js and the feedback overlay (page/overlay.js) in jsdom: the
// element under a point, the elements in a box, the refs of the marks, and
// an overlay a page's script can neither read nor answer. jsdom has no
// layout: boxes come from TestPage.place, and its events are never trusted,
// as a page script's are not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

const FORM = `<h2>Plans</h2>
  <form><label for=email>Email</label><input id=email>
  <button id=save><span id=label>Save</span></button></form>
  <p id=note>Prices in EUR</p><div id=wrap><span></span></div>`;

/**
 * A page whose elementsFromPoint hits what was placed, topmost first.
 * @param {string} body
 */
function page(body) {
  const p = new TestPage(body);
  p.document.elementsFromPoint = (x, y) => {
    const hit = [];
    for (let i = p.placed.length - 1; i >= 0; i--) {
      const { el, box } = p.placed[i];
      if (x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height) hit.push(el);
    }
    return hit;
  };
  return p;
}

test('the element under a point is the control it sits in', () => {
  const p = page(FORM);
  p.place('#save', { x: 10, y: 100, width: 80, height: 30 });
  p.place('#label', { x: 20, y: 105, width: 40, height: 20 });
  p.place('#note', { x: 10, y: 200, width: 300, height: 20 });
  const { pick } = p.ns.feedback;
  assert.equal(pick(30, 110), p.$('#save'), 'a click on the button\'s label is on the button');
  assert.equal(pick(100, 205), p.$('#note'));
  assert.equal(pick(900, 900), null);
});

test('OpenChrome\'s own elements are not the page\'s', () => {
  const p = page(FORM);
  p.place('#note', { x: 0, y: 0, width: 500, height: 500 });
  p.document.documentElement.insertAdjacentHTML('beforeend', '<openchrome-banner id=ours></openchrome-banner>');
  p.place('#ours', { x: 0, y: 0, width: 1000, height: 1000 });
  assert.equal(p.ns.feedback.pick(10, 10), p.$('#note'));
});

test('a box holds the elements wholly inside it that mean something', () => {
  const p = page(FORM);
  p.place('form', { x: 0, y: 50, width: 400, height: 100 });
  p.place('#email', { x: 10, y: 60, width: 200, height: 20 });
  p.place('#save', { x: 10, y: 100, width: 80, height: 30 });
  p.place('#label', { x: 20, y: 105, width: 40, height: 20 });
  p.place('#note', { x: 10, y: 200, width: 300, height: 20 });
  p.place('#wrap', { x: 10, y: 90, width: 300, height: 50 }); // a generic wrapper without text
  const inside = p.ns.feedback.inside({ x: 5, y: 55, width: 300, height: 90 });
  assert.deepEqual([...inside].map((e) => e.id || e.tagName.toLowerCase()), ['email', 'save', 'label'],
    'the form sticks out of the box, the wrapper says nothing, the note is below');
});

test('the marks come back as refs of read_page\'s space', () => {
  const p = page(FORM);
  const g = /** @type {any} */ (p.window);
  const kept = [p.$('#save'), p.$('#email'), p.$('#wrap')];
  g.__openchromeFeedback = { marks: (/** @type {string} */ id) => (id === 'r1' ? kept : undefined) };
  p.$('#wrap').remove();
  const out = p.ok('feedbackMarks', { requestId: 'r1', refBase: 40 });
  assert.deepEqual(out.marks, [
    { ref: 40, role: 'button', name: 'Save', selector: '#save', text: 'Save' },
    { ref: 41, role: 'textbox', name: 'Email', selector: '#email', text: '' },
    null, // it left the page
  ]);
  assert.equal(out.nextRef, 42);
  assert.equal(p.ns.refs.element(40), p.$('#save'), 'the ref names the very element');
  assert.equal(p.call('feedbackMarks', { requestId: 'r2', refBase: 1 }).error.code, 'not_found');
});

test('a selector without an id is a path of the element\'s kind', () => {
  const p = page('<main><p>a</p><p>b <b>bold</b></p></main>');
  const g = /** @type {any} */ (p.window);
  g.__openchromeFeedback = { marks: () => [p.document.querySelectorAll('p')[1].querySelector('b')] };
  const [mark] = p.ok('feedbackMarks', { requestId: 'r', refBase: 1 }).marks;
  assert.equal(mark.selector, 'body > main > p:nth-of-type(2) > b');
  assert.equal(p.document.querySelector(mark.selector)?.textContent, 'bold');
});

/**
 * A page with the overlay injected, whose chrome.runtime.sendMessage
 * records what the overlay sends.
 */
function withOverlay() {
  const p = page(FORM);
  /** @type {unknown[]} */
  const sent = [];
  const g = /** @type {any} */ (p.window);
  g.chrome = { runtime: { sendMessage: async (/** @type {unknown} */ m) => { sent.push(m); return { ok: true }; } } };
  g.CSSStyleSheet.prototype.replaceSync ??= () => {};
  p.window.eval(readFileSync(new URL('./shell.js', import.meta.url), 'utf8'));
  p.window.eval(readFileSync(new URL('./overlay.js', import.meta.url), 'utf8'));
  return { p, sent, api: g.__openchromeFeedback };
}

const QUESTION = { id: 'r1', mode: 'confirm', prompt: 'Deploy <b>now</b>?', options: [], deadline: Date.now() + 60_000 };

test('the overlay is closed to the page and deaf to its scripts', async () => {
  const { p, sent, api } = withOverlay();
  api.show(QUESTION);
  const host = /** @type {HTMLElement} */ (p.document.querySelector('openchrome-banner'));
  assert.ok(host, 'the overlay is in the page');
  assert.equal(host.parentElement, p.document.documentElement);
  assert.equal(host.shadowRoot, null, 'its shadow root is closed');
  assert.equal(p.ns.tree.snapshot({ refBase: 1 }).tree.some((/** @type {any} */ n) => JSON.stringify(n).includes('Deploy')), false,
    'read_page does not show it');

  // What a page's script can do: click the host, press Escape. Untrusted.
  host.click();
  p.document.dispatchEvent(new p.window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  p.window.dispatchEvent(new p.window.KeyboardEvent('keydown', { key: 'Escape' }));
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(sent, [], 'nothing was answered');
  assert.ok(p.document.querySelector('openchrome-banner'), 'nor dismissed');

  // The page takes it out: it comes back.
  host.remove();
  await new Promise((r) => setTimeout(r, 0));
  assert.ok(p.document.querySelector('openchrome-banner'), 'it is put back');

  api.show(QUESTION);
  assert.equal(p.document.querySelectorAll('openchrome-banner').length, 1, 'the same question again changes nothing');
  assert.equal(api.remove(), true);
  assert.equal(p.document.querySelector('openchrome-banner'), null);
  assert.equal(api.remove(), false);
});
