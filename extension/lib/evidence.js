// @ts-check
// What the extension keeps about an agent's tab, shaped from the events
// Chrome reports: console messages of every level, uncaught exceptions with
// their stack, requests as they end, main-frame navigations. Entries are
// small and flat, and never carry a request's headers or body (lib/network.js
// keeps requests in detail). Each shaper returns undefined for an event not
// worth keeping.

import { ActionError } from './errors.js';
import { intParam } from './params.js';

/** @typedef {'debug' | 'log' | 'info' | 'warning' | 'error'} Level */

/** The console levels, quietest first. */
export const LEVELS = Object.freeze(/** @type {Level[]} */ (['debug', 'log', 'info', 'warning', 'error']));

/**
 * @typedef {{ kind: 'console', level: Level, text: string, url?: string, line?: number }} ConsoleEntry
 * @typedef {{ kind: 'exception', level: 'error', text: string, url?: string, line?: number,
 *   stack?: string }} ExceptionEntry
 * @typedef {{ kind: 'request', method: string, url: string, type: string,
 *   status?: number, error?: string, fromCache: boolean, id?: number }} RequestEntry
 * @typedef {{ kind: 'navigation', url: string, transition: string }} NavigationEntry
 * @typedef {ConsoleEntry | ExceptionEntry | RequestEntry | NavigationEntry} Entry
 */

/** Every kind, for page.events' kinds. */
export const KINDS = Object.freeze(['console', 'exception', 'request', 'navigation']);

/** The most text an entry keeps. */
export const MAX_TEXT = 1000;
/** The most stack frames an exception keeps. */
export const MAX_FRAMES = 10;
/** The most of a URL an entry keeps (data-heavy URLs would fill the ring). */
export const MAX_URL = 2048;

export const DEFAULT_LIMIT = 200;
export const MAX_LIMIT = 500;

/**
 * The fields of a CDP Runtime.RemoteObject we read.
 * @typedef {{ type?: string, subtype?: string, className?: string, value?: unknown,
 *   unserializableValue?: string, description?: string, preview?: ObjectPreview }} RemoteObject
 */
/**
 * The fields of a CDP Runtime.ObjectPreview we read: the first few
 * properties of an object or items of an array, their values as text.
 * @typedef {{ subtype?: string, overflow?: boolean,
 *   properties?: Array<{ name: string, type: string, subtype?: string, value?: string }> }} ObjectPreview
 */
/**
 * @typedef {{ callFrames?: Array<{ functionName?: string, url?: string, lineNumber?: number,
 *   columnNumber?: number }> }} StackTrace
 */

/**
 * A CDP Runtime.consoleAPICalled event, at the level DevTools files it
 * under: console.debug is debug, log and its kin (dir, table, trace, group)
 * log, info info, warn warning, error and a failed console.assert error.
 * console.clear and console.groupEnd say nothing.
 * @param {{ type?: string, args?: RemoteObject[], stackTrace?: StackTrace }} p
 * @returns {ConsoleEntry | undefined}
 */
export function fromConsoleAPI(p) {
  /** @type {Level} */
  let level;
  let text = (p.args ?? []).map(remoteText).join(' ');
  switch (p.type) {
    case 'debug':
      level = 'debug';
      break;
    case 'info':
      level = 'info';
      break;
    case 'warning':
      level = 'warning';
      break;
    case 'error':
      level = 'error';
      break;
    case 'assert':
      // What DevTools shows: console.assert's message, if any, after this.
      level = 'error';
      text = text ? `Assertion failed: ${text}` : 'Assertion failed';
      break;
    case 'clear':
    case 'endGroup':
      return undefined;
    default:
      level = 'log';
  }
  return withPlace({ kind: 'console', level, text: clip(text, MAX_TEXT) },
    p.stackTrace?.callFrames?.[0]);
}

