// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  ACT_ACTIONS, became, describeTarget, kept, normalize, quiet, roundBox, scrolled, steady, summarize, truthy, withScrolled,
} from './act.js';
import { loadGolden } from './testdata.js';

test('element.act takes the actions of protocol/testdata/interact-actions.json, in order', () => {
  /** @type {string[]} */
  const golden = loadGolden('interact-actions.json');
  assert.ok(Array.isArray(golden) && golden.length > 0);
  assert.deepEqual([...ACT_ACTIONS], golden);
});

test('a target is its role (or tag) and its name', () => {
  assert.equal(describeTarget({ role: 'button', tag: 'button', name: 'Save' }), 'button "Save"');
  assert.equal(describeTarget({ role: '', tag: 'div', name: '' }), 'div');
  assert.equal(describeTarget({ role: '', tag: 'div', name: '', text: 'Right-click me' }), 'div "Right-click me"');
  assert.equal(describeTarget({ role: 'textbox', tag: 'input' }), 'textbox');
});

test('summarize says what changed in one line', () => {
  assert.equal(summarize({}), 'no visible change');
  assert.equal(summarize({ added: 1 }), '1 element added');
  assert.equal(summarize({ added: 1, addedText: ['"Enter a valid email"'] }), '1 element added: "Enter a valid email"', 'a few are quoted');
  assert.equal(summarize({ added: 3, removed: 2, texts: 5, attributes: 1 }), '3 elements added, 2 removed');
  assert.equal(summarize({ removed: 1, removedText: ['"Buy milk Delete"'] }), '1 removed: "Buy milk Delete"');
  assert.equal(summarize({ added: 2, removed: 3, redrawn: { gone: ['"Walk the dog"'], came: [], reordered: false } }),
    'redrawn: "Walk the dog" gone');
  assert.equal(summarize({ added: 3, removed: 3, redrawn: { gone: [], came: ['"Call Ann"'], reordered: true } }),
    'redrawn: "Call Ann" new, the rest in another order');
  assert.equal(summarize({ added: 3, removed: 3, redrawn: { gone: [], came: [], reordered: false } }), 'redrawn, the same words');
  assert.equal(summarize({ texts: 1, attributes: 1 }), 'text changed');
  assert.equal(summarize({ attributes: 2 }), 'attributes changed', 'when nothing else says what they did');
  assert.equal(summarize({ texts: 2, said: ['status "Duplicated"'], textText: ['"Report (copy)"'] }),
    'it says status "Duplicated", text changed: "Report (copy)"', 'words changed beside what a toast said');
  assert.equal(summarize({ texts: 1, said: ['status "Saved"'], textText: [] }), 'it says status "Saved"', 'the region\'s own words');
  assert.equal(summarize({ moved: 3, attributes: 1 }), '3 elements moved', 'a table sorted anew');
  assert.equal(summarize({ texts: 2, textText: ['"Checked"'] }), 'text changed: "Checked"', 'a few are quoted');
  assert.equal(summarize({ renamed: 'Copied' }), 'it now reads "Copied"', "the element's own words");
  assert.equal(summarize({ newValue: '' }), 'it was emptied', 'a field a key emptied');
  assert.equal(summarize({ newValue: 're' }), 'its value is now "re"');
  assert.equal(summarize({ renamed: 'Following', texts: 1, added: 1 }), 'it now reads "Following", 1 element added');
  assert.equal(summarize({ texts: 1, said: ['status "Saved"'] }), 'it says status "Saved"', 'what changed, word for word');
  assert.equal(summarize({ added: 1, said: ['alert "Wrong password"'] }), 'it says alert "Wrong password", 1 element added');
  assert.equal(summarize({ shown: 3, hidden: 1 }), '3 elements shown, 1 hidden', 'a menu that opens on hover');
  assert.equal(summarize({ shown: 1, shownText: ['"Enter a valid email"'] }), '1 element shown: "Enter a valid email"');
  assert.equal(summarize({ added: 2, shown: 2, removed: 1, hidden: 1 }), '2 elements added, 1 removed', 'what was added shows');
  assert.equal(summarize({ dialogs: ['dialog "Sure?"'], urlChanged: true, titleChanged: true, elementGone: true }),
    'dialog opened: dialog "Sure?", URL changed (same document), title changed, the element itself is gone');
  assert.equal(summarize({ frameGone: true }), 'the frame it was in is gone', "a consent frame its Accept removed");
  assert.equal(summarize({ frameGone: true, frame: 'iframe "Consent"' }), 'the frame it was in is gone: iframe "Consent"');
  assert.equal(summarize({ dialogsClosed: ['dialog "Choose date"'], fieldsSet: ['textbox "Check-in" now holds "2026-12-08"'] }),
    'textbox "Check-in" now holds "2026-12-08", dialog closed: dialog "Choose date"', 'a date picker\'s day');
  // Search results drawn, and the count of them beside.
  assert.equal(summarize({ added: 3, addedText: ['"Apple Apricot Grape"'], texts: 1, textText: ['"3 results"'] }),
    '3 elements added: "Apple Apricot Grape", text changed: "3 results"');
  // A list drawn anew around the box clicked: the new box's state is the answer.
  const same = { gone: [], came: [], reordered: false };
  assert.equal(summarize({ anew: 'checkbox', anewRef: 'e9', redrawn: same,
    state: { was: { checked: 'false', selected: false }, now: { checked: 'true', selected: false } } }), 'drawn anew as e9, now checked');
  assert.equal(summarize({ anew: 'checkbox', anewRef: 'e9', still: { checked: 'false', selected: false }, redrawn: same }),
    'drawn anew as e9, still unchecked');
  assert.equal(summarize({ anew: 'button "Save"', anewRef: 'e9', still: { selected: false }, redrawn: same }), 'drawn anew as e9');
  assert.equal(summarize({ requestsRunning: 1 }), 'no visible change yet: 1 request it started still running');
  assert.equal(summarize({ texts: 1, requestsRunning: 2 }), 'text changed, 2 requests it started still running');
  assert.equal(summarize({ invalid: { control: 'textbox "Email"', message: 'Please fill out this field.' } }),
    'the form was not sent: textbox "Email": Please fill out this field.', 'the browser stopped the submit');
  assert.equal(summarize({ attributes: 2, invalidNow: [{ control: 'textbox "Email"', message: 'Enter a valid email' }, { control: 'textbox "Name"', message: '' }] }),
    'now invalid: textbox "Email" ("Enter a valid email"), textbox "Name"', 'the fields the page\'s own check marked');
});

