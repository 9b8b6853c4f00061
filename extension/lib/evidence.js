// @ts-check
// What page.observe keeps about a tab, shaped from the events Chrome reports:
// console errors and warnings, uncaught exceptions, requests, main-frame
// navigations. Entries are small and flat, and never carry a request's
// headers or body. Each shaper returns undefined for an event not worth
// keeping.

import { ActionError } from './errors.js';
import { intParam } from './params.js';

/** @typedef {'error' | 'warning'} Level */

/**
 * @typedef {{ kind: 'console', level: Level, text: string, url?: string, line?: number }} ConsoleEntry
 * @typedef {{ kind: 'exception', text: string, url?: string, line?: number }} ExceptionEntry
 * @typedef {{ kind: 'request', method: string, url: string, type: string,
 *   status?: number, error?: string, fromCache: boolean }} RequestEntry
 * @typedef {{ kind: 'navigation', url: string, transition: string }} NavigationEntry
 * @typedef {ConsoleEntry | ExceptionEntry | RequestEntry | NavigationEntry} Entry
 */

/** Every kind, for page.events' kinds. */
export const KINDS = Object.freeze(['console', 'exception', 'request', 'navigation']);

/** The most text an entry keeps. */
export const MAX_TEXT = 1000;
/** The most of a URL an entry keeps (data-heavy URLs would fill the ring). */
export const MAX_URL = 2048;

export const DEFAULT_LIMIT = 200;
export const MAX_LIMIT = 500;

/**
 * The fields of a CDP Runtime.RemoteObject we read.
 * @typedef {{ type?: string, subtype?: string, className?: string, value?: unknown,
 *   unserializableValue?: string, description?: string }} RemoteObject
 */
/**
 * @typedef {{ callFrames?: Array<{ url?: string, lineNumber?: number }> }} StackTrace
 */

/**
 * A CDP Runtime.consoleAPICalled event: console.error, console.warn and
 * console.assert; the rest (log, info, debug, …) is not evidence.
 * @param {{ type?: string, args?: RemoteObject[], stackTrace?: StackTrace }} p
 * @returns {ConsoleEntry | undefined}
 */
export function fromConsoleAPI(p) {
  /** @type {Level} */
  let level;
  let text = (p.args ?? []).map(remoteText).join(' ');
  if (p.type === 'error') level = 'error';
  else if (p.type === 'warning') level = 'warning';
  else if (p.type === 'assert') {
    // What DevTools shows: console.assert's message, if any, after this.
    level = 'error';
    text = text ? `Assertion failed: ${text}` : 'Assertion failed';
  } else return undefined;
  return withPlace({ kind: 'console', level, text: clip(text, MAX_TEXT) },
    p.stackTrace?.callFrames?.[0]);
}

/**
 * A CDP Log.entryAdded event: the browser's own errors and warnings about
 * the page (failed loads, interventions, deprecations).
 * @param {{ entry?: { source?: string, level?: string, text?: string, url?: string,
 *   lineNumber?: number } }} p
 * @returns {ConsoleEntry | undefined}
 */
export function fromLogEntry(p) {
  const e = p.entry;
  if (!e || (e.level !== 'error' && e.level !== 'warning')) return undefined;
  return withPlace({ kind: 'console', level: e.level, text: clip(String(e.text ?? ''), MAX_TEXT) }, e);
}

/**
 * A CDP Runtime.exceptionThrown event: an uncaught exception or unhandled
 * rejection. The text is the first line of the exception's description
 * ("TypeError: x is undefined"), else CDP's text ("Uncaught").
 * @param {{ exceptionDetails?: { text?: string, url?: string, lineNumber?: number,
 *   stackTrace?: StackTrace, exception?: RemoteObject } }} p
 * @returns {ExceptionEntry | undefined}
 */
export function fromException(p) {
  const d = p.exceptionDetails;
  if (!d) return undefined;
  const ex = d.exception;
  const described = ex ? firstLine(ex.description ?? (ex.value === undefined ? '' : remoteText(ex))) : '';
  const text = clip(described || String(d.text ?? 'exception'), MAX_TEXT);
  const place = d.url ? d : d.stackTrace?.callFrames?.[0];
  return withPlace({ kind: 'exception', text }, place);
}

/**
 * A chrome.webRequest onCompleted or onErrorOccurred event. Only what the
 * event's details name: no headers, no body.
 * @param {{ method: string, url: string, type: string, statusCode?: number,
 *   error?: string, fromCache?: boolean }} d
 * @returns {RequestEntry}
 */
export function fromRequest(d) {
  /** @type {RequestEntry} */
  const entry = {
    kind: 'request',
    method: d.method,
    url: clip(d.url, MAX_URL),
    type: d.type,
    fromCache: Boolean(d.fromCache),
  };
  // Chrome reports file: loads with a made-up 200: only HTTP has a status.
  if (d.statusCode && /^https?:/i.test(d.url)) entry.status = d.statusCode;
  if (d.error) entry.error = d.error;
  return entry;
}

/**
 * A chrome.webNavigation onCommitted event of the main frame.
 * @param {{ frameId: number, url: string, transitionType?: string }} d
 * @returns {NavigationEntry | undefined}
 */
export function fromCommit(d) {
  if (d.frameId !== 0) return undefined;
  return { kind: 'navigation', url: clip(d.url, MAX_URL), transition: d.transitionType ?? 'unknown' };
}

/**
 * Reads page.events' since, kinds and limit. Absent or empty kinds means
 * every kind.
 * @param {Record<string, unknown>} params
 * @returns {{ since: number, kinds: Set<string> | undefined, limit: number }}
 * @throws {ActionError} bad_request naming the param
 */
export function eventsQuery(params) {
  const since = intParam(params, 'since', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = intParam(params, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
  const raw = params.kinds;
  /** @type {Set<string> | undefined} */
  let kinds;
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw) || raw.some((k) => !KINDS.includes(k))) {
      throw new ActionError('bad_request', `kinds must be a list of ${KINDS.join(', ')}`);
    }
    if (raw.length) kinds = new Set(raw);
  }
  return { since, kinds, limit };
}

/**
 * Adds url and a 1-based line to entry when place names them (CDP numbers
 * lines from 0).
 * @template {ConsoleEntry | ExceptionEntry} E
 * @param {E} entry
 * @param {{ url?: string, lineNumber?: number } | undefined} place
 * @returns {E}
 */
function withPlace(entry, place) {
  if (!place?.url) return entry;
  entry.url = clip(place.url, MAX_URL);
  if (Number.isInteger(place.lineNumber)) entry.line = /** @type {number} */ (place.lineNumber) + 1;
  return entry;
}

/**
 * A console argument as DevTools would print it, roughly: strings as they
 * are, other primitives by value, objects by their description.
 * @param {RemoteObject} o
 * @returns {string}
 */
function remoteText(o) {
  if (o.type === 'string') return String(o.value ?? '');
  if (o.unserializableValue !== undefined) return o.unserializableValue;
  if (o.value !== undefined) {
    if (typeof o.value !== 'object' || o.value === null) return String(o.value);
    try {
      return JSON.stringify(o.value);
    } catch {
      // by value yet not JSON: fall through to the description
    }
  }
  if (o.description !== undefined) return o.description;
  return o.subtype === 'null' ? 'null' : String(o.type ?? '');
}

/** @param {string} text */
function firstLine(text) {
  return String(text).split(/\r?\n/, 1)[0].trim();
}

/**
 * @param {string} text
 * @param {number} max
 */
function clip(text, max) {
  return text.length > max ? text.slice(0, max) : text;
}
