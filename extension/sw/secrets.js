// @ts-check
// What of the person's profile the engine must not let out: the values of a
// tab's site's cookies, of its web storage entries and of its address's
// parameters that are credentials (lib/secrets.js says which), and what its secret fields hold. They go to
// the daemon only, which masks them; profile.secrets reads them, and
// tab.navigate, tab.create, page.snapshot and element.act with their answer.

import { cookieValues, credentialValues, urlValues } from '../lib/secrets.js';
import * as dialogs from './dialogs.js';
import { framesRead } from './page-script.js';

/**
 * What of the person's profile a tab holds: secrets, the values of its
 * site's cookies and stored credentials, masked in the result of the call
 * that read them; and held, what is in its secret fields (a password, a
 * one-time code; where pageHolds looks), which the engine masks from then
 * on, in every result and log line: a page that logs the password the person
 * typed, or echoes it on the next page.
 * @typedef {{ secrets: string[], held: string[] }} SiteSecrets
 */

/**
 * The secrets of the site of url, open in tabId. A page that is not
 * http(s) has none.
 * @param {number} tabId
 * @param {string} url
 * @returns {Promise<SiteSecrets>}
 */
export async function siteSecrets(tabId, url) {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return { secrets: [], held: [] };
  } catch {
    return { secrets: [], held: [] };
  }
  // chrome.cookies, not the debugger: reading them must not attach it
  // again to a tab the person's Stop let go of.
  const [cookies, page] = await Promise.all([
    chrome.cookies.getAll({ url }).catch(() => []),
    pageHolds(tabId),
  ]);
  return {
    secrets: [...new Set([...cookieValues(cookies), ...credentialValues(page.stored), ...urlValues(url)])],
    held: [...new Set(page.held)],
  };
}

/**
 * The top frame's localStorage and sessionStorage entries, and the values
 * of the secret fields of the top document, its same-origin frames and the
 * cross-origin frames a read walked, read in our world (chrome.debugger
 * gives extensions no DOMStorage domain). Not in other frames: our world
 * there would stand before the page script does, and sw/clickables.js takes
 * a frame with our world for one it can mark. Bounded: 200 entries of 4 KB,
 * 50 fields. None while a dialog holds the page, which runs no script then.
 * @param {number} tabId
 * @returns {Promise<{ stored: Array<[string, string]>, held: string[] }>}
 */
async function pageHolds(tabId) {
  if (dialogs.current(tabId)) return { stored: [], held: [] };
  // One frame at a time: a frame gone since its read fails alone.
  const answers = await Promise.all([0, ...framesRead(tabId)].map((frameId) => chrome.scripting.executeScript({
    target: { tabId, frameIds: [frameId] }, world: 'ISOLATED', injectImmediately: true, func: heldIn,
  }).catch(() => [])));
  /** @type {{ stored: Array<[string, string]>, held: string[] }} */
  const out = { stored: [], held: [] };
  for (const { frameId, result } of answers.flat()) {
    const r = /** @type {ReturnType<typeof heldIn> | undefined} */ (result);
    if (!r) continue;
    if (frameId === 0) out.stored = r.stored;
    out.held.push(...r.held);
  }
  return out;
}

/**
 * Runs in a frame, self-contained: its storage entries when it is the top
 * frame, and what its secret fields hold, in its shadow roots and its
 * same-origin frames too.
 * @returns {{ stored: Array<[string, string]>, held: string[] }}
 */
function heldIn() {
  /** @type {Array<[string, string]>} */
  const stored = [];
  if (window === window.top) {
    for (const name of /** @type {const} */ (['localStorage', 'sessionStorage'])) {
      try {
        const store = globalThis[name];
        for (let i = 0; i < store.length && stored.length < 200; i++) {
          const k = store.key(i);
          if (k !== null) stored.push([k, String(store.getItem(k) ?? '').slice(0, 4096)]);
        }
      } catch {
        // storage blocked, or an opaque origin
      }
    }
  }
  // The page script's test of a secret field, and its way into closed
  // shadow roots, where it is loaded; a password field's type and custom
  // elements' roots otherwise.
  const roles = /** @type {any} */ (globalThis).__openchrome?.roles;
  /** @type {(el: Element) => unknown} */
  const secret = roles?.secretOf ?? ((el) => el instanceof HTMLInputElement && el.type === 'password');
  /** @type {(el: Element) => ShadowRoot | null} */
  const shadowOf = roles?.shadowOf ?? ((el) => el.shadowRoot
    ?? (el.tagName.includes('-') ? chrome.dom.openOrClosedShadowRoot(/** @type {HTMLElement} */ (el)) : null));
  /** @type {string[]} */
  const held = [];
  /** @param {Document | ShadowRoot} root */
  const walk = (root) => {
    for (const el of root.querySelectorAll('input, textarea')) {
      const value = /** @type {HTMLInputElement} */ (el).value;
      if (value && held.length < 50 && secret(el)) held.push(value.slice(0, 512));
    }
    for (const el of root.querySelectorAll('*')) {
      const s = shadowOf(el);
      if (s) walk(s);
      if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) {
        let doc = null;
        try {
          doc = el.contentDocument; // a same-origin frame's, in place
        } catch {
          // cross-origin
        }
        if (doc) walk(doc);
      }
    }
  };
  walk(document);
  return { stored, held };
}
