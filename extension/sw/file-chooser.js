// @ts-check
// File choosers an agent tab opens. sw/evidence.js has CDP intercept them
// (Page.setInterceptFileChooserDialog), so none shows: the click that opened
// one says so, and upload_file answers it with the files the agent names
// (sw/upload.js). A chooser lasts until it is answered or its page goes.

import * as cdp from './cdp.js';
import { onCommit } from './navigation.js';

/**
 * An open chooser: when it opened, whether it takes several files, and the
 * file input behind it (CDP's backend node id), when an input opened it.
 * @typedef {{ at: number, multiple: boolean, backendNodeId?: number }} Chooser
 */

/** @type {Map<number, Chooser>} */
const open = new Map();

cdp.onEvent('Page.fileChooserOpened', (tabId, params) => {
  open.set(tabId, { at: Date.now(), multiple: params.mode === 'selectMultiple', backendNodeId: params.backendNodeId });
});
onCommit((tabId) => open.delete(tabId));
chrome.tabs.onRemoved.addListener((tabId) => open.delete(tabId));

/**
 * The chooser tabId opened since start (a Date.now() value), if any.
 * @param {number} tabId
 * @param {number} start
 * @returns {Chooser | undefined}
 */
export function openedSince(tabId, start) {
  const c = open.get(tabId);
  return c && c.at >= start ? c : undefined;
}

/**
 * The chooser open in tabId, if any.
 * @param {number} tabId
 * @returns {Chooser | undefined}
 */
export function current(tabId) {
  return open.get(tabId);
}

/**
 * The chooser of tabId has been answered.
 * @param {number} tabId
 */
export function answered(tabId) {
  open.delete(tabId);
}
