// @ts-check
// An agent tab's requests, from CDP's Network domain: each request from the
// moment it is sent to its end, with its status, size and timing. What is
// kept is what network_requests and network_request show: never a request's
// headers or body (cookies and credentials travel there), only the response's
// headers, which the host redacts, and the response body on demand.

import { ActionError } from './errors.js';
import { globMatcher } from './evidence.js';
import { intParam, stringParam } from './params.js';

/** How many requests a tab keeps; the oldest go first. */
export const NETWORK_CAPACITY = 500;
/** The most of a URL a request keeps. */
export const MAX_URL = 2048;

/**
 * The requests an action is waited on for: what a page fetches to answer a
 * click (a search's results, a form sent by script, a module it loads).
 * Not a navigation's document (navigation.js waits for that), nor the
 * streams and pings that may never end.
 */
const AWAITED = new Set(['XHR', 'Fetch', 'Script', 'Preflight']);

/** How a request the page called off, or the person's extensions blocked, ends. */
const CALLED_OFF = new Set(['canceled', 'net::ERR_ABORTED', 'net::ERR_BLOCKED_BY_CLIENT']);

/** How far back a failure on its own makes the same request's failure the page's own. */
const RECURRING_MS = 60_000;
/** How long after an action began a request it sent may start. */
const ACTION_MS = 10_000;
/** How many actions' beginnings the log keeps. */
const ACTIONS_KEPT = 20;

/**
 * A request the page's script sent that failed, as failedSince says it;
 * undefined for any other.
 * @param {Kept} r
 * @returns {{ method: string, url: string, status?: number, error?: string } | undefined}
 */
function failureOf(r) {
  if (r.type !== 'XHR' && r.type !== 'Fetch') return undefined;
  if (r.state === 'failed' && !CALLED_OFF.has(r.error ?? '')) return { method: r.method, url: r.url, error: r.error };
  if (r.state === 'done' && (r.status ?? 0) >= 400) {
    return { method: r.method, url: r.url, status: r.status, error: r.statusText || undefined };
  }
  return undefined;
}

/**
 * A request as the tools list it.
 * @typedef {{ id: number, method: string, url: string, type: string,
 *   state: 'pending' | 'done' | 'failed', status?: number, statusText?: string,
 *   mimeType?: string, error?: string, size?: number, ms?: number,
 *   fromCache?: boolean, ts: number }} Request
 */

/**
 * What the log keeps of a request beyond what it lists.
 * sessionId: the out-of-process frame's session that made it, whose
 * browser-side buffers hold its body.
 * @typedef {Request & { requestId: string, started: number, ended?: number,
 *   responseHeaders?: Record<string, string>, sessionId?: string }} Kept
 */

/**
 * The filters of network.list; every field optional.
 * @typedef {{ url?: string, method?: string, status?: number, type?: string,
 *   failed?: boolean }} Filter
 */

export class NetworkLog {
  /**
   * @param {object} [options]
   * @param {number} [options.capacity]
   * @param {() => number} [options.now] the clock for ts (ms since the epoch)
   */
  constructor({ capacity = NETWORK_CAPACITY, now = Date.now } = {}) {
    this.capacity = capacity;
    this.now = now;
    this.nextId = 1;
    /** Oldest first. @type {Kept[]} */
    this.requests = [];
    /** The request under way for each CDP requestId. @type {Map<string, Kept>} */
    this.byRequestId = new Map();
    /** When the last actions failedSince was asked about began, oldest first. @type {number[]} */
    this.actions = [];
  }

  /**
   * Network.requestWillBeSent. A redirect reuses its requestId: the hop
   * before it ends there, with the redirect's status, and a new request
   * starts.
   * @param {{ requestId: string, request: { url: string, method: string }, type?: string,
   *   timestamp?: number, redirectResponse?: { status?: number, statusText?: string } }} p
   * @param {string} [sessionId] the frame session it came from, if not the tab's
   */
  sent(p, sessionId) {
    const before = this.byRequestId.get(p.requestId);
    if (before && p.redirectResponse) {
      before.status = p.redirectResponse.status;
      before.statusText = p.redirectResponse.statusText;
      this.end(before, p.timestamp, 'done');
    }
    /** @type {Kept} */
    const r = {
      id: this.nextId++, method: p.request.method, url: clip(p.request.url, MAX_URL), type: p.type ?? 'Other',
      state: 'pending', ts: this.now(), requestId: p.requestId, started: p.timestamp ?? 0,
    };
    if (sessionId) r.sessionId = sessionId;
    this.requests.push(r);
    this.byRequestId.set(p.requestId, r);
    if (this.requests.length > this.capacity) {
      const gone = /** @type {Kept} */ (this.requests.shift());
      if (this.byRequestId.get(gone.requestId) === gone) this.byRequestId.delete(gone.requestId);
    }
  }

