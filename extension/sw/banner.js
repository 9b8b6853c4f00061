// @ts-check
// Banners follow the state: every RUNNING handoff with a tab shows
// page/banner.js in that tab's top frame, again after each main-frame
// navigation, and loses it when the handoff ends or on Stop. sw/human.js
// decides when; this module injects and removes.
//
// What each tab shows lives in memory and is lost with the worker; the state
// (in chrome.storage.session) is not, and sw/human.js passes the previous one
// in, so a new worker still finds the banners an old one left.

import { raceSignal } from '../lib/abort.js';
import { bannerTargets, runningHandoffs } from '../lib/human.js';

/** @typedef {import('../lib/human.js').Banner} Banner */

const BANNER_FILE = 'page/banner.js';
/** What the banner is made of; injected before it. */
const SHELL_FILE = 'page/shell.js';
/**
 * How long one injection may take. A page busy in a loop never runs it, and
 * sw/human.js waits for each banner change before the next state.
 */
const SCRIPT_MS = 3000;

/**
 * chrome.scripting.executeScript, given up on after SCRIPT_MS.
 * @param {chrome.scripting.ScriptInjection<any[], unknown>} injection
 */
function run(injection) {
  return raceSignal(chrome.scripting.executeScript(injection), AbortSignal.timeout(SCRIPT_MS));
}

/**
 * The banner each tab shows, as this worker put it there: the banner's JSON
 * and the document it is in.
 * @type {Map<number, { key: string, documentId?: string }>}
 */
const shown = new Map();
/** Tabs that have had a banner: a page restored from the back-forward cache may still hold one. */
const touched = new Set();
/** Handoffs whose banners Stop removed: they are not shown again. */
const dismissed = new Set();

chrome.tabs.onRemoved.addListener((tabId) => {
  shown.delete(tabId);
  touched.delete(tabId);
});

/**
 * Shows banner in tabId's top frame, injecting page/banner.js first when the
 * document has none. Best effort: a page the extension cannot script (a
 * chrome:// page, the Web Store) has no banner, and the side panel still
 * lists the handoff.
 * @param {number} tabId
 * @param {Banner} banner
 * @returns {Promise<boolean>} whether it is shown
 */
export async function show(tabId, banner) {
  touched.add(tabId);
  /** @type {chrome.scripting.InjectionTarget} */
  const target = { tabId, frameIds: [0] };
  const call = () => run({
    target,
    // As soon as the document exists: page/banner.js waits for <html> itself.
    injectImmediately: true,
    func: (b) => {
      const api = /** @type {any} */ (globalThis).__openchromeBanner;
      if (!api) return false;
      api.show(b);
      return true;
    },
    args: [banner],
  });
  try {
    let [res] = await call();
    if (!res?.result) {
      await run({ target, files: [SHELL_FILE, BANNER_FILE], injectImmediately: true });
      [res] = await call();
    }
    if (!res?.result) throw new Error('page/banner.js did not load');
    shown.set(tabId, { key: JSON.stringify(banner), documentId: res.documentId });
    return true;
  } catch (err) {
    shown.delete(tabId);
    console.debug(`banner: tab ${tabId}: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}

/**
 * Removes tabId's banner.
 * @param {number} tabId
 * @returns {Promise<boolean>} whether there was one
 */
export async function remove(tabId) {
  shown.delete(tabId);
  try {
    const [res] = await run({
      target: { tabId, frameIds: [0] },
      injectImmediately: true,
      func: () => /** @type {any} */ (globalThis).__openchromeBanner?.remove() === true,
    });
    return res?.result === true;
  } catch {
    return false; // the tab is gone, or cannot be scripted and so has none
  }
}

/**
 * Makes the banners follow a new state: shows the new or changed ones,
 * removes those whose handoff is no longer RUNNING.
 * @param {unknown} prev the state before, to find banners a previous worker
 *   showed
 * @param {unknown} next
 */
export async function follow(prev, next) {
  const running = new Set(runningHandoffs(next).map((h) => h.id));
  for (const id of dismissed) if (!running.has(id)) dismissed.delete(id);
  const want = bannerTargets(next, dismissed);
  const jobs = [];
  for (const [tabId, banner] of want) {
    if (shown.get(tabId)?.key !== JSON.stringify(banner)) jobs.push(show(tabId, banner));
  }
  for (const tabId of new Set([...shown.keys(), ...bannerTargets(prev).keys()])) {
    if (!want.has(tabId)) jobs.push(remove(tabId));
  }
  await Promise.all(jobs);
}

/**
 * Puts the banner back after tabId's top frame navigated, or takes a stale
 * one out of a page restored from the back-forward cache.
 * @param {number} tabId
 * @param {string | undefined} documentId the new document
 * @param {unknown} state
 */
export async function navigated(tabId, documentId, state) {
  const banner = bannerTargets(state, dismissed).get(tabId);
  if (banner) {
    const now = shown.get(tabId);
    if (documentId && now?.documentId === documentId && now.key === JSON.stringify(banner)) return;
    await show(tabId, banner);
  } else if (touched.has(tabId)) {
    await remove(tabId);
  }
}

/**
 * Removes every banner, for Stop. Their handoffs get no banner again, even
 * while a state still lists them RUNNING (the daemon ends them soon after).
 * @param {unknown} state
 * @returns {Promise<number>} how many banners it removed
 */
export async function removeAll(state) {
  const targets = bannerTargets(state);
  for (const b of targets.values()) dismissed.add(b.id);
  const tabs = new Set([...shown.keys(), ...touched, ...targets.keys()]);
  const removed = await Promise.all([...tabs].map(remove));
  return removed.filter(Boolean).length;
}
