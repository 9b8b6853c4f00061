// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { check, policyLine, rulesOf } from './policy.js';
import { loadGolden } from './testdata.js';

test('the shared vector: the extension decides as host/policy does', () => {
  /** @type {Array<{ rules: import('./policy.js').Rules, url: string, allowed: boolean }>} */
  const cases = loadGolden('policy.json');
  assert.ok(cases.length > 10);
  for (const c of cases) {
    assert.equal(check(c.rules, c.url) === undefined, c.allowed, `${JSON.stringify(c.rules)} ${c.url}`);
  }
});

test('a config that cannot be read allows nothing', () => {
  assert.match(check({ error: 'bad JSON' }, 'https://example.com/')?.message ?? '', /cannot be read/);
});

test('a refusal names the rule', () => {
  assert.match(check({ blocked: ['*.evil.example'] }, 'https://a.evil.example/x')?.message ?? '', /rule "\*\.evil\.example"/);
  assert.match(check(undefined, 'file:///etc/passwd')?.hint ?? '', /allowFileURLs/);
});

test('the side panel line', () => {
  assert.equal(policyLine(undefined), 'Agents may open: every site; no local files');
  assert.equal(policyLine({ allowed: [['*.example.com']], blocked: ['admin.example.com'], allowFile: true }),
    'Agents may open: only *.example.com; never admin.example.com; local files allowed');
  assert.deepEqual(rulesOf({ policy: { blocked: ['x'] } }), { blocked: ['x'] });
  assert.equal(rulesOf({}), undefined);
});
