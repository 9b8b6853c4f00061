// @ts-check
// Reading a page through the page agent: its tree, its text, finding
// elements and form fields, and waiting for a condition.

import { sleep } from '../../lib/abort.js';
import { ActionError } from '../../lib/errors.js';
import { enumParam, intParam, stringParam, tabIdParam } from '../../lib/params.js';
import * as agent from '../agent.js';
import * as cdp from '../cdp.js';
import { checkTab } from '../tab-group.js';

/** @typedef {import('../../lib/router.js').Action} Action */

/**
 * page.snapshot: the tab's tree (docs/wire.md), cross-origin frames in place.
 * @type {Action}
 */
export async function snapshot(params, { signal }) {
  const tabId = tabIdParam(params);
  await checkTab(tabId);
  return agent.snapshot(tabId, signal);
}

/**
 * page.text: the main content as Markdown.
 * @type {Action}
 */
export async function text(params, { signal }) {
  const tabId = tabIdParam(params);
  await checkTab(tabId);
  return (await agent.call({ tabId, frameId: 0 }, 'text', {}, signal)).data;
}

const OUTPUTS = /** @type {const} */ (['markdown', 'text', 'links']);

/**
 * page.crawl: a page's content, as a crawl keeps it, and its links.
 * @type {Action}
 */
export async function crawl(params, { signal }) {
  const tabId = tabIdParam(params);
  const output = enumParam(params, 'output', OUTPUTS) ?? 'markdown';
  await checkTab(tabId);
  return (await agent.call({ tabId, frameId: 0 }, 'crawl', { output }, signal)).data;
}

/**
 * page.find: ranked candidates for a query.
 * @type {Action}
 */
export async function find(params, { signal }) {
  const tabId = tabIdParam(params);
  const query = stringParam(params, 'query');
  if (!query?.trim()) throw new ActionError('bad_request', 'query is empty');
  const limit = intParam(params, 'limit', 1, 100) ?? 10;
  await checkTab(tabId);
  return agent.callHanding(tabId, 'find', { query, limit }, signal);
}

/**
 * page.field: the form control labelled label (and, in a group, the option
 * named value).
 * @type {Action}
 */
export async function field(params, { signal }) {
  const tabId = tabIdParam(params);
  const label = stringParam(params, 'label');
  if (!label?.trim()) throw new ActionError('bad_request', 'label is empty');
  await checkTab(tabId);
  return agent.callHanding(tabId, 'field', { label, value: stringParam(params, 'value') }, signal);
}

/** How often a wait looks again. */
const POLL_MS = 50;

/**
 * page.wait: returns as soon as the condition holds; on timeout the error
 * says what the page showed last.
 * @type {Action}
 */
export async function wait(params, { signal }) {
  const tabId = tabIdParam(params);
  const timeoutMs = intParam(params, 'waitMs', 0, 600000) ?? 5000;
  const cond = /** @type {Record<string, unknown>} */ (params.condition ?? {});
  await checkTab(tabId);
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
      seen = `the page was loading (${err instanceof Error ? err.message : String(err)})`;
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
    const t = await agent.resolve(tabId, cond.ref);
    try {
      return await agent.onRef(t, 'check', { ref: t.ref, state: cond.state }, signal);
    } catch (err) {
      const gone = err instanceof ActionError && err.code === 'stale_ref';
      if (gone && (cond.state === 'detached' || cond.state === 'hidden')) return { ok: true, seen: 'the element is gone' };
      throw err;
    }
  }
  return (await agent.call({ tabId, frameId: 0 }, 'check', cond, signal)).data;
}

/**
 * Whether url matches pattern: a glob when it has *, else a substring.
 * @param {string} url
 * @param {string} pattern
 */
export function urlMatches(url, pattern) {
  if (!pattern.includes('*')) return url.includes(pattern);
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(url);
}
