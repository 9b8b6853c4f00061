// @ts-check
// What of the person's profile the engine must not let out: the values of a
// tab's site's cookies and of its web storage entries that are credentials
// (lib/secrets.js says which). They go to the daemon only, which masks them
// in the result of the call that read them; profile.secrets reads them, and
// tab.navigate, tab.create, page.snapshot and element.act with their answer.

import { cookieValues, credentialValues } from '../lib/secrets.js';
import * as dialogs from './dialogs.js';

/**
 * The secrets of the site of url, open in tabId. A page that is not
 * http(s) has none.
 * @param {number} tabId
 * @param {string} url
 * @returns {Promise<string[]>}
 */
export async function siteSecrets(tabId, url) {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return [];
  } catch {
    return [];
  }
  // chrome.cookies, not the debugger: reading them must not attach it
  // again to a tab the person's Stop let go of.
  const [cookies, stored] = await Promise.all([
    chrome.cookies.getAll({ url }).catch(() => []),
    storageOf(tabId),
  ]);
  return [...new Set([...cookieValues(cookies), ...credentialValues(stored)])];
}

/**
 * The top frame's localStorage and sessionStorage entries, read in our
 * world (chrome.debugger gives extensions no DOMStorage domain). Bounded:
 * 200 entries of 4 KB. None while a dialog holds the page, which runs no
 * script then.
 * @param {number} tabId
 * @returns {Promise<Array<[string, string]>>}
 */
async function storageOf(tabId) {
  if (dialogs.current(tabId)) return [];
  try {
    const [res] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      world: 'ISOLATED',
      injectImmediately: true,
      // Runs in the page: self-contained, no closure.
      func: () => {
        /** @type {Array<[string, string]>} */
        const out = [];
        for (const name of /** @type {const} */ (['localStorage', 'sessionStorage'])) {
          try {
            const store = globalThis[name];
            for (let i = 0; i < store.length && out.length < 200; i++) {
              const k = store.key(i);
              if (k !== null) out.push([k, String(store.getItem(k) ?? '').slice(0, 4096)]);
            }
          } catch {
            // storage blocked, or an opaque origin
          }
        }
        return out;
      },
    });
    return /** @type {Array<[string, string]>} */ (res?.result ?? []);
  } catch {
    return [];
  }
}
