// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import { charKey, chordEvents, parseChord, followsLink, pastes, refuseChord, selectAllChord } from './keys.js';

test('named keys and their aliases', () => {
  for (const [input, key, code] of [['Enter', 'Enter', 'Enter'], ['return', 'Enter', 'Enter'], ['esc', 'Escape', 'Escape'],
    ['Space', ' ', 'Space'], ['down', 'ArrowDown', 'ArrowDown'], ['F5', 'F5', 'F5'], ['a', 'a', 'KeyA'], ['7', '7', 'Digit7'], ['Page_Down', 'PageDown', 'PageDown'], ['BackSpace', 'Backspace', 'Backspace']]) {
    const c = parseChord(input);
    assert.equal(c.key.key, key, input);
    assert.equal(c.key.code, code, input);
    assert.equal(c.modifiers, 0, input);
  }
});

test('chords hold their modifiers', () => {
  const c = parseChord('ctrl+shift+t');
  assert.equal(c.modifiers, 2 | 8);
  assert.deepEqual(c.held.map((h) => h.key), ['Control', 'Shift']);
  assert.equal(c.key.code, 'KeyT');
  assert.equal(parseChord('cmd+a').modifiers, 4);
  assert.equal(parseChord('ctrl++').key.key, '+');
});

test('a shifted character presses shift itself', () => {
  const c = parseChord('A');
  assert.equal(c.modifiers, 8);
  assert.equal(charKey('?')?.shift, true);
  assert.equal(charKey('/')?.def.code, 'Slash');
  assert.equal(charKey('é'), undefined);
});

test('events press and release in order; modifier chords type no text', () => {
  const events = /** @type {Array<Record<string, unknown>>} */ (chordEvents(parseChord('ctrl+a')));
  assert.deepEqual(events.map((e) => `${e.type}:${e.key}`),
    ['rawKeyDown:Control', 'rawKeyDown:a', 'keyUp:a', 'keyUp:Control']);
  assert.equal(events[1].text, undefined);
  assert.equal(events[1].modifiers, 2);
  const enter = /** @type {Array<Record<string, unknown>>} */ (chordEvents(parseChord('Enter')));
  assert.equal(enter[0].type, 'keyDown');
  assert.equal(enter[0].text, '\r');
  const shiftA = /** @type {Array<Record<string, unknown>>} */ (chordEvents(parseChord('shift+a')));
  assert.equal(shiftA[1].text, 'A', 'shift alone still types, in capitals');
});

test('bad chords name what is wrong', () => {
  for (const [input, says] of [['', 'empty'], ['foo+a', 'not a modifier'], ['ctrl+nope', 'unknown key']]) {
    assert.throws(() => parseChord(input), (/** @type {unknown} */ e) =>
      e instanceof ActionError && e.code === 'bad_request' && e.message.includes(says), input);
  }
});

test('Enter follows a link, whatever is held; a link to another application is refused', () => {
  assert.equal(followsLink('Enter'), true);
  assert.equal(followsLink('return'), true);
  assert.equal(followsLink('ctrl+Enter'), true, 'opens it in a new tab');
  assert.equal(followsLink('space'), false, 'Space does not follow a link');
  assert.equal(followsLink('Tab'), false);
  assert.throws(() => refuseChord('Enter', 'mailto:a@example.com', 'link "Mail us"'),
    { code: 'domain_blocked', message: 'link "Mail us" opens mailto:a@example.com in another application, not in the browser: nothing was pressed' });
  refuseChord('Enter', undefined, 'link "Home"'); // a page's link: followed
  refuseChord('Tab', 'mailto:a@example.com', 'link "Mail us"'); // moves the focus on
});

test('a chord that pastes is refused: the person\'s clipboard is theirs', () => {
  for (const chord of ['ctrl+v', 'Control+V', 'cmd+v', 'ctrl+shift+v', 'shift+Insert']) {
    assert.equal(pastes(chord), true, chord);
    assert.throws(() => refuseChord(chord, undefined, undefined), { code: 'unauthorized' }, chord);
  }
  for (const chord of ['v', 'shift+v', 'ctrl+c', 'ctrl+a', 'Insert', 'alt+v']) assert.equal(pastes(chord), false, chord);
});

test('selectAllChord is cmd+A on a Mac and ctrl+A elsewhere', () => {
  assert.equal(selectAllChord('MacIntel'), 'meta+a');
  assert.equal(selectAllChord('Linux x86_64'), 'ctrl+a');
  assert.equal(selectAllChord('Win32'), 'ctrl+a');
});
