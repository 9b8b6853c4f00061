// @ts-check
// What observe.set keeps about a tab while it is on: console errors and
// warnings and uncaught exceptions (CDP Runtime and Log domains), every
// request the tab makes as it completes or fails (webRequest), and main-frame
// navigations (webNavigation). Entries go to a per-tab ring (lib/ring.js)
// that observe.events reads.
//
// All of it lives in the worker's memory: a worker restart loses every
// buffer and ends every observation (observe.events then says observing: false
// and numbers from 1 again). That is acceptable: the open native port keeps
// the worker alive while an agent works, and evidence is a debugging aid,
// not a record.

import {
  fromCommit,
  fromConsoleAPI,
  fromException,
  fromLogEntry,
  fromRequest,
} from '../lib/evidence.js';
import { Ring } from '../lib/ring.js';
import * as cdp from './cdp.js';
import { isAgentTab } from './tab-group.js';

/** @typedef {import('../lib/evidence.js').Entry} Entry */
/** @typedef {import('../lib/ring.js').RingQuery} RingQuery */
/** @typedef {import('../lib/ring.js').RingPage<Entry>} RingPage */

/** Each tab's entries, kept until read or the tab closes. @type {Map<number, Ring<Entry>>} */
const buffers = new Map();
/** Tabs whose events we keep now. @type {Set<number>} */
const observing = new Set();
/**
 * Each tab's last start or stop, so that they run one after another: an
 * enable must not overtake the disable before it.
 * @type {Map<number, Promise<unknown>>}
 */
const chains = new Map();

/**
 * When each tab's observation restarted, for tabs observed before: enabling
 * the domains replays what the document logged, and what it logged while we
 * kept nothing (or had kept already) must not come back as new entries.
 * @type {Map<number, number>}
 */
const replayCutoff = new Map();

/**
 * Records a CDP event's entry unless it is a replay of one logged before the
 * tab's observation restarted.
 * @param {number} tabId
 * @param {number | undefined} timestamp the event's, in ms since the epoch
 * @param {Entry | undefined} entry
 */
function recordLogged(tabId, timestamp, entry) {
  const cutoff = replayCutoff.get(tabId);
  if (cutoff !== undefined && typeof timestamp === 'number' && timestamp < cutoff) return;
  record(tabId, entry);
}

/**
 * @param {number} tabId
 * @param {Entry | undefined} entry
 */
function record(tabId, entry) {
  if (!entry || !observing.has(tabId)) return;
  let ring = buffers.get(tabId);
  if (!ring) buffers.set(tabId, (ring = new Ring()));
  ring.push(entry);
}

// Registered at the top level, in the worker's first evaluation: an event
// that wakes a stopped worker is dispatched only to the listeners present
// then.
cdp.onEvent('Runtime.consoleAPICalled', (tabId, p) => recordLogged(tabId, p.timestamp, fromConsoleAPI(p)));
cdp.onEvent('Runtime.exceptionThrown', (tabId, p) => recordLogged(tabId, p.timestamp, fromException(p)));
cdp.onEvent('Log.entryAdded', (tabId, p) => recordLogged(tabId, p.entry?.timestamp, fromLogEntry(p)));
// The session, and the domains we enabled on it, are gone (the user
// dismissed the debugging bar, DevTools took the tab, the tab closed).
cdp.onEvent('detached', (tabId) => {
  observing.delete(tabId);
  keepAlive();
});

// sw/navigation.js listens to main-frame requests only, for its waits; the
// evidence is every request of the tab, subframes and subresources too. One
// listener for all tabs, filtered here: the observed set changes more often
// than listeners should.
/** @type {chrome.webRequest.RequestFilter} */
const ALL_URLS = { urls: ['<all_urls>'] };
chrome.webRequest.onCompleted.addListener((d) => {
  if (observing.has(d.tabId)) record(d.tabId, fromRequest(d));
}, ALL_URLS);
chrome.webRequest.onErrorOccurred.addListener((d) => {
  if (observing.has(d.tabId)) record(d.tabId, fromRequest(d));
}, ALL_URLS);
// Our own listener rather than navigation.js's onCommit, which passes the
// tab id only, not the URL and transition an entry needs.
chrome.webNavigation.onCommitted.addListener((d) => {
  if (observing.has(d.tabId)) record(d.tabId, fromCommit(d));
});
chrome.tabs.onRemoved.addListener((tabId) => {
  observing.delete(tabId);
  buffers.delete(tabId);
  replayCutoff.delete(tabId);
  chains.delete(tabId);
  keepAlive();
});
// A tab dragged out of the group loses its debugger (sw/tab-group.js) without
// a 'detached' event, and with it the domains: observation ends there. The
// buffer stays, for the tab may come back.
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.groupId === undefined || !observing.has(tabId)) return;
  isAgentTab(tabId).then((ours) => {
    if (!ours && observing.delete(tabId)) keepAlive();
  });
});

