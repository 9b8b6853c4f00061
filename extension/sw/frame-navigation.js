// @ts-check
// Navigations of a tab's frames (sw/navigation.js follows its main frame):
// a link or a form in an iframe takes the frame to another document and
// leaves the page around it where it was. An input on an element in a
// frame is answered with where its frame went, not with what the frame's
// old document showed as it was torn down.

import { raceSignal } from '../lib/abort.js';

/**
 * A frame's navigation: when it began, where it goes, and whether it
 * committed a document or failed.
 * @typedef {{ frameId: number, at: number, url: string, committed: boolean, failed: boolean }} FrameNavigation
 */

/** How long a frame's navigation is remembered. */
const KEPT_MS = 60 * 1000;

/** tabId -> its frames' navigations, oldest first. @type {Map<number, FrameNavigation[]>} */
const navigations = new Map();
/** tabId -> who waits for one of its frames' navigations to begin or end. @type {Map<number, Set<() => void>>} */
const waiters = new Map();

/** @param {number} tabId */
function wake(tabId) {
  for (const fn of waiters.get(tabId) ?? []) fn();
}

/**
 * The latest navigation of tabId's frameId, when it is remembered.
 * @param {number} tabId
 * @param {number} frameId
 */
function latest(tabId, frameId) {
  return (navigations.get(tabId) ?? []).filter((n) => n.frameId === frameId).at(-1);
}

// Registered at the top level, as sw/navigation.js's: a stopped worker is
// woken only for the listeners present in its first evaluation.
chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  if (d.frameId === 0 || d.parentFrameId < 0) return; // the main frame, or a prerendered page
  const now = Date.now();
  const list = (navigations.get(d.tabId) ?? []).filter((n) => now - n.at < KEPT_MS);
  list.push({ frameId: d.frameId, at: now, url: d.url, committed: false, failed: false });
  navigations.set(d.tabId, list);
  wake(d.tabId);
});
chrome.webNavigation.onCommitted.addListener((d) => {
  const nav = d.frameId === 0 ? undefined : latest(d.tabId, d.frameId);
  if (!nav) return;
  nav.committed = true;
  nav.url = d.url;
  wake(d.tabId);
});
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  const nav = d.frameId === 0 ? undefined : latest(d.tabId, d.frameId);
  if (!nav || nav.committed) return;
  nav.failed = true;
  wake(d.tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => navigations.delete(tabId));

/**
 * The frames of tabId that navigated since (a Date.now() value), and where
 * each went: waits up to beginMs for one to begin, and then up to endMs for
 * each begun to commit its document or fail. A navigation that failed
 * (called off, a download) left its frame where it was and is not said; one
 * still waiting for its server when the time is up is, with the address it
 * goes to.
 * @param {number} tabId
 * @param {number} since
 * @param {{ frameId?: number, beginMs: number, endMs: number, signal: AbortSignal }} opts frameId:
 *   that frame's only; any of the tab's frames when not given (an element a
 *   same-origin frame's document holds, which the top's page script reads)
 * @returns {Promise<FrameNavigation[]>}
 */
export async function navigatedSince(tabId, since, { frameId, beginMs, endMs, signal }) {
  const begun = () => (navigations.get(tabId) ?? []).filter((n) => n.at >= since && (frameId === undefined || n.frameId === frameId));
  const ended = () => begun().every((n) => n.committed || n.failed);
  await until(tabId, () => begun().length > 0, beginMs, signal);
  if (begun().length) await until(tabId, ended, endMs, signal);
  // One entry a frame: its last navigation says where it is.
  const last = new Map(begun().map((n) => [n.frameId, n]));
  return [...last.values()].filter((n) => !n.failed);
}

/**
 * Resolves once done() holds, re-asked as tabId's frames navigate, or
 * after ms.
 * @param {number} tabId
 * @param {() => boolean} done
 * @param {number} ms
 * @param {AbortSignal} signal
 */
async function until(tabId, done, ms, signal) {
  if (done() || ms <= 0) return;
  let set = waiters.get(tabId);
  if (!set) waiters.set(tabId, (set = new Set()));
  /** @type {(v?: unknown) => void} */
  let resolve = () => {};
  const settled = new Promise((r) => {
    resolve = r;
  });
  const check = () => {
    if (done()) resolve();
  };
  const timer = setTimeout(resolve, ms);
  set.add(check);
  try {
    await raceSignal(settled, signal);
  } finally {
    clearTimeout(timer);
    set.delete(check);
    if (!set.size) waiters.delete(tabId);
  }
}
