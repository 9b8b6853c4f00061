// @ts-check
/// <reference types="node" />
// The page script as a whole: its file list, its namespace and VERSION,
// call, and injection twice (or over an older version, or beside the
// banner) into one isolated world.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { PAGE_FILES, PAGE_VERSION } from '../lib/page-files.js';
import { TestPage, runInVm } from './testdata.js';

test('lib/page-files.js lists every page script file once, namespace first and entry last', () => {
  const dir = new URL('./', import.meta.url);
  const onDisk = readdirSync(dir)
    .filter((f) => f.endsWith('.js') && !f.endsWith('.test.js') && !['testdata.js', 'banner.js', 'overlay.js', 'shell.js'].includes(f))
    .map((f) => `page/${f}`)
    .sort();
  assert.deepEqual([...PAGE_FILES].sort(), onDisk);
  assert.equal(new Set(PAGE_FILES).size, PAGE_FILES.length);
  assert.equal(PAGE_FILES[0], 'page/namespace.js');
  assert.equal(PAGE_FILES.at(-1), 'page/entry.js');
});

test('each file keeps to its IIFE: no top-level declaration shares the isolated world\'s scope', () => {
  for (const file of PAGE_FILES) {
    const source = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
    const code = source.replace(/^\s*\/\/.*$/gm, '').trim();
    assert.match(code, /^\(\(\) => \{[\s\S]*\}\)\(\);$/, `${file} is one IIFE`);
  }
});

test('the namespace\'s VERSION is lib/page-files.js\'s PAGE_VERSION', () => {
  const context = runInVm({ document: {} });
  assert.equal(context.__openchrome.version, PAGE_VERSION);
  assert.equal(typeof context.__openchrome.call, 'function');
});

test('call answers errors as values: unknown methods, page errors, anything else', () => {
  const page = new TestPage('<p>x</p>');
  for (const method of ['explode', 'constructor', '__proto__', 'toString']) {
    assert.deepEqual(page.call(method), { error: { code: 'bad_request', message: `the page script has no method ${method}` } });
  }
  assert.deepEqual(page.call('locate', { ref: 99 }).error.code, 'stale_ref');
  const internal = page.call('find', { query: null, limit: 1, refBase: 1 });
  assert.equal(internal.error.code, 'internal');
  assert.match(internal.error.message, /^page script: /);
});

test('injected twice, the script keeps its first copy and its refs', () => {
  const page = new TestPage('<button>One</button>');
  const before = page.ns;
  const first = page.ok('snapshot', { refBase: 1 });
  page.inject();
  page.inject();
  assert.equal(page.ns, before, 'the same namespace');
  const again = page.ok('snapshot', { refBase: 1 });
  assert.deepEqual(again.tree, first.tree, 'the same refs');
  assert.equal(again.nextRef, first.nextRef);
});

test('a namespace of another version is replaced whole', () => {
  const page = new TestPage('<button>One</button>');
  const win = /** @type {any} */ (page.window); // any: the test plants an old script's global
  win.__openchrome = { version: PAGE_VERSION - 1, call: () => ({ ok: 'old' }) };
  page.inject();
  assert.equal(page.ns.version, PAGE_VERSION);
  assert.deepEqual(page.ok('snapshot', { refBase: 1 }).tree.map((/** @type {any} */ n) => n.name), ['One']);
});

test('the banner shares the isolated world without a clash', () => {
  const page = new TestPage('<button>Page button</button>');
  const banner = readFileSync(new URL('./shell.js', import.meta.url), 'utf8') +
    readFileSync(new URL('./banner.js', import.meta.url), 'utf8');
  page.window.eval(banner);
  page.inject();
  page.window.eval(banner);
  const win = /** @type {any} */ (page.window); // any: the banner's global has no type here
  assert.equal(typeof win.__openchromeBanner.show, 'function');
  win.__openchromeBanner.show({ id: 'h1', reason: 'login', instruction: 'Log in, please', deadline: new Date(Date.now() + 60_000).toISOString() });
  assert.ok(page.document.querySelector('openchrome-banner'), 'the banner is up');
  const names = page.ok('find', { query: 'button', limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => c.name);
  assert.deepEqual(names, ['Page button'], 'and the page script does not see it');
  win.__openchromeBanner.remove();
});
