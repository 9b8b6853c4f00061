// @ts-check
/// <reference types="node" />
// The real action tables: every file under sw/actions/ exports ACTIONS, each
// name starting with the file's name and a dot, no name twice, and
// sw/router.js serves them all. The worker's modules register chrome.*
// listeners as they load, so they are imported here against a stand-in
// `chrome` that accepts any call and never answers; no action runs.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { installChrome } from './testdata.js';

installChrome();

const dir = new URL('./actions/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.js') && !f.endsWith('.test.js')).sort();

/** @type {typeof import('./router.js')} */
const router = await import('./router.js');

test('every action file exports a table of actions named for the file', async () => {
  assert.ok(files.length >= 7, `found ${files.join(', ')}`);
  for (const file of files) {
    const prefix = file.replace(/\.js$/, '');
    /** @type {{ ACTIONS?: import('../lib/router.js').ActionEntry[] }} */
    const mod = await import(new URL(file, dir).href);
    assert.ok(Array.isArray(mod.ACTIONS) && mod.ACTIONS.length > 0, `actions/${file} exports no ACTIONS`);
    for (const entry of mod.ACTIONS) {
      assert.ok(entry.name.startsWith(`${prefix}.`), `${entry.name} is in actions/${file}`);
      assert.equal(typeof entry.run, 'function', entry.name);
    }
  }
});

test('sw/router.js serves every file\'s table, and no name twice', () => {
  assert.deepEqual(Object.keys(router.TABLES).sort(), files.map((f) => f.replace(/\.js$/, '')));
  const names = router.ACTIONS.map((e) => e.name);
  assert.equal(new Set(names).size, names.length, 'a name appears twice');
  const fromTables = Object.values(router.TABLES).flat().map((e) => e.name);
  assert.deepEqual(names, fromTables);
});

test('the wire actions are the ones docs/wire.md lists', () => {
  const tabFree = router.ACTIONS.filter((e) => !e.tab).map((e) => e.name).sort();
  assert.deepEqual(tabFree, ['browser.health', 'browser.stop', 'download.list', 'tab.create', 'tab.list'],
    'every other action takes a tab, through the router\'s gate');
  // The first cell of each row of wire.md's action table names its actions.
  const wire = readFileSync(new URL('../../docs/wire.md', import.meta.url), 'utf8');
  const section = wire.slice(wire.indexOf('### Actions'), wire.indexOf('\n### ', wire.indexOf('### Actions') + 1));
  const documented = new Set();
  for (const line of section.split('\n')) {
    const cell = line.match(/^\| ((?:`[a-z]+\.[a-zA-Z]+` ?)+)\|/);
    for (const m of cell?.[1].matchAll(/`([a-z]+\.[a-zA-Z]+)`/g) ?? []) documented.add(m[1]);
  }
  assert.deepEqual(router.ACTIONS.map((e) => e.name).sort(), [...documented].sort());
});
