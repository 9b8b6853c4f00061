// @ts-check
// page.wait's waiting: one look at a condition (a URL, a predicate, a ref's
// state, text or a selector), repeated until it holds.

import { sleep } from '../lib/abort.js';
import { ActionError } from '../lib/errors.js';
import { urlMatches } from '../lib/url.js';
import * as pageScript from './page-script.js';
import * as cdp from './cdp.js';

/** How often a wait looks again. */
const POLL_MS = 50;

/**
 * Returns as soon as cond holds in the tab, looking every POLL_MS; after
 * timeoutMs the error says what the page showed last.
 * @param {number} tabId
 * @param {Record<string, unknown>} cond
 * @param {number} timeoutMs
 * @param {AbortSignal} signal
 */
export async function waitFor(tabId, cond, timeoutMs, signal) {
  const deadline = Date.now() + timeoutMs;
  let seen = 'nothing yet';
  for (;;) {
    try {
      const r = await probe(tabId, cond, signal);
      if (r.ok) {
        const tab = await chrome.tabs.get(tabId);
        return { met: true, seen: r.seen, url: tab.url, title: tab.title };
      }
      seen = r.seen;
    } catch (err) {
      // A page between documents cannot answer; a wait goes on through it.
      if (signal.aborted || (err instanceof ActionError && ['bad_request', 'tab_not_found', 'tab_not_allowed'].includes(err.code))) {
        throw err;
      }
      seen = err instanceof ActionError ? err.message
        : `the page was loading (${err instanceof Error ? err.message : String(err)})`;
    }
    if (Date.now() >= deadline) {
      throw new ActionError('timeout', `the condition did not hold within ${timeoutMs} ms; last seen: ${seen}`,
        'wait longer (timeoutMs), or read_page to see where the page is');
    }
    await sleep(POLL_MS, signal);
  }
}

/**
 * One look at the condition.
 * @param {number} tabId
 * @param {Record<string, unknown>} cond
 * @param {AbortSignal} signal
 * @returns {Promise<{ ok: boolean, seen: string }>}
 */
async function probe(tabId, cond, signal) {
  if (typeof cond.url === 'string') {
    const tab = await chrome.tabs.get(tabId);
    const url = tab.url ?? '';
    return { ok: urlMatches(url, cond.url), seen: `the tab is at ${url}` };
  }
  if (typeof cond.predicate === 'string') {
    const r = await cdp.send(tabId, 'Runtime.evaluate', {
      expression: cond.predicate, returnByValue: true, awaitPromise: true, replMode: true,
    }, { signal });
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new ActionError('bad_request', `the predicate threw: ${d.exception?.description?.split('\n')[0] ?? d.text}`);
    }
    return { ok: !!r.result?.value, seen: `the predicate is ${JSON.stringify(r.result?.value ?? null)}` };
  }
  if (cond.ref !== undefined) {
    const t = await pageScript.resolve(tabId, cond.ref);
    try {
      return await pageScript.onRef(t, 'check', { ref: t.ref, state: cond.state }, signal);
    } catch (err) {
      const gone = err instanceof ActionError && err.code === 'stale_ref';
      if (gone && (cond.state === 'detached' || cond.state === 'hidden')) return { ok: true, seen: 'the element is gone' };
      throw err;
    }
  }
  /** @type {{ ok: boolean, seen: string }} */
  const top = (await pageScript.call({ tabId, frameId: 0 }, 'check', cond, signal)).data;
  // Text a frame shows is on the page too (a payment frame's "Paid").
  const text = typeof cond.text === 'string' ? cond.text : undefined;
  const gone = typeof cond.textGone === 'string' ? cond.textGone : undefined;
  if ((text !== undefined && !top.ok) || (gone !== undefined && top.ok)) {
    const want = /** @type {string} */ (text ?? gone);
    if (await inAFrame(tabId, want)) {
      return text !== undefined
        ? { ok: true, seen: `text "${want}" is in a frame of the page` }
        : { ok: false, seen: `text "${want}" is still in a frame of the page` };
    }
  }
  return top;
}

/**
 * Whether a frame of the tab, other than the top one, shows text.
 * @param {number} tabId
 * @param {string} text
 */
async function inAFrame(tabId, text) {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  if (frames.length < 2) return false;
  try {
    const results = await chrome.scripting.executeScript({
      target: { tabId, allFrames: true },
      world: 'ISOLATED',
      injectImmediately: true,
      // Runs in each frame: self-contained, no closure.
      // As page/watch.js's onPage reads it: any case, any white space.
      func: (/** @type {string} */ t) => (document.body?.innerText ?? '').replace(/\s+/g, ' ').toLowerCase()
        .includes(t.replace(/\s+/g, ' ').trim().toLowerCase()),
      args: [text],
    });
    return results.some((r) => r.frameId !== 0 && r.result === true);
  } catch {
    return false; // a frame no script may run in
  }
}