  /**
   * Network.responseReceived.
   * @param {{ requestId: string, type?: string, response: { status?: number, statusText?: string,
   *   mimeType?: string, headers?: Record<string, string>, fromDiskCache?: boolean,
   *   fromServiceWorker?: boolean, fromPrefetchCache?: boolean } }} p
   */
  responded(p) {
    const r = this.byRequestId.get(p.requestId);
    if (!r) return;
    const res = p.response;
    r.status = res.status;
    if (res.statusText) r.statusText = res.statusText;
    if (res.mimeType) r.mimeType = res.mimeType;
    if (p.type) r.type = p.type;
    if (res.fromDiskCache || res.fromPrefetchCache) r.fromCache = true;
    r.responseHeaders = { ...(res.headers ?? {}) };
  }

  /**
   * Network.requestServedFromCache.
   * @param {{ requestId: string }} p
   */
  cached(p) {
    const r = this.byRequestId.get(p.requestId);
    if (r) r.fromCache = true;
  }

  /**
   * Network.loadingFinished.
   * @param {{ requestId: string, timestamp?: number, encodedDataLength?: number }} p
   */
  finished(p) {
    const r = this.byRequestId.get(p.requestId);
    if (!r) return;
    if (typeof p.encodedDataLength === 'number') r.size = p.encodedDataLength;
    this.end(r, p.timestamp, 'done');
  }

  /**
   * Network.loadingFailed.
   * @param {{ requestId: string, timestamp?: number, errorText?: string, canceled?: boolean,
   *   blockedReason?: string }} p
   */
  failed(p) {
    const r = this.byRequestId.get(p.requestId);
    if (!r) return;
    r.error = p.canceled ? 'canceled' : p.blockedReason ? `blocked: ${p.blockedReason}` : p.errorText || 'failed';
    this.end(r, p.timestamp, 'failed');
  }

  /**
   * @param {Kept} r
   * @param {number | undefined} timestamp CDP's, in seconds
   * @param {'done' | 'failed'} state
   */
  end(r, timestamp, state) {
    r.state = state;
    r.ended = this.now();
    if (typeof timestamp === 'number' && r.started) r.ms = Math.max(0, Math.round((timestamp - r.started) * 1000));
    if (this.byRequestId.get(r.requestId) === r) this.byRequestId.delete(r.requestId);
  }

  /**
   * The awaited requests (AWAITED) sent at or after since, on the log's
   * clock: how many are still pending, how many were sent, and when the
   * last of them ended (0 for none).
   * @param {number} since
   * @returns {{ pending: number, sent: number, lastEnded: number }}
   */
  activity(since) {
    let pending = 0;
    let sent = 0;
    let lastEnded = 0;
    for (let i = this.requests.length - 1; i >= 0 && this.requests[i].ts >= since; i--) {
      const r = this.requests[i];
      if (!AWAITED.has(r.type)) continue;
      sent++;
      if (r.state === 'pending') pending++;
      else lastEnded = Math.max(lastEnded, r.ended ?? 0);
    }
    return { pending, sent, lastEnded };
  }

  /**
   * The requests the page's script sent (fetch, XHR) at or after since that
   * the server refused (a status of 400 or more) or the network failed,
   * oldest first, at most limit: a Save whose request the server answered
   * 500 draws nothing, and an agent told only "no visible change" would try
   * again. One the page called off (a search typed on) is no failure, nor
   * one the person's own extensions blocked (an ad blocker's), nor a script
   * or an image the page loads on the side; nor one the page sends and
   * fails on its own (a poll of an endpoint that is down), which failed in
   * the minute before since too, with no action of the agent's under way.
   * Each call is an action's, which began at since: the log keeps when.
   * @param {number} since
   * @param {number} [limit]
   * @returns {Array<{ method: string, url: string, status?: number, error?: string }>}
   */
  failedSince(since, limit = 3) {
    const byAction = (/** @type {number} */ ts) => this.actions.some((a) => ts >= a && ts - a <= ACTION_MS);
    /** @type {Array<{ method: string, url: string, status?: number, error?: string }>} */
    const out = [];
    /** What failed on its own before the action: "GET http://a.test/poll". @type {Set<string>} */
    const own = new Set();
    for (const r of this.requests) {
      const failure = failureOf(r);
      if (!failure) continue;
      const key = `${r.method} ${r.url.split('?')[0]}`;
      if (r.ts < since) {
        if (r.ts >= since - RECURRING_MS && !byAction(r.ts)) own.add(key);
      } else if (!own.has(key)) {
        out.push(failure);
      }
    }
    this.actions = [...this.actions.slice(-(ACTIONS_KEPT - 1)), since];
    return out.slice(0, limit);
  }

