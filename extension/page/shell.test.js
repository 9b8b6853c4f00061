// @ts-check
/// <reference types="node" />
// page/shell.js in jsdom: what the handoff banner and the feedback overlay
// are made of, and what keeps them in a page that takes them out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

/** Lets the page's mutation observers run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

function shellPage() {
  const p = new TestPage('<p>Page</p>');
  p.window.eval(readFileSync(new URL('./shell.js', import.meta.url), 'utf8'));
  p.window.eval(readFileSync(new URL('./shell.js', import.meta.url), 'utf8')); // twice is harmless
  const { host, root } = /** @type {any} */ (p.window).__openchromeShell.make(':host { top: 0 !important; }');
  assert.equal(host.tagName, 'OPENCHROME-BANNER');
  assert.equal(host.shadowRoot, null, 'its shadow root is closed');
  assert.ok(root, 'and ours');
  const unpin = /** @type {any} */ (p.window).__openchromeShell.pin(host);
  return { p, host, unpin };
}

test('a pinned element goes last under <html> and comes back when the page takes it out', async () => {
  const { p, host, unpin } = shellPage();
  assert.equal(host.parentNode, p.document.documentElement);
  assert.equal(p.document.documentElement.lastElementChild, host);

  host.remove();
  await settle();
  assert.equal(host.parentNode, p.document.documentElement, 'put back');

  unpin();
  host.remove();
  await settle();
  assert.equal(host.parentNode, null, 'unpinned, it stays out');
});

test('a page that keeps taking it out does not make it spin', async () => {
  const { p, host, unpin } = shellPage();
  let back = 0;
  for (let i = 0; i < 8; i++) {
    host.remove();
    await settle();
    if (host.parentNode === p.document.documentElement) back++;
  }
  assert.equal(back, 5, 'five times a second at most; the next try waits a second');
  unpin();
});
