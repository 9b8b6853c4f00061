// @ts-check
// Waiting for a tab's main-frame navigation: the owner of the webNavigation
// and webRequest listeners. Each wait registers a NavigationWatch for its tab
// before the navigation starts, so no event of it can be missed; the
// listeners feed every watch of the tab.

import { raceSignal } from '../lib/abort.js';
import { NavigationWatch } from '../lib/navigation.js';

/** @typedef {import('../lib/navigation.js').NavigationEvent} NavigationEvent */
/** @typedef {import('../lib/navigation.js').NavigationOutcome} NavigationOutcome */

/** Watches by tab id. @type {Map<number, Set<NavigationWatch>>} */
const watches = new Map();
/**
 * Events kept while a tab is being made, whose id is not known until
 * chrome.tabs.create returns, after its navigation may have begun.
 * @type {Set<Array<{ tabId: number, event: NavigationEvent }>>}
 */
const buffers = new Set();

/**
 * @param {number} tabId
 * @param {NavigationEvent} event
 */
function deliver(tabId, event) {
  for (const watch of watches.get(tabId) ?? []) watch.feed(event);
  for (const buffer of buffers) buffer.push({ tabId, event });
}

// Registered at the top level, in the worker's first evaluation: an event
// that wakes a stopped worker is dispatched only to the listeners present
// then. Frame 0 is the tab's main frame (prerendered and fenced frames have
// other ids).
chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'start', url: d.url });
});
chrome.webNavigation.onCompleted.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'complete', url: d.url });
});
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'error', error: d.error });
});
chrome.webNavigation.onReferenceFragmentUpdated.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'same-document', url: d.url });
});
chrome.webNavigation.onHistoryStateUpdated.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'same-document', url: d.url });
});
/**
 * @param {{ frameId: number, tabId: number, statusCode: number, url: string }} d
 * @returns {undefined} (a non-blocking listener)
 */
const onResponse = (d) => {
  // Chrome reports file: loads here too, with a made-up 200; only HTTP has
  // a status.
  if (d.frameId === 0 && d.tabId >= 0 && d.statusCode && /^https?:/.test(d.url)) {
    deliver(d.tabId, { kind: 'status', url: d.url, status: d.statusCode });
  }
};
/** @type {chrome.webRequest.RequestFilter} */
const MAIN_FRAME = { urls: ['<all_urls>'], types: ['main_frame'] };
chrome.webRequest.onHeadersReceived.addListener(onResponse, MAIN_FRAME);
// A response served from the cache may skip onHeadersReceived.
chrome.webRequest.onCompleted.addListener(onResponse, MAIN_FRAME);
chrome.tabs.onRemoved.addListener((tabId) => deliver(tabId, { kind: 'removed' }));

/**
 * @param {number} tabId
 * @param {NavigationWatch} watch
 * @returns {() => void} removes the watch
 */
function addWatch(tabId, watch) {
  let set = watches.get(tabId);
  if (!set) watches.set(tabId, (set = new Set()));
  set.add(watch);
  return () => {
    set.delete(watch);
    if (set.size === 0 && watches.get(tabId) === set) watches.delete(tabId);
  };
}

/**
 * Starts a navigation of tabId with begin and waits for its main frame to
 * finish it.
 * @param {number} tabId
 * @param {() => Promise<unknown>} begin e.g. () => chrome.tabs.reload(tabId)
 * @param {object} options
 * @param {AbortSignal} options.signal
 * @param {string} [options.expectUrl] the URL navigated to, when known
 * @returns {Promise<NavigationOutcome>}
 */
export async function navigate(tabId, begin, { signal, expectUrl }) {
  signal.throwIfAborted();
  const watch = new NavigationWatch({ expectUrl });
  const remove = addWatch(tabId, watch);
  try {
    await raceSignal(begin(), signal);
    return await raceSignal(watch.done, signal);
  } finally {
    remove();
  }
}

/**
 * Makes a tab with create, which starts it loading expectUrl, and waits for
 * the load to finish. Once create has returned, onCreated gets the tab (to
 * close it if the wait fails).
 * @param {() => Promise<chrome.tabs.Tab>} create
 * @param {object} options
 * @param {AbortSignal} options.signal
 * @param {string} options.expectUrl
 * @param {(tab: chrome.tabs.Tab) => void} options.onCreated
 * @returns {Promise<NavigationOutcome>}
 */
export async function load(create, { signal, expectUrl, onCreated }) {
  signal.throwIfAborted();
  /** @type {Array<{ tabId: number, event: NavigationEvent }>} */
  const buffer = [];
  buffers.add(buffer);
  let tab;
  try {
    // Not raced against the signal: a tab made after we stopped waiting
    // could not be closed.
    tab = await create();
  } finally {
    buffers.delete(buffer);
  }
  const tabId = /** @type {number} */ (tab.id);
  onCreated(tab);
  const watch = new NavigationWatch({ expectUrl });
  const remove = addWatch(tabId, watch);
  for (const { tabId: id, event } of buffer) if (id === tabId) watch.feed(event);
  try {
    return await raceSignal(watch.done, signal);
  } finally {
    remove();
  }
}
