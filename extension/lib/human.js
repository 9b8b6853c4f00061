// @ts-check
// The human's side, without chrome.*: the state the daemon sends
// (docs/human.md), which runtime messages the worker accepts, and which tabs
// get a banner. sw/human.js and sw/banner.js do the chrome.* part.

/**
 * One tool call, as the panel lists it; never its arguments.
 * @typedef {{ at?: string, agent?: string, tool?: string, tabId?: number,
 *   ms?: number, ok?: boolean, error?: string, detail?: string, origin?: string }} Activity
 * @typedef {{ done?: number, total?: number, message?: string }} Progress
 * @typedef {{ id: string, kind?: string, status?: string,
 *   created_at?: string, progress?: Progress }} Task
 * @typedef {{ id: string, status: string, reason?: string,
 *   instruction?: string, tabId?: number, origin?: string,
 *   deadline?: string, created_at?: string, ended_at?: string,
 *   delta_summary?: string }} Handoff
 * @typedef {{ id: string, objective?: string, phase?: string,
 *   created_at?: string, calls?: number, max_calls?: number,
 *   elapsed_ms?: number, max_wall_ms?: number, budget_status?: string,
 *   budget_reasons?: string[], recommended_next?: string,
 *   warning?: string }} Envelope
 *   An agent's open task envelope: its objective and how its budget stands.
 * @typedef {{ at?: string, activity?: Activity[], tasks?: Task[],
 *   envelopes?: Envelope[], handoffs?: Handoff[] }} State
 *   A state frame's data; kept in chrome.storage.session as `state`.
 * @typedef {{ connected: boolean, since: string, reason?: string }} Connection
 *   The native port, kept in chrome.storage.session as `connection`.
 */

/**
 * What a banner shows: all banner.js gets of a handoff.
 * @typedef {{ id: string, reason: string, instruction: string,
 *   deadline: string }} Banner
 */

export const RUNNING = 'RUNNING';

/** The events a person can send, and who may send each. */
export const HUMAN_EVENTS = Object.freeze({
  'handoff.finish': { field: 'handoffId', fromBanner: true },
  'handoff.cancel': { field: 'handoffId', fromBanner: true },
  'task.cancel': { field: 'taskId', fromBanner: false },
  'agent.stop': { field: '', fromBanner: false },
});

/** @typedef {keyof typeof HUMAN_EVENTS} HumanEvent */

/** Ids are the daemon's; anything longer is not one. */
const MAX_ID = 200;

/**
 * The handoffs of state, [] when it has none or is not a state.
 * @param {unknown} state
 * @returns {Handoff[]}
 */
export function handoffsOf(state) {
  return listOf(state, 'handoffs').filter(
    (h) => typeof h?.id === 'string' && typeof h?.status === 'string');
}

/**
 * @param {unknown} state
 * @returns {Task[]}
 */
export function tasksOf(state) {
  return listOf(state, 'tasks').filter((t) => typeof t?.id === 'string');
}

/**
 * The open envelopes of state, newest first as the daemon sends them.
 * @param {unknown} state
 * @returns {Envelope[]}
 */
export function envelopesOf(state) {
  return listOf(state, 'envelopes').filter((e) => typeof e?.id === 'string');
}

/**
 * @param {unknown} state
 * @returns {Activity[]}
 */
export function activityOf(state) {
  return listOf(state, 'activity').filter((a) => a && typeof a === 'object');
}

/**
 * @param {unknown} state
 * @param {string} key
 * @returns {any[]}
 */
function listOf(state, key) {
  if (!state || typeof state !== 'object') return [];
  const list = /** @type {Record<string, unknown>} */ (state)[key];
  return Array.isArray(list) ? list : [];
}

/**
 * The handoffs waiting for the person.
 * @param {unknown} state
 * @returns {Handoff[]}
 */
export function runningHandoffs(state) {
  return handoffsOf(state).filter((h) => h.status === RUNNING);
}

/**
 * The banner each tab should show: one per tab with a RUNNING handoff (the
 * first the state lists), except handoffs in skip.
 * @param {unknown} state
 * @param {ReadonlySet<string>} [skip] handoff ids whose banners were removed
 *   on Stop
 * @returns {Map<number, Banner>} tab id -> banner
 */
