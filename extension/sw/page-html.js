// @ts-check
// A page's HTML for page.dom, with what the user typed (and the handoff
// banner) taken out.

import { raceSignal } from '../lib/abort.js';
import { ActionError } from '../lib/errors.js';
import { scriptingError } from '../lib/scripting.js';
import * as cdp from './cdp.js';
import * as dialogs from './dialogs.js';

/** The most HTML page.dom returns, in UTF-8 bytes. */
const MAX_DOM_BYTES = 20 * 1024 * 1024;

/**
 * The top document's HTML, from a copy with form values, script bodies,
 * noscript content and nonces taken out; the live page is not touched.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @returns {Promise<{ url: string, title: string, html: string, bytes: number }>}
 */
export async function sanitizedDom(tabId, signal) {
  dialogs.refuseWhileOpen(tabId);
  // Attached, so that a dialog opening meanwhile is seen (Page events) rather
  // than holding the call until its timeout. A tab we cannot debug can still
  // be read.
  await cdp.attach(tabId, signal).catch(() => signal.throwIfAborted());
  const dialog = dialogs.next(tabId);
  let res;
  try {
    const run = chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      world: 'ISOLATED',
      // Without it Chrome holds the call until the document is idle.
      injectImmediately: true,
      func: sanitizedHtml,
      args: [MAX_DOM_BYTES],
    });
    const first = await raceSignal(Promise.race([run, dialog.opened]), signal);
    if (!Array.isArray(first)) {
      throw new ActionError('conflict', `a JavaScript dialog is open: ${dialogs.describe(first)}`,
        'call interact with action accept_dialog or dismiss_dialog');
    }
    res = /** @type {DomResult | undefined} */ (first[0]?.result);
  } catch (err) {
    throw scriptingError(err);
  } finally {
    dialog.cancel();
  }
  if (!res) throw new ActionError('internal', 'the page returned no HTML');
  if (res.tooLarge) {
    throw new ActionError('too_large', `the page's HTML is ${(res.bytes / 1048576).toFixed(1)} MiB, over 20 MiB`,
      'call read_page for its structure, or javascript_tool to read one part');
  }
  return { url: res.url, title: res.title, html: res.html, bytes: res.bytes };
}

/**
 * @typedef {{ url: string, title: string, html: string, bytes: number, tooLarge: boolean }} DomResult
 */

/**
 * Runs in the page's isolated world, so it is self-contained: no imports, no
 * closure. The copy lives in a document without a browsing context, where
 * nothing loads (images, media, frames) and no page script or custom
 * element runs.
 * @param {number} maxBytes
 * @returns {DomResult}
 */
function sanitizedHtml(maxBytes) {
  const root = document.documentElement;
  /** @type {DomResult} */
  const out = { url: location.href, title: document.title, html: '', bytes: 0, tooLarge: false };
  if (!root) return out;
  const copy = document.implementation.createHTMLDocument('').importNode(root, true);
  // Input types whose value is their label, not something typed.
  const labels = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'image']);
  /** @param {Element | DocumentFragment} scope */
  const scrub = (scope) => {
    for (const input of scope.querySelectorAll('input')) {
      // input.type folds case and unknown types to text; password and
      // hidden are not labels either.
      if (!labels.has(input.type)) input.removeAttribute('value');
    }
    for (const el of scope.querySelectorAll('textarea, script, noscript')) el.textContent = '';
    for (const el of scope.querySelectorAll('[nonce]')) el.removeAttribute('nonce');
    // The handoff banner is OpenChrome's, not the page's.
    for (const el of scope.querySelectorAll('openchrome-banner')) el.remove();
    for (const t of scope.querySelectorAll('template')) scrub(t.content);
  };
  scrub(copy);
  const html = copy.outerHTML;
  // More characters than the limit is over it in bytes too, and not worth
  // encoding to measure.
  const bytes = html.length > maxBytes ? html.length : new TextEncoder().encode(html).length;
  if (bytes > maxBytes) return { ...out, bytes, tooLarge: true };
  return { ...out, html, bytes };
}
