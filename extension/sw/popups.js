// @ts-check
// Tabs the agent's tabs open (window.open, a target=_blank link, a form
// with a target) are the agent's too: each joins the opener's group, a
// popup window's tab moving into the opener's window first, and its events
// are kept from then on; one opened at a site the person's rules refuse is
// closed. The action that opened one names it in its result,
// so the agent can go on in the new tab at once.

import { sleep } from '../lib/abort.js';
import * as downloads from './downloads.js';
import * as evidence from './evidence.js';
import * as policy from './policy.js';
import { adoptTab, isAgentTab } from './tab-group.js';

/**
 * A tab an agent tab opened.
 * @typedef {{ tabId: number, at: number, adopted: Promise<boolean> }} Opened
 */

/** How long the tabs opened are remembered for a result to name them. */
const REMEMBER_MS = 60 * 1000;
/** How long a result waits for a new tab to join the group. */
const ADOPT_MS = 5000;

/** @type {Map<number, Opened[]>} opener tab id -> the tabs it opened */
const openedBy = new Map();
/** @type {Map<number, number>} tab id -> the agent tab that opened it */
const openers = new Map();

/**
 * A tab just opened, until it shows a page: what it was opened at, by which
 * tab, and whether it showed a page (so was no download) already.
 * @typedef {{ opener: number, url: string, page: boolean }} Unresolved
 */
/** @type {Map<number, Unresolved>} */
const unresolved = new Map();

chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => {
  const at = Date.now();
  /** @type {Unresolved} */
  const u = { opener: d.sourceTabId, url: d.url, page: false };
  unresolved.set(d.tabId, u);
  const adopted = adopt(d.tabId, u);
  const list = (openedBy.get(d.sourceTabId) ?? []).filter((o) => at - o.at < REMEMBER_MS);
  list.push({ tabId: d.tabId, at, adopted });
  openedBy.set(d.sourceTabId, list);
});
chrome.webNavigation.onCommitted.addListener((d) => {
  const u = d.frameId === 0 ? unresolved.get(d.tabId) : undefined;
  if (!u) return;
  unresolved.delete(d.tabId);
  u.page = true;
  downloads.wasPage(u.opener, u.url);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  openedBy.delete(tabId);
  openers.delete(tabId);
  unresolved.delete(tabId);
});

/**
 * Makes tabId the agent's when its opener is. A tab opened at a download
 * closes at once: the download is the opener's, and until the tab shows a
 * page (an empty one never was a download) a result waits for it.
 * @param {number} tabId
 * @param {Unresolved} u
 * @returns {Promise<boolean>} whether it is the agent's now
 */
async function adopt(tabId, u) {
  const openerTabId = u.opener;
  try {
    const [ours, no] = await Promise.all([isAgentTab(openerTabId), policy.refuses(u.url)]);
    if (!ours) {
      unresolved.delete(tabId);
      return false;
    }
    if (no) {
      // Opened where the person's rules keep agents out. Its request left
      // with the tab (Fetch pauses only the requests of a tab attached
      // before them): the agent is kept from the page, closed at once.
      unresolved.delete(tabId);
      policy.refusedNewTab(openerTabId, no, u.url);
      await chrome.tabs.remove(tabId);
      return false;
    }
    if (!u.page && u.url !== 'about:blank') downloads.began(openerTabId, u.url);
    await adoptTab(tabId, openerTabId);
    openers.set(tabId, openerTabId);
    await evidence.watch(tabId).catch(() => {}); // kept busy by someone else: still ours
    return true;
  } catch {
    return false; // closed at once, or the opener went
  }
}

/**
 * The tabs tabId opened since start (a Date.now() value) that joined the
 * agent's group, waiting a little for those still joining.
 * @param {number} tabId
 * @param {number} start
 * @returns {Promise<number[]>}
 */
export async function openedSince(tabId, start) {
  const recent = (openedBy.get(tabId) ?? []).filter((o) => o.at >= start);
  if (!recent.length) return [];
  const deadline = sleep(ADOPT_MS).then(() => false);
  const ours = await Promise.all(recent.map((o) => Promise.race([o.adopted, deadline])));
  return recent.filter((_, i) => ours[i]).map((o) => o.tabId);
}

/**
 * The agent tab that opened tabId, when one did.
 * @param {number} tabId
 * @returns {number | undefined}
 */
export function openerOf(tabId) {
  return openers.get(tabId);
}
