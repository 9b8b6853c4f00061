// @ts-check
// What the extension keeps of each agent tab, from the moment the tab joins
// the OpenChrome group until it leaves it or closes: console messages of every
// level and uncaught exceptions (CDP Runtime and Log), its requests (CDP
// Network, lib/network.js), and main-frame navigations (webNavigation). The
// console, exceptions, ended requests and navigations go to a per-tab ring
// (lib/ring.js) that observe.events and console.read read; the requests in
// detail to a per-tab NetworkLog that network.list and network.get read.
//
// Watching a tab keeps its debugger attached (and Chrome's "started
// debugging" bar up) for as long as the tab is the agent's: that is what lets
// load-time messages and every request be there when the agent asks. The
// person's Stop, or their Cancel on the bar, ends that until the tab's next
// command: nothing here attaches again (sw/cdp.js sendInSession).
//
// All of it lives in the worker's memory: a worker restart loses the buffers;
// the next watch numbers from 1 again. The open native port keeps the worker
// alive while an agent works.

import { fromCommit, fromConsoleAPI, fromException, fromLogEntry } from '../lib/evidence.js';
import { NetworkLog } from '../lib/network.js';
import { Ring } from '../lib/ring.js';
import * as cdp from './cdp.js';
import * as clickables from './clickables.js';
import * as policy from './policy.js';
import { isAgentTab, listTabs } from './tab-group.js';

/** @typedef {import('../lib/evidence.js').Entry} Entry */
/** @typedef {import('../lib/ring.js').RingQuery} RingQuery */
/** @typedef {import('../lib/ring.js').RingPage<Entry>} RingPage */

/** How many entries a tab's ring keeps. */
const RING_ENTRIES = 1000;

/** Each tab's entries, kept until the tab closes. @type {Map<number, Ring<Entry>>} */
const rings = new Map();
/** Each tab's requests. @type {Map<number, NetworkLog>} */
const networks = new Map();
/** Tabs whose events we keep now. @type {Set<number>} */
const watched = new Set();
/** Tabs whose watch is starting their session: it enables their domains itself. @type {Set<number>} */
const starting = new Set();
/**
 * Each tab's last watch or unwatch, so that they run one after another: an
 * enable must not overtake the disable before it.
 * @type {Map<number, Promise<unknown>>}
 */
const chains = new Map();
/**
 * When each tab's domains were last enabled anew: enabling replays what the
 * document logged, and what was kept already must not come back twice.
 * @type {Map<number, number>}
 */
const replayCutoff = new Map();
/** Where the extension's own scripts load from. */
const OWN_URL = chrome.runtime.getURL('');

/**
 * Records a CDP event's entry unless it is a replay of one logged before the
 * tab's domains were enabled again.
 * @param {number} tabId
 * @param {number | undefined} timestamp the event's, in ms since the epoch
 * @param {Entry | undefined} entry
 */
function recordLogged(tabId, timestamp, entry) {
  // What our own page scripts make the page log (Chrome's note that a
  // read laid out a subtree content-visibility hides) is ours, not the
  // page's: neither its console nor its errors.
  if (entry?.url?.startsWith(OWN_URL)) return;
  const cutoff = replayCutoff.get(tabId);
  if (cutoff !== undefined && typeof timestamp === 'number' && timestamp < cutoff) return;
  record(tabId, entry);
}

/**
 * @param {number} tabId
 * @param {Entry | undefined} entry
 */
function record(tabId, entry) {
  if (!entry || !watched.has(tabId)) return;
  ringOf(tabId).push(entry);
}

/** @param {number} tabId */
function ringOf(tabId) {
  let ring = rings.get(tabId);
  if (!ring) rings.set(tabId, (ring = new Ring({ capacity: RING_ENTRIES })));
  return ring;
}

/** @param {number} tabId */
function networkOf(tabId) {
  let log = networks.get(tabId);
  if (!log) networks.set(tabId, (log = new NetworkLog()));
  return log;
}

/**
 * Feeds a Network event to the tab's log; an ended request also goes to the
 * ring, as evidence and recordings show requests.
 * @param {number} tabId
 * @param {(log: NetworkLog) => void} apply
 * @param {string} [requestId] the request that may have ended
 */
