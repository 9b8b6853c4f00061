// @ts-check
/// <reference types="node" />
// The watch of the input that opened a dialog is kept for that dialog's
// answer only: sw/dialogs.js against a stand-in chrome.debugger whose
// events a test fires.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, installChrome } from './testdata.js';

const onEvent = event();
installChrome({ debugger: { onEvent, onDetach: event() } });

/** @type {typeof import('./dialogs.js')} */
const dialogs = await import('./dialogs.js');

/**
 * A watch that records when it is ended.
 * @returns {{ look: import('./dialogs.js').Look, ended: () => boolean }}
 */
function watch() {
  let stopped = false;
  return {
    look: async (stop) => {
      if (stop) stopped = true;
      return {};
    },
    ended: () => stopped,
  };
}

/** @param {number} tabId @param {string} message */
function opens(tabId, message) {
  onEvent.fire({ tabId }, 'Page.javascriptDialogOpening', { type: 'confirm', message });
}

/** @param {number} tabId */
function closes(tabId) {
  onEvent.fire({ tabId }, 'Page.javascriptDialogClosed', {});
}

test("the answer to the input's dialog takes its watch", () => {
  const w = watch();
  opens(1, 'Delete it?');
  dialogs.holdWatch(1, w.look);
  assert.equal(dialogs.takeWatch(1), w.look);
  assert.equal(dialogs.takeWatch(1), undefined, 'taken once');
  assert.equal(w.ended(), false, 'the answer ends it, once it has looked');
  closes(1);
});

test("a dialog the input did not open (the person answered the input's, a timer opened this one) gets no watch", () => {
  const w = watch();
  opens(2, 'Delete it?');
  dialogs.holdWatch(2, w.look);
  closes(2);
  opens(2, 'Still there?');
  assert.equal(dialogs.takeWatch(2), undefined);
  assert.equal(w.ended(), true, 'the old watch ends');
  closes(2);
});

test('a watch kept while no dialog is open ends at once', () => {
  const w = watch();
  dialogs.holdWatch(3, w.look);
  assert.equal(w.ended(), true);
  opens(3, 'Later?');
  assert.equal(dialogs.takeWatch(3), undefined);
  closes(3);
});

test('a second watch kept ends the first', () => {
  const [a, b] = [watch(), watch()];
  opens(4, 'One?');
  dialogs.holdWatch(4, a.look);
  dialogs.holdWatch(4, b.look);
  assert.equal(a.ended(), true);
  assert.equal(dialogs.takeWatch(4), b.look);
  closes(4);
});
