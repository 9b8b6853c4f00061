// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { classify, gestureOf, ROOT_TYPES } from './listeners.js';

test('gestureOf: the gesture a clickable answers when a click reaches none of its listeners', () => {
  for (const [types, want] of /** @type {Array<[string[], string]>} */ ([
    [['dblclick'], 'double_click'],
    [['dblclick', 'keydown'], 'double_click'],
    [['contextmenu'], 'right_click'],
    [['click', 'dblclick'], ''],
    [['mousedown', 'contextmenu'], ''],
    [['dblclick', 'contextmenu'], ''],
    [['mouseover'], ''],
    [[], ''],
  ])) {
    assert.equal(gestureOf(new Set(types)), want, types.join(','));
  }
});

test('classify: clicks, their gestures, roots and hovers', () => {
  const rootTypes = Array.from({ length: ROOT_TYPES }, (_, i) => ({ type: i ? `t${i}` : 'click', backendNodeId: 9 }));
  const got = classify([
    { type: 'click', backendNodeId: 1 },
    { type: 'dblclick', backendNodeId: 2 },
    { type: 'mouseup', backendNodeId: 1 },
    { type: 'contextmenu', backendNodeId: 3 },
    { type: 'mouseenter', backendNodeId: 4 },
    { type: 'keydown', backendNodeId: 5 },
    { type: 'click' }, // the document's or the window's own: no node
    ...rootTypes,
  ]);
  assert.deepEqual(got, {
    clicks: [1, 2, 3],
    gestures: ['', 'double_click', 'right_click'],
    roots: [9],
    hovers: [4],
  }, 'a root listening for every kind is none of the others; an element listed twice counts once');
});
