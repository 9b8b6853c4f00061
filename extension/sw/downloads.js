// @ts-check
// The downloads the agent's tabs start (lib/downloads.js says which those
// are). The ledger lives in chrome.storage.session too, so a worker that
// stops and starts again still knows them; the person's downloads are never
// in it.

import { sleep } from '../lib/abort.js';
import { DownloadLedger, describe, settled } from '../lib/downloads.js';
import * as cdp from './cdp.js';

/** @typedef {import('../lib/downloads.js').Download} Download */

const KEY = 'downloads';
/** Every use waits for loaded. */
let ledger = new DownloadLedger();
const loaded = chrome.storage.session.get(KEY)
  .then((v) => {
    /** @type {import('../lib/downloads.js').Owned[]} */
    const saved = Array.isArray(v[KEY]) ? v[KEY] : [];
    ledger = new DownloadLedger({ saved });
  })
  .catch(() => {});
/** @type {Set<() => void>} */
const waiters = new Set();
/** How long an action's result waits for a download its page began. */
const MAKING_MS = 2000;

function changed() {
  chrome.storage.session.set({ [KEY]: ledger.toJSON() }).catch(() => {});
  wake();
}

function wake() {
  for (const fn of waiters) fn();
}

// Our sessions are on agent tabs only (the gate): a download one begins is
// the agent's.
cdp.onEvent('Page.downloadWillBegin', (tabId, params) => {
  began(tabId, String(params.url ?? ''));
});
chrome.downloads.onCreated.addListener((item) => {
  loaded.then(() => {
    if (ledger.created(item.id, item.url, item.finalUrl)) changed();
  });
});
chrome.downloads.onChanged.addListener(wake);
chrome.downloads.onErased.addListener((id) => {
  loaded.then(() => {
    ledger.erased(id);
    changed();
  });
});

/**
 * Agent tab tabId began, or may have begun, a download of url: a tab it
 * opened at url that turns out to be a download closes before our debugger
 * could see it, so sw/popups.js says so too.
 * @param {number} tabId
 * @param {string} url
 */
export function began(tabId, url) {
  loaded.then(() => {
    if (ledger.began(tabId, url)) changed();
  });
}

/**
 * What agent tab tabId began at url showed a page: it was no download, and
 * a result need not wait for one.
 * @param {number} tabId
 * @param {string} url
 */
export function wasPage(tabId, url) {
  loaded.then(() => {
    if (ledger.wasPage(tabId, url)) wake();
  });
}

/**
 * The agent's downloads, of tabId only when given, oldest first, as the
 * browser has them now.
 * @param {number} [tabId]
 * @returns {Promise<Array<Download & { exists: boolean }>>}
 */
export async function list(tabId) {
  await loaded;
  const owned = ledger.list(tabId);
  const found = await Promise.all(owned.map((o) => chrome.downloads.search({ id: o.id })));
  return owned.flatMap((o, i) => found[i].map((item) => ({ ...describe(item, o.tabId), exists: item.exists })));
}

/**
 * The downloads tabId started since start (a Date.now() value), for the
 * result of the action that started them.
 * @param {number} tabId
 * @param {number} start
 * @returns {Promise<Array<{ id: number, name: string }>>}
 */
export async function startedSince(tabId, start) {
  await loaded;
  // The page asked for a download the browser is still making.
  const deadline = Date.now() + MAKING_MS;
  while (ledger.awaiting(tabId) && Date.now() < deadline) {
    await changeWithin(deadline - Date.now());
  }
  if (!ledger.list(tabId).some((o) => o.at >= start)) return [];
  const since = async () => (await list(tabId)).filter((d) => (ledger.owned.get(d.id)?.at ?? 0) >= start);
  let started = await since();
  // Chrome names the file a moment after the download begins.
  while (started.some((d) => !d.name) && Date.now() < deadline) {
    await changeWithin(deadline - Date.now());
    started = await since();
  }
  return started.map((d) => ({ id: d.id, name: d.name || d.url }));
}

/**
 * The downloads a navigation of tabId that Chrome called off
 * (net::ERR_ABORTED) turned into, since start: the error can come before
 * the download is reported, so a download is waited for up to ms.
 * @param {number} tabId
 * @param {number} start
 * @param {number} ms
 * @returns {Promise<Array<{ id: number, name: string }>>}
 */
export async function navigatedTo(tabId, start, ms) {
  await loaded;
  const deadline = Date.now() + ms;
  while (!ledger.awaiting(tabId) && !ledger.list(tabId).some((o) => o.at >= start) && Date.now() < deadline) {
    await changeWithin(deadline - Date.now());
  }
  return startedSince(tabId, start);
}

/**
 * Resolves at the next change to a download, or after ms.
 * @param {number} ms
 * @returns {Promise<void>}
 */
function changeWithin(ms) {
  return new Promise((resolve) => {
    const done = () => {
      waiters.delete(done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, ms);
    waiters.add(done);
  });
}

/**
 * Waits up to ms until there is a download of tabId (of any agent tab when
 * undefined) and none is still in progress; answers the list either way.
 * @param {number | undefined} tabId
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<{ downloads: Download[], settled: boolean }>}
 */
export async function waitFor(tabId, ms, signal) {
  const deadline = Date.now() + ms;
  for (;;) {
    // Listen before looking, so a change between the two is not missed.
    /** @type {() => void} */
    let fire = () => {};
    const next = new Promise((resolve) => {
      fire = () => resolve(undefined);
      waiters.add(fire);
    });
    try {
      const downloads = await list(tabId);
      const done = settled(downloads);
      const left = deadline - Date.now();
      if (done || left <= 0) return { downloads, settled: done };
      await Promise.race([next, sleep(left, signal)]);
    } finally {
      waiters.delete(fire);
    }
  }
}
