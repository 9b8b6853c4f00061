// @ts-check
// The person's site policy on the navigations an agent tab makes itself: a
// click on a link, a script setting location, a redirect. CDP's Fetch
// pauses every document request of an agent tab before it leaves the
// browser (sw/evidence.js enables it with the tab's other domains); one the
// rules refuse is aborted there (the tab stays on its page, as after a
// download), and the action that started it says domain_blocked. The rules come with the side panel's
// state; until a worker has them, it waits rather than guess.

import { check } from '../lib/policy.js';
import * as cdp from './cdp.js';

/** @typedef {import('../lib/policy.js').Rules} Rules */
/** @typedef {import('../lib/policy.js').Refusal} Refusal */

/** @type {Rules | undefined} */
let rules;
/** @type {() => void} */
let haveRules = () => {};
/** Settles once rules are known: from a state frame, or a worker before. */
const known = new Promise((resolve) => {
  haveRules = () => resolve(undefined);
});
// sw/human.js keeps the last state frame in storage.session under "state".
chrome.storage.session.get('state').then((stored) => {
  const p = /** @type {{ policy?: Rules } | undefined} */ (stored.state)?.policy;
  if (p && rules === undefined) rules = p;
  if (p) haveRules();
}).catch(() => {});

/**
 * A navigation refused: newTab when it was a tab the agent's tab opened,
 * which was closed.
 * @typedef {Refusal & { url: string, at: number, newTab?: boolean }} Refused
 */
/** tabId -> the last navigation refused in it or in a tab it opened. @type {Map<number, Refused>} */
const refused = new Map();

cdp.onEvent('Fetch.requestPaused', (tabId, params) => {
  const url = String(params.request?.url ?? '');
  refuses(url).then((no) => {
    if (!no) {
      cdp.sendInSession(tabId, 'Fetch.continueRequest', { requestId: params.requestId }).catch(() => {});
      return;
    }
    refused.set(tabId, { ...no, url, at: Date.now() });
    cdp.sendInSession(tabId, 'Fetch.failRequest', { requestId: params.requestId, errorReason: 'Aborted' }).catch(() => {});
  });
});

/**
 * Why the rules refuse url, or undefined when they let an agent tab reach
 * it. A worker that knows no rules yet waits for them a moment: what waits
 * on the answer does not go ahead under no policy.
 * @param {string} url
 * @returns {Promise<Refusal | undefined>}
 */
export async function refuses(url) {
  await Promise.race([known, new Promise((r) => setTimeout(r, 2000))]);
  return check(rules, url);
}

/**
 * Notes that a tab openerTabId opened, at url, was closed because the rules
 * refuse it: the action that opened it says so (refusedSince).
 * @param {number} openerTabId
 * @param {Refusal} no
 * @param {string} url
 */
export function refusedNewTab(openerTabId, no, url) {
  refused.set(openerTabId, { ...no, url, at: Date.now(), newTab: true });
}
chrome.tabs.onRemoved.addListener((tabId) => refused.delete(tabId));

/**
 * Takes the rules of a state frame (sw/human.js passes each on).
 * @param {Rules | undefined} next
 */
export function setRules(next) {
  if (!next) return;
  rules = next;
  haveRules();
}

/**
 * Pauses tabId's document requests for the policy to decide.
 * @param {number} tabId
 */
export function enable(tabId) {
  return cdp.sendInSession(tabId, 'Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] });
}

/**
 * The navigation refused in tabId since start (a Date.now() value), if any.
 * @param {number} tabId
 * @param {number} start
 */
export function refusedSince(tabId, start) {
  const r = refused.get(tabId);
  return r && r.at >= start ? r : undefined;
}

/**
 * A refusal as an action's answer says it (navigationBlocked).
 * @param {Refused} r
 */
export function said(r) {
  return { url: r.url, message: r.message, hint: r.hint, ...(r.newTab ? { newTab: true } : {}) };
}
