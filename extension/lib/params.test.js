// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { browserName } from './browser-name.js';
import { ActionError } from './errors.js';
import { boolParam, enumParam, intParam, stringParam, tabIdParam } from './params.js';

/** @param {() => unknown} fn */
const badRequest = (fn) =>
  assert.throws(fn, (err) => err instanceof ActionError && err.code === 'bad_request');

test('tabIdParam wants an integer', () => {
  assert.equal(tabIdParam({ tabId: 12 }), 12);
  badRequest(() => tabIdParam({}));
  badRequest(() => tabIdParam({ tabId: '12' }));
  badRequest(() => tabIdParam({ tabId: 1.5 }));
});

test('optional params fall back when absent and are type-checked when not', () => {
  assert.equal(boolParam({}, 'active', true), true);
  assert.equal(boolParam({ active: false }, 'active', true), false);
  badRequest(() => boolParam({ active: 'no' }, 'active', true));
  assert.equal(stringParam({}, 'url'), undefined);
  assert.equal(stringParam({ url: 'x' }, 'url'), 'x');
  badRequest(() => stringParam({ url: 5 }, 'url'));
  assert.equal(enumParam({ format: 'png' }, 'format', ['png', 'jpeg']), 'png');
  assert.equal(enumParam({}, 'format', ['png', 'jpeg']), undefined);
  badRequest(() => enumParam({ format: 'gif' }, 'format', ['png', 'jpeg']));
  assert.equal(intParam({ quality: 80 }, 'quality', 0, 100), 80);
  assert.equal(intParam({}, 'quality', 0, 100), undefined);
  badRequest(() => intParam({ quality: 101 }, 'quality', 0, 100));
  badRequest(() => intParam({ quality: 50.5 }, 'quality', 0, 100));
});

test('browserName prefers a vendor brand, skips GREASE, falls back on the UA', () => {
  assert.equal(browserName({ brands: [
    { brand: 'Chromium', version: '156' },
    { brand: 'Not=A?Brand', version: '24' },
  ] }), 'Chromium/156');
  assert.equal(browserName({ brands: [
    { brand: 'Not)A;Brand', version: '8' },
    { brand: 'Chromium', version: '131' },
    { brand: 'Google Chrome', version: '131' },
  ] }), 'Google Chrome/131');
  const edgeUA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) '
    + 'Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
  assert.equal(browserName({ userAgent: edgeUA }), 'Microsoft Edge/131');
  assert.equal(browserName({ userAgent: 'Mozilla/5.0 Chrome/120.0.1 Safari/537.36' }), 'Chrome/120');
  assert.equal(browserName({}), 'unknown');
});
