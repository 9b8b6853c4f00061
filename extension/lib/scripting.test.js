// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import { scriptingError } from './scripting.js';

test("chrome.scripting's failures become coded errors", () => {
  const cases = [
    // Chrome's own texts, as chrome.scripting rejects with them.
    { text: 'Frame with ID 0 is showing error page', code: 'not_found', says: /error page/ },
    { text: 'Cannot access a chrome:// URL', code: 'tab_not_allowed', says: /does not let extensions/ },
    { text: 'Cannot access contents of url "https://chromewebstore.google.com/". Extension manifest must request permission to access this host.', code: 'tab_not_allowed', says: /does not let/ },
    { text: 'The extensions gallery cannot be scripted.', code: 'tab_not_allowed', says: /does not let/ },
    { text: 'No tab with id: 12.', code: 'tab_not_found', says: /tab is gone/ },
    { text: 'No frame with id 4 in tab 12.', code: 'not_found', says: /frame is gone/ },
  ];
  for (const c of cases) {
    const got = scriptingError(new Error(c.text));
    assert.ok(got instanceof ActionError, c.text);
    assert.equal(got.code, c.code, c.text);
    assert.match(got.message, c.says, c.text);
    assert.ok(got.hint, `${c.text}: a hint names the fix`);
  }
});

test('a document that is gone is a stale ref only when the call aimed at one', () => {
  const err = new Error('No document with id ABC in tab 12');
  const got = scriptingError(err, { documentId: 'ABC' });
  assert.ok(got instanceof ActionError);
  assert.equal(got.code, 'stale_ref');
  assert.equal(scriptingError(err), err);
});

test('errors it does not know, coded errors and aborts pass through', () => {
  const unknown = new Error('something else');
  assert.equal(scriptingError(unknown), unknown);
  const coded = new ActionError('conflict', 'x');
  assert.equal(scriptingError(coded), coded);
  const abort = new DOMException('stopped', 'AbortError');
  assert.equal(scriptingError(abort), abort);
});
