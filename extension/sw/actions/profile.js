// @ts-check
// profile.*: what of the person's profile the engine must not let out. The
// values go to the daemon only, which masks them in the result of the call
// that asked (lib/secrets.js says which values).

import { tabAction } from '../../lib/router.js';
import { cookieValues, credentialValues } from '../../lib/secrets.js';
import * as dialogs from '../dialogs.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * profile.secrets: the values of the tab's site's cookies and of its web
 * storage entries that are credentials, and the tab's URL (for the call's
 * audit entry). A page that is not http(s) has none.
 * @type {TabAction}
 */
async function secrets(_params, { tabId, tab }) {
  const url = tab.url ?? '';
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return { values: [], url };
  } catch {
    return { values: [], url };
  }
  // chrome.cookies, not the debugger: reading them must not attach it
  // again to a tab the person's Stop let go of.
  const [cookies, stored] = await Promise.all([
    chrome.cookies.getAll({ url: tab.url }).catch(() => []),
    storageOf(tabId),
  ]);
  return { values: [...new Set([...cookieValues(cookies), ...credentialValues(stored)])], url };
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

export const ACTIONS = [
  tabAction('profile.secrets', secrets),
];
