// @ts-check
// What the side panel and the toolbar badge say, as plain text: the reason
// labels, countdowns, the lines for handoffs, tasks and activity, and the
// badge. sidepanel/panel.js and sw/human.js put it on screen; everything here
// is text, and the screen sets it through textContent.

import { questionsOf } from './feedback.js';
import { RUNNING, handoffsOf, runningHandoffs } from './human.js';

/** @typedef {import('./human.js').Activity} Activity */
/** @typedef {import('./human.js').Connection} Connection */
/** @typedef {import('./human.js').Envelope} Envelope */
/** @typedef {import('./human.js').Handoff} Handoff */
/** @typedef {import('./human.js').Task} Task */

/**
 * What the person is asked to do, by handoff reason. page/banner.js has a
 * copy (it cannot import); lib/panel.test.js checks the two agree.
 */
export const REASON_LABELS = Object.freeze({
  login: 'Log in',
  '2fa': 'Enter the 2FA code',
  captcha: 'Solve the CAPTCHA',
  permission: 'Grant the permission',
  manual_recovery: 'Help the agent with this page',
  other: 'Your turn',
});

/**
 * @param {unknown} reason
 * @returns {string}
 */
export function reasonLabel(reason) {
  return typeof reason === 'string' && Object.hasOwn(REASON_LABELS, reason)
    ? REASON_LABELS[/** @type {keyof typeof REASON_LABELS} */ (reason)]
    : REASON_LABELS.other;
}

const STATUS_LABELS = Object.freeze({
  PENDING: 'Pending',
  RUNNING: 'Running',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  FINISHED: 'Finished',
  TIMED_OUT: 'Timed out',
});

/**
 * A record status as a person reads it: FINISHED is "Finished".
 * @param {unknown} status
 * @returns {string}
 */
export function statusLabel(status) {
  const s = String(status ?? '');
  return Object.hasOwn(STATUS_LABELS, s)
    ? STATUS_LABELS[/** @type {keyof typeof STATUS_LABELS} */ (s)]
    : s.toLowerCase().replace(/_/g, ' ');
}

/**
 * The time left until deadline: "4:05", "1:02:03", or "time is up"; '' when
 * deadline is not a time. Seconds round up, so "0:01" shows until the end.
 * @param {unknown} deadline an ISO time
 * @param {number} now ms since the epoch
 * @returns {string}
 */
