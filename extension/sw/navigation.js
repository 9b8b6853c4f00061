// @ts-check
// Waiting for a tab's main-frame navigation: the owner of the webNavigation
// and webRequest listeners. Each wait registers a NavigationWatch for its tab
// before the navigation starts, so no event of it can be missed; the
// listeners feed every watch of the tab.

import { raceSignal, sleep } from '../lib/abort.js';
import { NavigationWatch } from '../lib/navigation.js';

/** @typedef {import('../lib/navigation.js').NavigationEvent} NavigationEvent */
/** @typedef {import('../lib/navigation.js').NavigationOutcome} NavigationOutcome */

/**
 * How long a document that is ready is given for its load event: a page
 * whose text is there but whose slow image, ad or script holds the event
 * back is answered, still loading, after this (as Playwright MCP does), by
 * navigate and by an action that navigated.
 */
export const LOAD_GRACE_MS = 5000;

/**
 * How often, once LOAD_GRACE_MS have passed since a document committed and
 * it is still not parsed, it is looked at for something drawn.
 */
const DRAWN_POLL_MS = 500;

/** Watches by tab id. @type {Map<number, Set<NavigationWatch>>} */
const watches = new Map();

/**
 * Each tab's main-frame navigation in progress, if any: when it started, and
 * the promise that settles when it ends (completes, fails or is replaced).
 * @type {Map<number, { since: number, ended: Promise<void>, end: () => void }>}
 */
const inProgress = new Map();
/**
 * Each tab's last main-frame navigation: when it started, whether it
 * committed a document, its error if it failed, and the documentId of the
 * document it leaves (whose load, if still going, Chrome calls off after
 * this one has begun).
 * @type {Map<number, { at: number, url: string, committed: boolean, committedAt?: number, answered?: boolean, status?: number, error?: string, leaves?: string }>}
 */
const last = new Map();
/** The documentId of each tab's main-frame document, as it committed. @type {Map<number, string>} */
const shown = new Map();
/** Who waits for each tab's next main-frame navigation to begin. @type {Map<number, Set<() => void>>} */
const beginning = new Map();

/**
 * @param {number} tabId
 * @param {NavigationEvent} event
 */
function deliver(tabId, event) {
  for (const watch of watches.get(tabId) ?? []) watch.feed(event);
  track(tabId, event);
}

/**
 * Follows whether a tab's main frame is navigating, for actions that may
 * start a navigation without asking for one (a click on a link).
 * @param {number} tabId
 * @param {NavigationEvent} event
 */
function track(tabId, event) {
  if (event.kind === 'start') {
    last.set(tabId, { at: Date.now(), url: event.url, committed: false, leaves: shown.get(tabId) });
    inProgress.get(tabId)?.end();
    /** @type {() => void} */
    let end = () => {};
    const ended = new Promise((r) => {
      end = () => r(undefined);
    });
    const entry = { since: Date.now(), ended, end: () => {} };
    entry.end = () => {
      if (inProgress.get(tabId) === entry) inProgress.delete(tabId);
      end();
    };
    inProgress.set(tabId, entry);
    for (const fn of beginning.get(tabId) ?? []) fn();
  } else if (event.kind === 'status') {
    // The server answered (a redirect is not its answer yet).
    const nav = last.get(tabId);
    if (nav && (event.status < 300 || event.status >= 400)) Object.assign(nav, { answered: true, status: event.status });
  } else if (event.kind === 'ready') {
    // Its words are there: a load event a slow image holds back is given
    // LOAD_GRACE_MS, as navigate gives it.
    const going = inProgress.get(tabId);
    if (going) setTimeout(going.end, LOAD_GRACE_MS);
  } else if (event.kind === 'complete' || event.kind === 'error') {
    const nav = last.get(tabId);
    // The page being left, called off: not the end of this navigation.
    if (event.kind === 'error' && event.documentId && event.documentId === nav?.leaves) return;
    if (nav && event.kind === 'error') nav.error = event.error;
    inProgress.get(tabId)?.end();
  } else if (event.kind === 'removed') {
    inProgress.get(tabId)?.end();
    last.delete(tabId);
    shown.delete(tabId);
  }
}

