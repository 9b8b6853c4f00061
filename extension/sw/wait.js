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
  return (await pageScript.call({ tabId, frameId: 0 }, 'check', cond, signal)).data;
}