/**
 * A CDP Log.entryAdded event: the browser's own messages about the page
 * (failed loads, interventions, deprecations, violations).
 * @param {{ entry?: { source?: string, level?: string, text?: string, url?: string,
 *   lineNumber?: number } }} p
 * @returns {ConsoleEntry | undefined}
 */
export function fromLogEntry(p) {
  const e = p.entry;
  if (!e) return undefined;
  /** @type {Level} */
  const level = e.level === 'verbose' ? 'debug'
    : e.level === 'error' || e.level === 'warning' || e.level === 'info' ? e.level : 'log';
  return withPlace({ kind: 'console', level, text: clip(String(e.text ?? ''), MAX_TEXT) }, e);
}

/**
 * A CDP Runtime.exceptionThrown event: an uncaught exception or unhandled
 * rejection. The text is the first line of the exception's description
 * ("TypeError: x is undefined"), else CDP's text ("Uncaught").
 * The stack is its frames, one "at fn (url:line:column)" a line.
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
  /** @type {ExceptionEntry} */
  const entry = withPlace({ kind: 'exception', level: 'error', text }, place);
  const frames = (d.stackTrace?.callFrames ?? []).slice(0, MAX_FRAMES).map((f) =>
    `at ${f.functionName || '(anonymous)'} (${f.url ?? ''}:${(f.lineNumber ?? 0) + 1}:${(f.columnNumber ?? 0) + 1})`);
  if (frames.length) entry.stack = clip(frames.join('\n'), MAX_TEXT);
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
 * Reads console.read's filters: since, limit, the levels (absent: every
 * level) and a pattern the text must contain (case-insensitive; * matches
 * anything).
 * @param {Record<string, unknown>} params
 * @returns {{ since: number, limit: number, match: (e: Entry) => boolean }}
 * @throws {ActionError} bad_request naming the param
 */
export function consoleQuery(params) {
  const since = intParam(params, 'since', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = intParam(params, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
  const raw = params.levels;
  /** @type {Set<string> | undefined} */
  let levels;
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw) || raw.some((l) => !LEVELS.includes(l))) {
      throw new ActionError('bad_request', `levels must be a list of ${LEVELS.join(', ')}`);
    }
    if (raw.length) levels = new Set(raw);
  }
  const pattern = params.pattern;
  if (pattern !== undefined && pattern !== null && typeof pattern !== 'string') {
    throw new ActionError('bad_request', 'pattern must be a string');
  }
  const contains = pattern ? globMatcher(pattern) : undefined;
  return {
    since,
    limit,
    match: (e) => (e.kind === 'console' || e.kind === 'exception') &&
      (!levels || levels.has(e.level)) &&
      (!contains || contains(e.text) || (e.kind === 'exception' && contains(e.stack ?? ''))),
  };
}

/**
 * A case-insensitive "contains" test where * in pattern matches anything.
 * @param {string} pattern
 * @returns {(text: string) => boolean}
 */
export function globMatcher(pattern) {
  const re = new RegExp(pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*'), 'i');
  return (text) => re.test(text);
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
  // A plain object or array shows its first properties, as DevTools does:
  // {id: 7, name: "Ada"}, not "Object".
  if (o.preview && (o.subtype === undefined || o.subtype === 'array') && o.type === 'object') return previewText(o.preview);
  if (o.description !== undefined) return o.description;
  return o.subtype === 'null' ? 'null' : String(o.type ?? '');
}

/**
 * An object's preview as DevTools prints it: {a: 1, b: "x"} or [1, 2, …].
 * @param {ObjectPreview} p
 */
function previewText(p) {
  const array = p.subtype === 'array';
  const items = (p.properties ?? []).map((x) => {
    const v = x.type === 'string' ? JSON.stringify(x.value ?? '')
      : x.subtype === 'null' ? 'null'
        : x.value ?? x.type;
    return array ? v : `${x.name}: ${v}`;
  });
  if (p.overflow) items.push('…');
  return array ? `[${items.join(', ')}]` : `{${items.join(', ')}}`;
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