/**
 * Reports whether tabId's main frame navigated since (a Date.now() value),
 * waiting at most timeoutMs for a navigation that started since to end. A
 * navigation that turned into a download (or a 204, or was called off)
 * leaves the page where it was: net::ERR_ABORTED, nothing committed. One
 * still going when the wait is up counts.
 * @param {number} tabId
 * @param {number} since
 * @param {number} timeoutMs
 * @param {AbortSignal} signal
 * @returns {Promise<boolean>}
 */
export async function settleNavigation(tabId, since, timeoutMs, signal) {
  const nav = last.get(tabId);
  if (!nav || nav.at < since) return false;
  const going = inProgress.get(tabId);
  if (going) {
    // A document a hanging script or a stream keeps from being parsed ends
    // the wait once it shows something, as navigate answers it.
    const stop = new AbortController();
    try {
      await raceSignal(Promise.race([
        going.ended,
        new Promise((r) => setTimeout(r, timeoutMs)),
        drawnSinceCommit(tabId, stop.signal),
      ]), signal);
    } finally {
      stop.abort();
    }
  }
  return nav.committed || inProgress.has(tabId) || (nav.error !== undefined && nav.error !== 'net::ERR_ABORTED');
}

/**
 * Where tabId's main frame is going, while a navigation that began since
 * (a Date.now() value) has had no answer yet: a server slow to answer a
 * form keeps the old page shown, and the tab's URL is still the old one.
 * @param {number} tabId
 * @param {number} since
 * @returns {string | undefined}
 */
export function goingTo(tabId, since) {
  const nav = last.get(tabId);
  return nav && nav.at >= since && !nav.committed && inProgress.has(tabId) ? nav.url || undefined : undefined;
}

/**
 * Whether tabId's main frame waits for a server's answer to a navigation:
 * the page it leaves still shows, and, while the browser readies the
 * navigation, its debugger holds commands back, though nothing of the
 * page's own keeps it busy.
 * @param {number} tabId
 */
export function awaitsServer(tabId) {
  const nav = last.get(tabId);
  return !!nav && !nav.committed && !nav.answered && inProgress.has(tabId);
}

/**
 * The status of 400 or more the server answered tabId's main-frame
 * navigation that began since (a Date.now() value) with: a link to a page
 * that is gone, a form the server turned down. The page it shows then is
 * the server's error page.
 * @param {number} tabId
 * @param {number} since
 * @returns {number | undefined}
 */
export function refusedWith(tabId, since) {
  const nav = last.get(tabId);
  return nav && nav.at >= since && (nav.status ?? 0) >= 400 ? nav.status : undefined;
}

/**
 * Whether tabId's main frame began to navigate since (a Date.now() value).
 * @param {number} tabId
 * @param {number} since
 */
export function startedSince(tabId, since) {
  const nav = last.get(tabId);
  return !!nav && nav.at >= since;
}

/**
 * Waits, at most timeoutMs, until tabId's main frame has begun to navigate
 * since (a Date.now() value), and reports whether it has. An input's settle
 * ends so when the input navigates; and a navigation the page itself says it
 * began (a form it submitted) is waited for so: the browser tells the
 * worker a moment after the page knows, and on a busy machine more than a
 * moment.
 * @param {number} tabId
 * @param {number} since
 * @param {number} timeoutMs
 * @param {AbortSignal} signal
 * @returns {Promise<boolean>}
 */
export async function begun(tabId, since, timeoutMs, signal) {
  if (startedSince(tabId, since)) return true;
  let waiters = beginning.get(tabId);
  if (!waiters) beginning.set(tabId, (waiters = new Set()));
  /** @type {() => void} */
  let wake = () => {};
  const began = new Promise((resolve) => {
    wake = () => resolve(undefined);
  });
  waiters.add(wake);
  const timer = setTimeout(wake, timeoutMs);
  try {
    await raceSignal(began, signal);
  } finally {
    clearTimeout(timer);
    waiters.delete(wake);
    if (!waiters.size) beginning.delete(tabId);
  }
  return startedSince(tabId, since);
}

