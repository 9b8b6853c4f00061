// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_SIDE_PX, devicePixelRatio, shotScale } from './shot-scale.js';

test('a screenshot is shrunk only as far as the longest side an image may have', () => {
  assert.equal(shotScale(1265, 657), 1);
  assert.equal(shotScale(1265, MAX_SIDE_PX), 1);
  assert.equal(shotScale(1265, 9626), 0.831);
  assert.ok(9626 * shotScale(1265, 9626) <= MAX_SIDE_PX);
  assert.equal(shotScale(20000, 300), 0.4);
  assert.equal(shotScale(819, 85865), 0.093);
});

test('device pixels per CSS pixel come from the layout metrics', () => {
  assert.equal(devicePixelRatio({ visualViewport: { clientWidth: 2530 }, cssVisualViewport: { clientWidth: 1265 } }), 2);
  assert.equal(devicePixelRatio({ cssVisualViewport: { clientWidth: 1265 } }), 1);
  assert.equal(devicePixelRatio({}), 1);
});
