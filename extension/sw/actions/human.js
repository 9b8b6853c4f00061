// @ts-check
// The actions behind handoffs and Stop (docs/human.md): page.handoffState,
// a handoff's before and after snapshot, and browser.stop.

import { ActionError } from '../../lib/errors.js';
import { originOf } from '../../lib/human.js';
import { tabIdParam } from '../../lib/params.js';
import * as agent from '../agent.js';
import * as cdp from '../cdp.js';
import { stopLocally } from '../human.js';
import { checkTab } from '../tab-group.js';

/** @typedef {import('../../lib/router.js').Action} Action */

/**
 * page.handoffState: what a handoff snapshot holds of a tab, and nothing
 * the person typed: the URL, title and origin, how many cookies Chrome
 * would send to the URL (never their values), the top frame's localStorage
 * key names and the fingerprint of its element structure. The host redacts
 * the URL.
 * @type {Action}
 */
export async function handoffState(params, { signal }) {
  const tabId = tabIdParam(params);
  const tab = await checkTab(tabId);
  const url = tab.url ?? '';
  const [cookieCount, page] = await Promise.all([
    countCookies(tabId, url, signal),
    pageState(tabId, signal),
  ]);
  return { url, title: tab.title ?? '', origin: originOf(url), cookieCount, ...page };
}

/**
 * How many cookies Chrome would send to url; 0 for a URL that is not
 * http(s). The cookies themselves stay here.
 * @param {number} tabId
 * @param {string} url
 * @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
async function countCookies(tabId, url, signal) {
  if (!/^https?:/i.test(url)) return 0;
  const { cookies } = await cdp.send(tabId, 'Network.getCookies', { urls: [url] }, { signal });
  return Array.isArray(cookies) ? cookies.length : 0;
}

/**
 * The page agent's part. A page no extension may script (a PDF, an error
 * page) has no keys to read and no structure to fingerprint: '' says so,
 * rather than failing the handoff around it.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @returns {Promise<{ storageKeys: string[], domFingerprint: string }>}
 */
async function pageState(tabId, signal) {
  try {
    const { data } = await agent.call({ tabId, frameId: 0 }, 'handoffState', {}, signal);
    return { storageKeys: data.storageKeys, domFingerprint: data.domFingerprint };
  } catch (err) {
    if (err instanceof ActionError && err.code === 'tab_not_allowed') {
      return { storageKeys: [], domFingerprint: '' };
    }
    throw err;
  }
}

/**
 * browser.stop: cancels every other command in flight, removes every
 * banner, ends every observation and detaches the debugger from every tab.
 * @type {Action}
 */
export async function stop(_params, { id }) {
  return stopLocally(id);
}