  /**
   * The requests after since that pass filter, oldest first, at most limit;
   * next is the since to read on from, dropped how many the log lost before
   * they could be read.
   * @param {{ since?: number, limit?: number, filter?: Filter }} [query]
   * @returns {{ requests: Request[], next: number, dropped: number }}
   */
  list({ since = 0, limit = Infinity, filter = {} } = {}) {
    const from = Math.max(1, since > this.nextId ? 0 : since);
    const oldest = this.requests.length ? this.requests[0].id : this.nextId;
    const dropped = Math.max(0, oldest - from);
    const matches = matcher(filter);
    /** @type {Request[]} */
    const requests = [];
    let next = this.nextId;
    for (const r of this.requests) {
      if (r.id < from || !matches(r)) continue;
      if (requests.length >= limit) {
        next = r.id;
        break;
      }
      requests.push(shown(r));
    }
    return { requests, next, dropped };
  }

  /**
   * The request with id, with its response headers, and the CDP requestId
   * a body is asked for with; undefined once it has gone.
   * @param {number} id
   * @returns {Kept | undefined}
   */
  get(id) {
    return this.requests.find((r) => r.id === id);
  }
}

/**
 * A kept request as the list shows it.
 * @param {Kept} r
 * @returns {Request}
 */
function shown(r) {
  const { requestId: _requestId, started: _started, ended: _ended, responseHeaders: _headers, sessionId: _session, ...rest } = r;
  return rest;
}

/**
 * @param {Filter} f
 * @returns {(r: Request) => boolean}
 */
function matcher(f) {
  const url = f.url ? globMatcher(f.url) : undefined;
  const method = f.method?.toUpperCase();
  const type = f.type?.toLowerCase();
  return (r) => (!url || url(r.url)) &&
    (!method || r.method.toUpperCase() === method) &&
    (f.status === undefined || r.status === f.status) &&
    (!type || r.type.toLowerCase() === type) &&
    (f.failed === undefined || (r.state === 'failed') === f.failed);
}

/**
 * Reads network.list's since, limit and filter.
 * @param {Record<string, unknown>} params
 * @returns {{ since: number, limit: number, filter: Filter }}
 * @throws {ActionError} bad_request naming the param
 */
export function networkQuery(params) {
  const since = intParam(params, 'since', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = intParam(params, 'limit', 1, NETWORK_CAPACITY) ?? 100;
  const raw = params.filter ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ActionError('bad_request', 'filter must be an object: {url, method, status, type, failed}');
  }
  const f = /** @type {Record<string, unknown>} */ (raw);
  /** @type {Filter} */
  const filter = {};
  const url = stringParam(f, 'url');
  if (url) filter.url = url;
  const method = stringParam(f, 'method');
  if (method) filter.method = method;
  const status = intParam(f, 'status', 0, 999);
  if (status !== undefined) filter.status = status;
  const type = stringParam(f, 'type');
  if (type) filter.type = type;
  if (f.failed !== undefined && f.failed !== null) {
    if (typeof f.failed !== 'boolean') throw new ActionError('bad_request', 'filter.failed must be true or false');
    filter.failed = f.failed;
  }
  return { since, limit, filter };
}

/**
 * @param {string} text
 * @param {number} max
 */
function clip(text, max) {
  return text.length > max ? text.slice(0, max) : text;
}

/**
 * The most of a response body one network.get returns, in characters: about
 * 10,000 tokens, well within what a client takes from a tool (Claude Code's
 * 25,000). An offset reads on.
 */
export const MAX_BODY = 30_000;

/**
 * MAX_BODY characters of a body's text from offset, with the whole length
 * and, when more follow, the offset to read on from.
 * @param {string} text
 * @param {number} offset
 * @returns {{ text: string, truncated: number, offset?: number, next?: number }}
 */
export function bodyPart(text, offset) {
  const end = Math.min(text.length, offset + MAX_BODY);
  return { text: text.slice(offset, end), truncated: text.length, ...(offset ? { offset } : {}), ...(end < text.length ? { next: end } : {}) };
}