export function bannerTargets(state, skip = new Set()) {
  /** @type {Map<number, Banner>} */
  const out = new Map();
  for (const h of runningHandoffs(state)) {
    if (!Number.isInteger(h.tabId) || skip.has(h.id)) continue;
    const tabId = /** @type {number} */ (h.tabId);
    if (out.has(tabId)) continue;
    out.set(tabId, {
      id: h.id,
      reason: String(h.reason ?? 'other'),
      instruction: String(h.instruction ?? ''),
      deadline: String(h.deadline ?? ''),
    });
  }
  return out;
}

/**
 * The part of chrome.runtime.MessageSender the checks read.
 * @typedef {{ id?: string, url?: string, frameId?: number,
 *   tab?: { id?: number } }} Sender
 */

/**
 * A runtime message the worker acts on, or why it does not.
 * @typedef {{ ok: true, event: HumanEvent, data: Record<string, string> }
 *   | { ok: false, error: string }} Verdict
 */

/**
 * Reports whether message is meant for the human's side at all; the
 * worker ignores other messages (they are not ours to answer).
 * @param {unknown} message
 * @returns {boolean}
 */
export function isHumanMessage(message) {
  return !!message && typeof message === 'object' &&
    /** @type {{ type?: unknown }} */ (message).type === 'human';
}

/**
 * Decides whether a {type: 'human', event, data} message may be acted on.
 * The extension's own pages (the side panel) may send every event; a
 * content script (the banner) only Finish or Cancel of a handoff that is
 * RUNNING in its own tab. The data forwarded is rebuilt from the one field
 * each event takes.
 * @param {unknown} message
 * @param {Sender} sender
 * @param {{ extensionId: string, state: unknown }} ctx
 * @returns {Verdict}
 */
export function checkHumanMessage(message, sender, { extensionId, state }) {
  if (sender.id !== extensionId) return refuse('not a message from OpenChrome');
  const { event, data } = /** @type {{ event?: unknown, data?: unknown }} */ (message);
  if (typeof event !== 'string' || !Object.hasOwn(HUMAN_EVENTS, event)) {
    return refuse(`unknown event ${JSON.stringify(event)}`);
  }
  const rule = HUMAN_EVENTS[/** @type {HumanEvent} */ (event)];
  /** @type {Record<string, string>} */
  const out = {};
  if (rule.field) {
    const value = data && typeof data === 'object'
      ? /** @type {Record<string, unknown>} */ (data)[rule.field] : undefined;
    if (typeof value !== 'string' || !value || value.length > MAX_ID) {
      return refuse(`${event} needs ${rule.field}`);
    }
    out[rule.field] = value;
  }
  const verdict = /** @type {Verdict} */ ({ ok: true, event, data: out });
  if (isOwnPage(sender.url, extensionId)) return verdict;

  // A content script: the banner, in a tab's top frame.
  const tabId = sender.tab?.id;
  if (!Number.isInteger(tabId) || sender.frameId !== 0) {
    return refuse('not a message from an OpenChrome page');
  }
  if (!rule.fromBanner) return refuse(`${event} is for the side panel`);
  const h = runningHandoffs(state).find((x) => x.id === out.handoffId);
  if (!h || h.tabId !== tabId) return refuse('this handoff is not waiting in this tab');
  return verdict;
}

/**
 * Reports whether url is a page of the extension itself.
 * @param {string | undefined} url
 * @param {string} extensionId
 */
function isOwnPage(url, extensionId) {
  // Not URL.origin: outside Chrome a chrome-extension: URL's origin is 'null'.
  return typeof url === 'string' && url.startsWith(`chrome-extension://${extensionId}/`);
}

/**
 * @param {string} error
 * @returns {Verdict}
 */
function refuse(error) {
  return { ok: false, error };
}

/**
 * The origin of url as a snapshot records it: '' for an opaque origin or
 * something that is not a URL.
 * @param {string} url
 * @returns {string}
 */
export function originOf(url) {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? '' : origin;
  } catch {
    return '';
  }
}
