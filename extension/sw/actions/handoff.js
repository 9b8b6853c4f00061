// @ts-check
// handoff.state: a handoff's before and after snapshot of a tab
// (docs/human.md).

import { ActionError } from '../../lib/errors.js';
import { originOf } from '../../lib/human.js';
import { tabAction } from '../../lib/router.js';
import * as pageScript from '../page-script.js';
import * as cdp from '../cdp.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * handoff.state: what a handoff snapshot holds of a tab, and nothing the
 * person typed: the URL, title and origin, how many cookies Chrome would
 * send to the URL (never their values), the top frame's localStorage key
 * names and the fingerprint of its element structure. The host redacts the
 * URL.
 * @type {TabAction}
 */
async function state(_params, { tabId, tab, signal }) {
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
 * The page script's part. A page no extension may script (a PDF, an error
 * page) has no keys to read and no structure to fingerprint: '' says so,
 * rather than failing the handoff around it.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @returns {Promise<{ storageKeys: string[], domFingerprint: string }>}
 */
async function pageState(tabId, signal) {
  try {
    const { data } = await pageScript.call({ tabId, frameId: 0 }, 'handoffState', {}, signal);
    return { storageKeys: data.storageKeys, domFingerprint: data.domFingerprint };
  } catch (err) {
    if (err instanceof ActionError && err.code === 'tab_not_allowed') {
      return { storageKeys: [], domFingerprint: '' };
    }
    throw err;
  }
}

export const ACTIONS = [
  tabAction('handoff.state', state),
];