function network(tabId, apply, requestId) {
  if (!watched.has(tabId)) return;
  const log = networkOf(tabId);
  const before = requestId === undefined ? undefined : log.byRequestId.get(requestId);
  apply(log);
  if (before && before.state !== 'pending') {
    /** @type {Entry} */
    const entry = { kind: 'request', method: before.method, url: before.url, type: before.type,
      fromCache: !!before.fromCache, id: before.id };
    if (before.status !== undefined && /^https?:/i.test(before.url)) entry.status = before.status;
    if (before.error) entry.error = before.error;
    record(tabId, entry);
  }
}

// Registered at the top level, in the worker's first evaluation: an event
// that wakes a stopped worker is dispatched only to the listeners present
// then.
// The tab's own session's, and those of its out-of-process frames (a
// cross-site frame's console and requests are the page's too).
/** @type {Array<(method: string, fn: (tabId: number, params: any, sessionId?: string) => void) => void>} */
const sessions = [cdp.onEvent, cdp.onChildEvent];
for (const on of sessions) {
  on('Runtime.consoleAPICalled', (tabId, p) => recordLogged(tabId, p.timestamp, fromConsoleAPI(p)));
  on('Runtime.exceptionThrown', (tabId, p) => recordLogged(tabId, p.timestamp, fromException(p)));
  on('Log.entryAdded', (tabId, p) => recordLogged(tabId, p.entry?.timestamp, fromLogEntry(p)));
  on('Network.requestWillBeSent', (tabId, p, sessionId) => network(tabId, (log) => log.sent(p, sessionId), p.redirectResponse ? p.requestId : undefined));
  on('Network.responseReceived', (tabId, p) => network(tabId, (log) => log.responded(p)));
  on('Network.requestServedFromCache', (tabId, p) => network(tabId, (log) => log.cached(p)));
  on('Network.loadingFinished', (tabId, p) => network(tabId, (log) => log.finished(p), p.requestId));
  on('Network.loadingFailed', (tabId, p) => network(tabId, (log) => log.failed(p), p.requestId));
  // An out-of-process frame attached: its console and requests are kept
  // as the tab's are (sw/clickables.js enables its Runtime).
  on('Target.attachedToTarget', (tabId, { sessionId, targetInfo }) => {
    if (!watched.has(tabId) || targetInfo?.type !== 'iframe' || !sessionId) return;
    cdp.sendInSession(tabId, 'Log.enable', {}, { sessionId }).catch(() => {});
    cdp.sendInSession(tabId, 'Network.enable', { maxTotalBufferSize: 2_000_000, maxResourceBufferSize: 1_000_000 }, { sessionId }).catch(() => {});
  });
}
// A new debugger session (after the person's Stop, the user dismissed the
// bar, a crash, a worker restart) has none of our domains: enable them
// again, keeping what was kept, before the command that attached goes on:
// a click's navigation must not get past the site policy's interception.
// A watch starting the session enables them itself.
cdp.onEvent('attached', (tabId) => {
  if (!watched.has(tabId) || starting.has(tabId)) return undefined;
  return serialized(tabId, () => enable(tabId, true)).catch(() => {});
});

// Our own listener rather than navigation.js's onCommit, which passes the
// tab id only, not the URL and transition an entry needs.
chrome.webNavigation.onCommitted.addListener((d) => {
  if (watched.has(d.tabId)) record(d.tabId, fromCommit(d));
});
chrome.tabs.onRemoved.addListener((tabId) => {
  watched.delete(tabId);
  rings.delete(tabId);
  networks.delete(tabId);
  replayCutoff.delete(tabId);
  chains.delete(tabId);
  keepAlive();
});
// A tab joins or leaves the group: the user dragged it, or we grouped a
// popup. Leaving takes its debugger with it (sw/tab-group.js); the buffers
// stay, for the tab may come back.
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.groupId === undefined) return;
  isAgentTab(tabId).then((ours) => {
    if (ours) watch(tabId).catch(() => {});
    else unwatch(tabId);
  });
});

/**
 * Runs fn after tabId's previous watch or unwatch has settled.
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
 * Enables the domains the buffers are fed from. Enabling replays the
 * console messages and log entries the document already has: kept the
 * first time (load-time messages are evidence too), dropped when the tab's
 * ring has them already. In the session there is: Stop may end it
 * meanwhile, and then the tab's next command enables them again.
 * @param {number} tabId
 * @param {boolean} again
 */