// Registered at the top level, in the worker's first evaluation: an event
// that wakes a stopped worker is dispatched only to the listeners present
// then. Frame 0 is the tab's main frame (prerendered and fenced frames have
// other ids).
chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'start', url: d.url });
});
/** Subscribers to main-frame commits. @type {Set<(tabId: number) => void>} */
const commitSubscribers = new Set();
chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId !== 0) return;
  shown.set(d.tabId, d.documentId);
  const nav = last.get(d.tabId);
  if (nav) {
    nav.committed = true;
    nav.committedAt = Date.now();
  }
  deliver(d.tabId, { kind: 'commit', url: d.url });
  for (const fn of commitSubscribers) fn(d.tabId);
});

/**
 * Calls fn with the tab's id each time a tab's main frame commits a new
 * document: its content is arriving, its scripts have not run yet.
 * @param {(tabId: number) => void} fn
 */
export function onCommit(fn) {
  commitSubscribers.add(fn);
}

chrome.webNavigation.onDOMContentLoaded.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'ready', url: d.url });
});
chrome.webNavigation.onCompleted.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'complete', url: d.url });
});
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  if (d.frameId === 0) deliver(d.tabId, { kind: 'error', error: d.error, documentId: d.documentId });
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
 * Resolves once the document tabId committed last has, LOAD_GRACE_MS after
 * its commit and still loading, shown a person something: a page whose
 * parsing a script that hangs, or a response that streams, holds back shows
 * what came before, but has no DOMContentLoaded until the rest comes. Only
 * the agent's own waits ask, so only its tabs are looked at. Rejects when
 * stop aborts.
 * @param {number} tabId
 * @param {AbortSignal} stop
 * @returns {Promise<void>}
 */
async function drawnSinceCommit(tabId, stop) {
  for (;;) {
    const at = last.get(tabId)?.committedAt;
    if (at !== undefined && Date.now() - at >= LOAD_GRACE_MS && await drawn(tabId)) return;
    await sleep(DRAWN_POLL_MS, stop);
  }
}

/**
 * Whether tabId's main-frame document shows anything: words, or an image,
 * canvas, video or frame with a size. False when no script may run there.
 * @param {number} tabId
 */
async function drawn(tabId) {
  const [r] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    world: 'ISOLATED',
    injectImmediately: true, // not held until the document is ready
    func: () => {
      const body = document.body;
      if (!body) return false;
      if (body.innerText.trim() !== '') return true;
      return [...body.querySelectorAll('img, svg, canvas, video, iframe')].some((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
      });
    },
  }).catch(() => []);
  return r?.result === true;
}

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
 * finish it: its load event, or LOAD_GRACE_MS after its document is ready
 * (or, not ready, committed and showing something).
 * @param {number} tabId
 * @param {() => Promise<unknown>} begin e.g. () => chrome.tabs.reload(tabId)
 * @param {object} options
 * @param {AbortSignal} options.signal
 * @param {string} [options.expectUrl] the URL navigated to, when known
 * @returns {Promise<NavigationOutcome>}
 */
export async function navigate(tabId, begin, { signal, expectUrl }) {
  signal.throwIfAborted();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let grace;
  const now = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  const over = new AbortController();
  const watch = new NavigationWatch({
    expectUrl,
    replaces: now?.documentId,
    onReady: () => { grace = setTimeout(() => watch.stillLoading(), LOAD_GRACE_MS); },
    onCommit: () => drawnSinceCommit(tabId, over.signal).then(() => watch.stillLoading(true), () => {}),
  });
  const remove = addWatch(tabId, watch);
  try {
    await raceSignal(begin(), signal);
    return await raceSignal(watch.done, signal);
  } finally {
    clearTimeout(grace);
    over.abort();
    remove();
  }
}