/**
 * Runs fn after tabId's previous start or stop has settled.
 * @template T
 * @param {number} tabId
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
function serialized(tabId, fn) {
  const run = (chains.get(tabId) ?? Promise.resolve()).then(fn, fn);
  chains.set(tabId, run.catch(() => {}));
  return run;
}

/**
 * Starts keeping tabId's events; nothing happens when it is on already.
 * Enabling the domains replays the console messages and log entries the
 * document already has: the first time a tab is observed they are kept, so
 * errors from before the call are there too; later they are dropped.
 * @param {number} tabId
 * @returns {Promise<void>}
 * @throws {unknown} what attaching the debugger throws (conflict, …)
 */
export function start(tabId) {
  return serialized(tabId, async () => {
    if (observing.has(tabId)) return;
    if (buffers.has(tabId)) replayCutoff.set(tabId, Date.now());
    else buffers.set(tabId, new Ring());
    // Before enabling: the replay arrives before the command's answer.
    observing.add(tabId);
    keepAlive();
    try {
      await cdp.send(tabId, 'Runtime.enable');
      await cdp.send(tabId, 'Log.enable');
    } catch (err) {
      observing.delete(tabId);
      keepAlive();
      cdp.send(tabId, 'Runtime.disable').catch(() => {});
      throw err;
    }
  });
}

/**
 * Stops keeping tabId's events and disables the domains start enabled; the
 * buffer stays until read or the tab closes. Nothing happens when it is off.
 * @param {number} tabId
 * @returns {Promise<void>}
 */
export function stop(tabId) {
  return serialized(tabId, async () => {
    if (!observing.delete(tabId)) return;
    keepAlive();
    // Best effort: the page may have gone where the debugger cannot follow,
    // and observation is off either way.
    await Promise.all([
      cdp.send(tabId, 'Runtime.disable').catch(() => {}),
      cdp.send(tabId, 'Log.disable').catch(() => {}),
    ]);
  });
}

/**
 * Stops every observation (Stop, browser.stop).
 * @returns {Promise<number>} how many tabs were observed
 */
export async function stopAll() {
  const tabs = [...observing];
  await Promise.all(tabs.map(stop));
  return tabs.length;
}

/**
 * Reports whether tabId's events are being kept.
 * @param {number} tabId
 * @returns {boolean}
 */
export function isObserving(tabId) {
  return observing.has(tabId);
}

/**
 * Reads tabId's buffer; an empty page when it has none.
 * @param {number} tabId
 * @param {RingQuery} query
 * @returns {RingPage}
 */
export function read(tabId, query) {
  return (buffers.get(tabId) ?? new Ring()).read(query);
}

/**
 * How often observed tabs are visited. sw/cdp.js detaches a tab after five
 * idle minutes, and with the session would go the domains, silently: a
 * command at least this often keeps the session, and the "started
 * debugging" bar, for as long as the agent observes.
 */
const KEEPALIVE_MS = 60 * 1000;
/** @type {ReturnType<typeof setInterval> | undefined} */
let keepAliveTimer;

/** Runs the keep-alive while some tab is observed, and only then. */
function keepAlive() {
  if (observing.size && !keepAliveTimer) {
    keepAliveTimer = setInterval(visitAll, KEEPALIVE_MS);
  } else if (!observing.size && keepAliveTimer) {
    clearInterval(keepAliveTimer);
    keepAliveTimer = undefined;
  }
}

function visitAll() {
  for (const tabId of observing) {
    serialized(tabId, async () => {
      if (!observing.has(tabId)) return;
      if (!(await isAgentTab(tabId))) {
        observing.delete(tabId); // not ours any more: no command may touch it
        keepAlive();
        return;
      }
      // An enable of an enabled domain is a no-op that replays nothing, and
      // restores the domain if the session was made anew meanwhile (its
      // replay may then repeat a few entries).
      await cdp.send(tabId, 'Runtime.enable');
      await cdp.send(tabId, 'Log.enable');
    }).catch(() => {});
  }
}