async function enable(tabId, again) {
  if (again) replayCutoff.set(tabId, Date.now());
  await cdp.sendInSession(tabId, 'Runtime.enable');
  await cdp.sendInSession(tabId, 'Log.enable');
  await cdp.sendInSession(tabId, 'Network.enable', { maxTotalBufferSize: 10_000_000, maxResourceBufferSize: 1_000_000 });
  // A click that opens a file chooser shows none: the click's result says
  // so, and upload_file answers it (sw/file-chooser.js, sw/upload.js).
  await cdp.sendInSession(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true }).catch(() => {});
  // The person's site policy on the navigations the tab makes itself.
  await policy.enable(tabId);
  // Its out-of-process frames attach as child sessions from the start, so
  // that what they log and fetch as the page loads is kept.
  await clickables.autoAttach(tabId);
}

/**
 * Starts keeping tabId's events; nothing happens when it is watched already.
 * @param {number} tabId
 * @returns {Promise<void>}
 * @throws {unknown} what attaching the debugger throws (conflict, …)
 */
export function watch(tabId) {
  return serialized(tabId, async () => {
    if (watched.has(tabId)) return;
    const again = rings.has(tabId);
    // Before enabling: the replay arrives before the command's answer.
    watched.add(tabId);
    keepAlive();
    starting.add(tabId);
    try {
      await cdp.attach(tabId);
      await enable(tabId, again);
    } catch (err) {
      watched.delete(tabId);
      keepAlive();
      throw err;
    } finally {
      starting.delete(tabId);
    }
  });
}

/**
 * Stops keeping tabId's events: the tab is no longer the agent's.
 * @param {number} tabId
 */
export function unwatch(tabId) {
  if (watched.delete(tabId)) keepAlive();
}

/**
 * Reports whether tabId's events are being kept.
 * @param {number} tabId
 * @returns {boolean}
 */
export function isWatched(tabId) {
  return watched.has(tabId);
}

/**
 * Watches every agent tab there is: at the worker's start, the group's tabs
 * are the agent's whatever memory was lost.
 * @returns {Promise<void>}
 */
export async function watchAll() {
  const tabs = await listTabs().catch(() => []);
  await Promise.all(tabs.map((t) => (t.id === undefined ? undefined : watch(t.id).catch(() => {}))));
}

/**
 * Reads tabId's ring; an empty page when it has none.
 * @param {number} tabId
 * @param {RingQuery} query
 * @returns {RingPage}
 */
export function read(tabId, query) {
  return (rings.get(tabId) ?? new Ring()).read(query);
}

/**
 * The uncaught exceptions tabId's pages threw since ts (a Date.now()
 * value), the last three, one line each: an action's result says what its
 * handler threw, which "no visible change" alone hides.
 * @param {number} tabId
 * @param {number} ts
 * @returns {string[]}
 */
export function exceptionsSince(tabId, ts) {
  const ring = rings.get(tabId);
  if (!ring) return [];
  return ring.entries.flatMap((e) => (e.kind === 'exception' && e.ts >= ts ? [e.text.split('\n', 1)[0]] : [])).slice(-3);
}

/**
 * tabId's requests.
 * @param {number} tabId
 * @returns {NetworkLog}
 */
export function requestsOf(tabId) {
  return networks.get(tabId) ?? new NetworkLog();
}

/**
 * How often watched tabs are visited. sw/cdp.js detaches a tab after five
 * idle minutes, and with the session would go the domains, silently: a
 * command at least this often keeps the session for as long as the tab is
 * the agent's. Only a session there is: one that ended (the person's Stop,
 * their Cancel on the debugging bar) is started again by the tab's next
 * command, not by this.
 */
const KEEPALIVE_MS = 60 * 1000;
/** @type {ReturnType<typeof setInterval> | undefined} */
let keepAliveTimer;

/** Runs the keep-alive while some tab is watched, and only then. */
function keepAlive() {
  if (watched.size && !keepAliveTimer) {
    keepAliveTimer = setInterval(visitAll, KEEPALIVE_MS);
  } else if (!watched.size && keepAliveTimer) {
    clearInterval(keepAliveTimer);
    keepAliveTimer = undefined;
  }
}

function visitAll() {
  for (const tabId of watched) {
    serialized(tabId, async () => {
      if (!watched.has(tabId)) return;
      if (!(await isAgentTab(tabId))) {
        watched.delete(tabId); // not ours any more: no command may touch it
        keepAlive();
        return;
      }
      // An enable of an enabled domain is a no-op that replays nothing.
      await cdp.sendInSession(tabId, 'Runtime.enable');
    }).catch(() => {});
  }
}