test('normalize, truthy and roundBox', () => {
  assert.equal(normalize(' a\r\nb \n'), 'a\nb');
  assert.equal(normalize(undefined), undefined);
  for (const yes of ['true', 'yes', 'on', '1', 'checked', 'x', ' Y ']) assert.equal(truthy(yes), true, yes);
  for (const no of ['false', 'NO', 'off', '0', 'unchecked', '', '  ']) assert.equal(truthy(no), false, no);
  assert.equal(truthy('pro plan', 'Pro plan'), true, 'its own name');
  for (const neither of ['maybe', 'ada@example.com', 'Basic plan']) assert.equal(truthy(neither, 'Pro plan'), undefined, neither);
  assert.equal(truthy(' PRO ', 'Pro plan', 'pro'), true, 'its form value');
  assert.equal(truthy('no', 'No', 'n'), true, 'a radio "No" filled "no" is chosen, not unchecked');
  assert.equal(truthy('no', 'Subscribe', 'yes'), false);
  assert.equal(truthy('', 'Subscribe', ''), false, 'an empty form value names nothing');
  assert.deepEqual(roundBox({ x: 1.4, y: 1.6, width: 10.5, height: 0.2 }), { x: 1, y: 2, width: 11, height: 0 });
});

test('withScrolled says the scroll first, then what else changed', () => {
  assert.equal(withScrolled('scrolled the page to y 300 of 900 px', '8 elements added, 8 removed'), 'scrolled the page to y 300 of 900 px, 8 elements added, 8 removed');
  assert.equal(withScrolled('scrolled the page to y 300 of 900 px', 'no visible change'), 'scrolled the page to y 300 of 900 px');
  assert.equal(withScrolled('scrolled the page to y 300 of 900 px', undefined), 'scrolled the page to y 300 of 900 px');
  assert.equal(withScrolled('no visible change: the page did not move (it is at its end)', 'title changed'), 'title changed');
});

