// @ts-check
// What input did to a tab: whether it navigated it or opened a dialog, and
// where the tab is now. For input that has no element to watch (input.*,
// and element.act's press without a ref).

import { sleep } from '../lib/abort.js';
import * as dialogs from './dialogs.js';
import * as navigation from './navigation.js';

/** How long a page may take to react to input before we look. */
export const SETTLE_MS = 60;
/** How long to wait for a navigation the input started. */
export const NAVIGATION_MS = 15000;

/**
 * Where the tab is after input that began at start (a Date.now() value),
 * and whether the input navigated it or opened a dialog.
 * @param {number} tabId
 * @param {number} start
 * @param {AbortSignal} signal
 * @returns {Promise<Record<string, unknown>>}
 */
export async function afterInput(tabId, start, signal) {
  await sleep(SETTLE_MS, signal);
  const navigated = await navigation.settleNavigation(tabId, start, NAVIGATION_MS, signal);
  const tab = await chrome.tabs.get(tabId);
  /** @type {Record<string, unknown>} */
  const out = { navigated, url: tab.url, title: tab.title };
  const d = dialogs.current(tabId);
  if (d) out.dialog = dialogs.describe(d);
  return out;
}

/**
 * Runs input fn unless a dialog blocks the page, and says what it did; a
 * dialog fn opens ends the wait for fn at once.
 * @param {number} tabId
 * @param {(signal: AbortSignal) => Promise<unknown>} fn
 * @param {AbortSignal} signal
 */
export async function runInput(tabId, fn, signal) {
  dialogs.refuseWhileOpen(tabId);
  const start = Date.now();
  const next = dialogs.next(tabId);
  try {
    await Promise.race([fn(signal), next.opened]);
  } finally {
    next.cancel();
  }
  return afterInput(tabId, start, signal);
}