export function countdown(deadline, now) {
  const end = typeof deadline === 'string' ? Date.parse(deadline) : NaN;
  if (Number.isNaN(end)) return '';
  const left = Math.ceil((end - now) / 1000);
  if (left <= 0) return 'time is up';
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = String(left % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** How long an ended handoff stays in the panel. */
export const ENDED_SHOWN_MS = 10 * 60 * 1000;

/**
 * The handoffs to show: RUNNING ones first, soonest deadline first, then
 * those that ended in the last ten minutes, latest first.
 * @param {unknown} state
 * @param {number} now
 * @returns {Handoff[]}
 */
export function handoffsToShow(state, now) {
  const all = handoffsOf(state);
  const running = all.filter((h) => h.status === RUNNING)
    .sort((a, b) => timeOf(a.deadline, Infinity) - timeOf(b.deadline, Infinity));
  const ended = all.filter((h) => h.status !== RUNNING &&
      now - timeOf(h.ended_at, now) <= ENDED_SHOWN_MS)
    .sort((a, b) => timeOf(b.ended_at, 0) - timeOf(a.ended_at, 0));
  return [...running, ...ended];
}

/**
 * @param {unknown} iso
 * @param {number} fallback when iso is not a time
 */
function timeOf(iso, fallback) {
  const t = typeof iso === 'string' ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? fallback : t;
}

/**
 * A task's progress: "3/20 — crawled /docs/a", "3", "crawled /docs/a", or ''.
 * @param {Task} task
 * @returns {string}
 */
export function progressText(task) {
  const p = task.progress;
  if (!p || typeof p !== 'object') return '';
  const done = Number.isFinite(p.done) ? p.done : undefined;
  const total = Number.isFinite(p.total) && /** @type {number} */ (p.total) > 0 ? p.total : undefined;
  let count = '';
  if (done !== undefined) count = total !== undefined ? `${done}/${total}` : String(done);
  const message = typeof p.message === 'string' ? p.message : '';
  return count && message ? `${count} — ${message}` : count || message;
}

/**
 * A duration in ms as "m:ss" (or "h:mm:ss"); '' when it is not one.
 * @param {unknown} ms
 * @returns {string}
 */
export function duration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '';
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/**
 * What the panel says of an open envelope: its objective, phase, the calls
 * and time it has used of its budget, and, when it wanders, why and the
 * step it was told to take.
 * @param {Envelope} e
 * @returns {{ objective: string, phase: string, usage: string,
 *   standing: string, warning: string, wandering: boolean }}
 */
export function envelopeLines(e) {
  const calls = Number.isInteger(e.calls) ? /** @type {number} */ (e.calls) : 0;
  const parts = [Number.isInteger(e.max_calls) && /** @type {number} */ (e.max_calls) > 0
    ? `${calls} of ${e.max_calls} calls` : `${calls} call${calls === 1 ? '' : 's'}`];
  const used = duration(e.elapsed_ms);
  if (used) {
    const max = typeof e.max_wall_ms === 'number' && e.max_wall_ms > 0 ? duration(e.max_wall_ms) : '';
    parts.push(max ? `${used} of ${max}` : used);
  }
  const status = String(e.budget_status ?? 'ok');
  const wandering = status !== 'ok' || !!e.warning;
  let standing = '';
  if (status === 'exceeded') standing = 'Over budget';
  else if (status === 'near') standing = 'Near its budget';
  const why = Array.isArray(e.budget_reasons) && e.budget_reasons.length ? String(e.budget_reasons[0]) : '';
  if (standing && why) standing += `: ${why}`;
  if (e.recommended_next) standing += `${standing ? '; ' : ''}told to ${String(e.recommended_next).replace(/_/g, ' ')}`;
  return {
    objective: String(e.objective ?? ''),
    phase: String(e.phase ?? ''),
    usage: parts.join(' · '),
    standing,
    warning: String(e.warning ?? ''),
    wandering,
  };
}

/**
 * One row of the activity list, as cells: time, agent, tool (with what the
 * call did where the tool alone does not say, as the files upload_file
 * gave), tab, outcome (✓ or the error code) and duration. Only what the
 * state holds: never arguments.
 * @param {Activity} a
 * @returns {{ time: string, agent: string, tool: string, tab: string,
 *   outcome: string, ms: string, ok: boolean }}
 */
export function activityRow(a) {
  const ok = a.ok === true;
  return {
    time: clock(a.at),
    agent: String(a.agent ?? ''),
    tool: a.detail ? `${a.tool ?? ''}: ${a.detail}` : String(a.tool ?? ''),
    // After a daemon restart the log knows the site, not the tab.
    tab: Number.isInteger(a.tabId) ? `tab ${a.tabId}` : String(a.origin ?? ''),
    outcome: ok ? '✓' : String(a.error || 'error'),
    ms: Number.isFinite(a.ms) ? `${Math.round(/** @type {number} */ (a.ms))} ms` : '',
    ok,
  };
}

/**
 * An ISO time as the local "14:30:05"; '' when it is not a time.
 * @param {unknown} iso
 * @returns {string}
 */
export function clock(iso) {
  const t = timeOf(iso, NaN);
  if (Number.isNaN(t)) return '';
  const d = new Date(t);
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * The name of the port the side panel holds to the worker, to learn at
 * once when the worker stops (and to wake it, by connecting again).
 */
export const PANEL_PORT = 'openchrome-panel';

/** What to run when the host is not there. */
export const DOCTOR = 'openchrome doctor';

/**
 * How long after the host went away the panel still says "Reconnecting":
 * the worker wakes itself and reconnects within seconds (at most one wake
 * alarm period, 30 s in a packed extension); past that something else is
 * wrong, and the panel says to run the doctor.
 */
export const RECONNECTING_MS = 60_000;

/**
 * Whether the link is down but coming back: the worker is down (it wakes
 * itself), starting, or lost the host a moment ago. A host Chrome cannot
 * find or may not start is not coming back by itself.
 * @param {Connection | undefined} connection
 * @param {number} now ms since the epoch
 * @param {boolean} workerUp whether the service worker answers
 * @returns {boolean}
 */
export function reconnecting(connection, now, workerUp) {
  if (!workerUp) return true;
  if (!connection || connection.connected) return false;
  if (connection.reason === 'connecting') return true;
  if (/not found|forbidden/i.test(connection.reason ?? '')) return false;
  const since = Date.parse(connection.since);
  return !Number.isNaN(since) && now - since < RECONNECTING_MS;
}

/**
 * The connection line of the panel.
 * @param {Connection | undefined} connection
 * @param {number} [now] ms since the epoch
 * @param {boolean} [workerUp] whether the service worker answers: a stopped
 *   worker cannot say its port is gone
 * @returns {string}
 */
export function connectionText(connection, now = Date.now(), workerUp = true) {
  if (workerUp && connection?.connected) return 'Connected';
  if (reconnecting(connection, now, workerUp)) return 'Reconnecting…';
  return `Not connected — run \`${DOCTOR}\``;
}

const BADGE_WAITING = '#d93025'; // red: the person is needed
const BADGE_OFFLINE = '#80868b'; // grey
const BADGE_IDLE = '#1a73e8';

/**
 * The toolbar badge: how many handoffs and questions wait for the person,
 * empty when none, "!" on grey when the host is not connected; the title
 * says which, and where to answer (an extension cannot open the side panel
 * itself, the person opens it with this button), or that it is
 * reconnecting.
 * @param {unknown} state
 * @param {Connection | undefined} connection
 * @param {number} [now] ms since the epoch
 * @returns {{ text: string, color: string, title: string }}
 */
export function badge(state, connection, now = Date.now()) {
  if (!connection?.connected) {
    return {
      text: '!',
      color: BADGE_OFFLINE,
      title: reconnecting(connection, now, true)
        ? 'OpenChrome: reconnecting to the openchrome program…'
        : `OpenChrome: not connected to the openchrome program. Run \`${DOCTOR}\`.`,
    };
  }
  const n = runningHandoffs(state).length;
  const q = questionsOf(state).length;
  if (q) {
    return {
      text: String(n + q),
      color: BADGE_WAITING,
      title: q === 1
        ? 'OpenChrome: the agent asks you something. Answer on the page, or click here for the side panel.'
        : `OpenChrome: the agent asks you ${q} things. Answer on the pages, or click here for the side panel.`,
    };
  }
  if (!n) return { text: '', color: BADGE_IDLE, title: 'OpenChrome: connected. Nothing is waiting for you.' };
  return {
    text: String(n),
    color: BADGE_WAITING,
    title: n === 1
      ? 'OpenChrome: an agent is waiting for you. Open the side panel.'
      : `OpenChrome: ${n} agent handoffs are waiting for you. Open the side panel.`,
  };
}