test('scrolled says where the view went, how much it grew, or that nothing moved', () => {
  const page = (/** @type {number} */ top, /** @type {number} */ height, left = 0) => ({ top, left, height });
  assert.equal(scrolled(page(0, 1481), page(525, 2181)), 'scrolled the page to y 525 of 2181 px, it grew 700 px');
  assert.equal(scrolled(page(100, 900), page(0, 900)), 'scrolled the page to y 0 of 900 px');
  assert.equal(scrolled(page(0, 900), page(0, 900, 300)), 'scrolled the page to x 300, y 0 of 900 px');
  const pane = { pane: 'list "Inbox"', top: 400, left: 0, height: 5000 };
  assert.equal(scrolled({ ...pane, top: 0 }, pane), 'scrolled list "Inbox" to y 400 of 5000 px');
  assert.match(scrolled(page(0, 900), page(0, 900)), /^no visible change: the page did not move \(it is at its end/);
  assert.equal(scrolled(pane, pane, true), 'no visible change: list "Inbox" did not move (it is at its end)', 'aimed at it, it is what scrolls');
  assert.equal(scrolled(page(780, 1437), page(780, 2113)), 'the page did not move (it was at its end), and it grew 676 px: scroll again for more',
    'a feed that loads more once the view is at its end');
});

test('steady: a click follows a box that moves a little, with the point well inside it', () => {
  const box = { x: 100, y: 100, width: 80, height: 30 };
  const centre = { x: 140, y: 115 };
  const cases = [
    { name: 'still', b: box, p: centre, want: true },
    { name: 'still, the point at its edge', b: box, p: { x: 100, y: 100 }, want: true },
    { name: 'pulsing by a pixel or two', b: { x: 99, y: 99.5, width: 82, height: 31 }, p: centre, want: true },
    { name: 'sliding 18 px a look', b: { ...box, x: 118 }, p: { x: 158, y: 115 }, want: false },
    { name: 'moving 3 px, the point 2 px from the edge', b: { ...box, x: 103 }, p: { x: 105, y: 115 }, want: false },
    { name: 'no box yet', b: undefined, p: centre, want: false },
  ];
  for (const c of cases) assert.equal(steady(box, c.b, c.p), c.want, c.name);
});

test('quiet: a report in which nothing happened', () => {
  assert.ok(quiet({ added: 0, texts: 0, urlChanged: false, titleChanged: false, focused: true, value: 'x' }),
    'focus and a value are no change');
  for (const r of [{ added: 1 }, { texts: 1 }, { requestsRunning: 1 }, { navigated: true }, { dialogOpen: true },
    { urlChanged: true }, { invalid: { control: 'textbox "Email"', message: 'Fill it' } }]) {
    assert.ok(!quiet(r), JSON.stringify(r));
  }
});

test('kept: the text as filled, as the page formats it, or cut by the field', () => {
  const cases = [
    { want: 'Ada', got: 'Ada', max: undefined, out: { kept: true } },
    { want: 'line\r\n', got: 'line', max: undefined, out: { kept: true } },
    { want: '5551234567', got: '(555) 123-4567', max: undefined, out: { kept: true, formatted: true } },
    { want: 'abc', got: 'ABC', max: undefined, out: { kept: true, formatted: true } },
    { want: '1234.5', got: '1,234.50', max: undefined, out: { kept: true, formatted: true } },
    { want: '123456', got: '1234', max: 4, out: { kept: false, why: 'it keeps at most 4 characters' } },
    { want: '123456', got: '1', max: 1, out: { kept: false, why: 'it keeps at most 1 character (a box of a code split across boxes? clear it, then type the code: keys move from box to box as a person\'s do)' } },
    { want: 'Ada', got: '', max: undefined, out: { kept: false } },
    { want: 'Ada', got: 'Bob', max: undefined, out: { kept: false } },
    { want: '12', got: '13', max: undefined, out: { kept: false } },
  ];
  for (const c of cases) assert.deepEqual(kept(c.want, c.got, c.max), c.out, `${c.want} -> ${c.got}`);
});

test("became says how an element's own states changed, as read_page writes them", () => {
  const off = { checked: 'false', expanded: false, selected: false };
  assert.deepEqual(became(off, { ...off, checked: 'true' }), ['checked']);
  assert.deepEqual(became({ ...off, checked: 'true' }, off), ['unchecked']);
  assert.deepEqual(became(off, { ...off, checked: 'mixed' }), ['mixed']);
  assert.deepEqual(became({ ...off, checked: 'pressed=false' }, { ...off, checked: 'pressed=true' }), ['pressed']);
  assert.deepEqual(became({ ...off, checked: 'pressed=true' }, { ...off, checked: 'pressed=false' }), ['not pressed']);
  assert.deepEqual(became(off, { ...off, selected: true, expanded: true }), ['selected', 'expanded']);
  assert.deepEqual(became({ ...off, expanded: true }, off), ['collapsed']);
  assert.deepEqual(became(off, { ...off, sort: 'ascending' }), ['sorted ascending'], 'a header a table is now sorted by');
  assert.deepEqual(became({ ...off, sort: 'ascending' }, { ...off, sort: 'descending' }), ['sorted descending']);
  assert.deepEqual(became({ ...off, sort: 'ascending' }, off), ['not sorted']);
  assert.deepEqual(became(off, off), []);
  assert.deepEqual(became(off, undefined), []);
  // A state the element no longer has is not a change a person sees.
  assert.deepEqual(became(off, { selected: false }), []);
});

test("summarize puts the element's new state first", () => {
  const state = { was: { checked: 'false', selected: false }, now: { checked: 'true', selected: false } };
  assert.equal(summarize({ state }), 'now checked');
  assert.equal(summarize({ state, shown: 2, shownText: ['"Proxy"'], attributes: 1 }), 'now checked, 2 elements shown: "Proxy"');
  assert.equal(quiet({ state }), false);
});

test('summarize says which dialogs opened and closed', () => {
  assert.equal(summarize({ dialogs: ['dialog "Filters"'], dialogsClosed: ['dialog "Cookies"'] }),
    'dialog opened: dialog "Filters", dialog closed: dialog "Cookies"');
  assert.equal(quiet({ dialogsClosed: ['dialog "Cookies"'] }), false);
  assert.equal(summarize({ dialogsClosed: ['dialog "Cookies"'], removed: 1 }), 'dialog closed: dialog "Cookies"', 'its backdrop went with it');
  assert.equal(summarize({ dialogsClosed: ['dialog "Cookies"'], removed: 1, removedText: ['"Saved"'] }),
    'dialog closed: dialog "Cookies", 1 removed: "Saved"');
});

test('a list that keeps the focus says the option it has active', () => {
  assert.equal(summarize({ active: 'option "Banana"', attributes: 2 }), 'option "Banana" active', 'its aria-selected is the move');
  assert.equal(summarize({ active: 'none' }), 'no option active');
});
