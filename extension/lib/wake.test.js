// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PACKED_PERIOD_MINUTES, UNPACKED_PERIOD_MINUTES, needsAlarm, wakePeriodMinutes } from './wake.js';

test('the wake alarm fires as often as Chrome lets the extension', () => {
  assert.equal(wakePeriodMinutes('development'), UNPACKED_PERIOD_MINUTES);
  for (const installType of ['normal', 'admin', 'sideload', 'other', undefined]) {
    assert.equal(wakePeriodMinutes(installType), PACKED_PERIOD_MINUTES, String(installType));
  }
  assert.equal(PACKED_PERIOD_MINUTES * 60, 30, "Chrome's minimum for packed MV3 extensions");
  assert.ok(UNPACKED_PERIOD_MINUTES * 60 >= 1, "Chrome's minimum for unpacked ones");
});

test('the wake alarm is created only when missing or set otherwise', () => {
  const cases = [
    ['missing', undefined, true],
    ['set with this period', { periodInMinutes: 0.5 }, false],
    ['set with another period', { periodInMinutes: 1 }, true],
    ['set once, not periodic', {}, true],
  ];
  for (const [name, alarm, want] of cases) {
    assert.equal(needsAlarm(/** @type {any} */ (alarm), 0.5), want, String(name));
  }
});
