// @ts-check
// What input did to a tab: whether it navigated or closed it, opened a
// dialog or tabs, and where the tab is now. For input that has no element to
// watch (input.*, and element.act's press without a ref).

import { sleep } from '../lib/abort.js';
import { quiet, scrolled, summarize, withScrolled } from '../lib/act.js';
import * as dialogs from './dialogs.js';
import * as downloads from './downloads.js';
import * as evidence from './evidence.js';
import * as fileChooser from './file-chooser.js';
import * as frameNavigation from './frame-navigation.js';
import * as navigation from './navigation.js';
import * as pageScript from './page-script.js';
import * as policy from './policy.js';
import * as popups from './popups.js';
import { unlessClosed } from './tab-group.js';

/** How long a page may take to react to input before we look. */
export const SETTLE_MS = 60;
/**
 * As long, for text written into a field: a page answers it in its input
 * handler, in the same task (a count, a check mark, a fetch it starts), or
 * after a debounce far longer than SETTLE_MS. Half saves a sign-in form a
 * tenth of its time.
 */
export const WRITE_SETTLE_MS = 30;
/** How long to wait for a navigation the input started. */
export const NAVIGATION_MS = 15000;
/**
 * How long the browser is given to report a navigation the page said it
 * began. The page knows at once; the worker hears in milliseconds, or in a
 * second or two on a machine busy with other work.
 */
export const LEAVING_MS = 5000;
/** How long to wait for the requests the input started to end. */
export const REQUESTS_MS = 3000;
/** How often they are looked at. */
const REQUESTS_POLL_MS = 25;
/**
 * How long after a click or key that changed nothing it still watches: a
 * page may act on a timer (a redirect after "Saved", a search sent when the
 * typing pauses), and "no visible change" would have the agent click again.
 * A second, as Playwright MCP waits after each action.
 */
export const LATE_MS = 1000;
/** How often it looks while it does. */
export const LATE_POLL_MS = 50;
/**
 * How long a page must have been still before the input for what it
 * changes in those LATE_MS to be said as the input's doing: a page that
 * changes on its own timers (a clock, a carousel) seldom is.
 */
const STILL_MS = 2000;

/**
 * What the second after an input that changed nothing at once says, once
 * it is over: 'stirred', the input started something (a request, a dialog,
 * a navigation, a tab, a download), to be settled as its answer; 'drawn',
 * what the page changed meanwhile is the input's doing, the page having
 * been still for STILL_MS before it (stillMs, from the watch); 'own', what
 * the page changed meanwhile is its own timers' doing, and the answer is
 * what the watch saw before this second.
 * @param {number} tabId
 * @param {number} start
 * @param {number | undefined} stillMs
 * @param {AbortSignal} signal
 * @returns {Promise<'stirred' | 'drawn' | 'own'>}
 */
export async function lateSecond(tabId, start, stillMs, signal) {
  if (await stirs(tabId, start, signal)) return 'stirred';
  return (stillMs ?? 0) >= STILL_MS ? 'drawn' : 'own';
}

/**
 * Whether anything happens within LATE_MS of now that the input sent at
 * start would have started: a request, a dialog, a navigation, a tab or a
 * download. A change to the page alone does not count: a page changes on
 * its own timers too (a carousel, a clock), and the input would be said to
 * have done it; whether the page had been still before says that (STILL_MS).
 * @param {number} tabId
 * @param {number} start
 * @param {AbortSignal} signal
 */
async function stirs(tabId, start, signal) {
  const sent = evidence.requestsOf(tabId).activity(start).sent;
  for (const deadline = Date.now() + LATE_MS; Date.now() < deadline;) {
    await sleep(LATE_POLL_MS, signal);
    const requests = evidence.requestsOf(tabId).activity(start);
    if (dialogs.current(tabId) || navigation.startedSince(tabId, start) || requests.pending || requests.sent > sent ||
      fileChooser.openedSince(tabId, start) || policy.refusedSince(tabId, start)) return true;
    if ((await popups.openedSince(tabId, start)).length || (await downloads.startedSince(tabId, start)).length) return true;
  }
  return false;
}

/**
 * Waits SETTLE_MS for the page to react to input sent since start, then, up
 * to REQUESTS_MS, until the requests sent since start (the ones a page
 * fetches to answer input: lib/network.js AWAITED) have ended and none
 * ended in the last SETTLE_MS, so that what the page does with an answer
 * (results drawn, a redirect after a sign-in) is there when it is looked
 * at. A request that chains on another counts as it is sent while waiting.
 * A dialog ends the wait (the page waits for it), and so does a navigation:
 * the requests of the page it leaves may never say they ended, and
 * settleNavigation waits for the next page. Says how many were still
 * running when the time was up.
 * @param {number} tabId
 * @param {number} start
 * @param {AbortSignal} signal
 * @param {number} [settleMs] SETTLE_MS, or WRITE_SETTLE_MS for text
 * @returns {Promise<number>}
 */
export async function settleRequests(tabId, start, signal, settleMs = SETTLE_MS) {
  // A navigation the input started ends the wait at once: settleNavigation
  // waits for the next page, and the old page's requests are no answer.
  await navigation.begun(tabId, start, settleMs, signal);
  const deadline = Date.now() + REQUESTS_MS;
  for (;;) {
    if (dialogs.current(tabId) || navigation.startedSince(tabId, start)) return 0;
    // Asked for each time: a tab's log is made with its first request.
    const a = evidence.requestsOf(tabId).activity(start);
    const now = Date.now();
    if (!a.pending && now - a.lastEnded >= settleMs) return 0;
    if (now >= deadline) return a.pending;
    await sleep(REQUESTS_POLL_MS, signal);
  }
}

/**
 * What a result says of text a dialog stopped being typed.
 * @param {number} typed
 * @param {number} all
 */
export function typedUntilDialog(typed, all) {
  return `${typed} of ${all} characters: the page opened a dialog`;
}

/**
 * What a result says of text whose field lost the focus as it was typed.
 * @param {number} typed
 * @param {number} all
 */
export function typedUntilFocusLost(typed, all) {
  return `${typed} of ${all} characters: then nothing on the page had the focus (it drew the field anew?), ` +
    'and the rest was not sent; fill sets the whole text in one input';
}

/**
 * Runs input fn unless a dialog blocks the page, and says what it did: where
 * the tab is, whether fn navigated it, opened a dialog or tabs, or closed
 * it. A dialog fn opens ends the wait for fn at once, and aborts stop: input
 * in steps (typing) sends no more.
 * @param {number} tabId
 * @param {(signal: AbortSignal, stop: AbortSignal) => Promise<unknown>} fn
 * @param {AbortSignal} signal
 * @returns {Promise<Record<string, unknown>>}
 */
export function runInput(tabId, fn, signal) {
  dialogs.refuseWhileOpen(tabId);
  return unlessClosed(tabId, () => effects(tabId, fn, signal), { navigated: false, closed: true });
}

/**
 * runWatched is runInput for input that has no element of its own to watch
 * (the computer tool's clicks and keys, a file chooser's answer): what it
 * did to the page is watched on the whole of the top document, and said in
 * changes as an element's action says it. A page that runs no script (a
 * PDF, the browser's own pages) takes the input all the same, unwatched.
 * @param {number} tabId
 * @param {(signal: AbortSignal, stop: AbortSignal) => Promise<unknown>} fn
 * @param {AbortSignal} signal
 * @param {{ keys?: boolean, late?: boolean }} [opts] keys: fn sends keys,
 *   and what they do to the element that has the focus is said too (its
 *   value, its states, the option it has active); late: fn is a click or a
 *   key a page may answer on a timer: when nothing came of it, it is
 *   watched LATE_MS longer before that is said
 * @returns {Promise<Record<string, unknown>>}
 */
export async function runWatched(tabId, fn, signal, { keys = false, late = false } = {}) {
  dialogs.refuseWhileOpen(tabId);
  const w = await watchPage(tabId, signal, keys);
  const start = Date.now();
  /** @type {Record<string, any>} */
  let out;
  /** What the watch saw before the late second, when that is the answer. */
  let early;
  try {
    out = await runInput(tabId, fn, signal);
    if (late && idle(out, w.url)) {
      const seen = await w.look(false);
      if (seen && quiet(seen)) {
        const said = await lateSecond(tabId, start, w.stillMs, signal);
        if (said === 'stirred') out = await unlessClosed(tabId, () => settled(tabId, start, signal), { navigated: false, closed: true });
        if (said === 'own') early = seen;
      }
    }
  } catch (err) {
    w.look(true); // ends the watch
    throw err;
  }
  if (out.dialog) {
    dialogs.holdWatch(tabId, w.look); // the answer says what the page did next
    return out;
  }
  if (out.navigated || out.closed) {
    w.look(true);
    return out;
  }
  // The address changed in place: an app's route, drawn after.
  const now = out.url !== w.url ? await w.look(false) : undefined;
  if (now?.urlChanged) {
    await routeDrawn(tabId, start, () => w.look(false), now, signal);
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (tab) Object.assign(out, { url: tab.url, title: tab.title });
  }
  const last = await w.look(true);
  const r = early && !last?.dialogOpen ? early : last;
  if (await followLeaving(tabId, start, r, signal)) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    Object.assign(out, { navigated: true, url: tab?.url, title: tab?.title });
    const going = navigation.goingTo(tabId, start);
    if (going) out.navigating = going;
    return out;
  }
  // A click at a point may land in a frame, which the watch of the top
  // document does not see into: a link there takes the frame elsewhere.
  const frame = keys ? undefined
    : (await frameNavigation.navigatedSince(tabId, start, { beginMs: 0, endMs: NAVIGATION_MS, signal })).at(-1);
  if (frame) {
    out.frameNavigated = frame.url;
    return out;
  }
  if (r && !r.lost && !r.dialogOpen) out.changes = summarize(r, out.downloads);
  return out;
}

/**
 * Whether input's answer (runInput's) says nothing came of it: the tab
 * where it was (url), no dialog, tab, download, chooser or request.
 * @param {Record<string, any>} out
 * @param {string | undefined} url
 */
function idle(out, url) {
  return !out.navigated && !out.closed && !out.dialog && !out.opened && !out.downloads && !out.fileChooser &&
    !out.navigationBlocked && !out.requestsRunning && out.url === url;
}

/**
 * Follows a navigation the page said it began (a watch's leaving: a form it
 * submitted on a file's choice, a location a handler set), or the browser
 * reported while the page was asked what changed, which the input's
 * effects were settled too early to see: that navigation is the input's
 * answer, not what the page drew meanwhile. One a router took over has
 * changed the URL in place already. Reports whether the tab navigated: a
 * navigation that never began, or turned into a download, leaves it where
 * it was.
 * @param {number} tabId
 * @param {number} start
 * @param {{ leaving?: string, urlChanged?: boolean } | undefined} report what a
 *   watch of the top document saw, undefined when its document is gone
 * @param {AbortSignal} signal
 * @returns {Promise<boolean>}
 */
export async function followLeaving(tabId, start, report, signal) {
  if (report?.urlChanged || !(report?.leaving || navigation.startedSince(tabId, start))) return false;
  if (!(await navigation.begun(tabId, start, LEAVING_MS, signal))) return false;
  return navigation.settleNavigation(tabId, start, NAVIGATION_MS, signal);
}

/**
 * A watch on the whole of tabId's top document (page/watch.js): look
 * says what it has seen so far, and with stop ends it; undefined where no
 * page script runs, or once the document is gone.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @param {boolean} [keys] keys are sent: the element that has the focus is watched too
 * @returns {Promise<{ look: dialogs.Look, url?: string, stillMs?: number }>}
 *   url: where the document was when the watch began; stillMs: how long it
 *   had not changed then
 */
export async function watchPage(tabId, signal, keys = false) {
  const w = await pageScript.call({ tabId, frameId: 0 }, 'watch', { keys }, signal).catch(() => undefined);
  return {
    url: w?.data.url,
    stillMs: w?.data.stillMs,
    look: (stop, s = signal) => (w
      ? pageScript.call({ tabId, documentId: w.documentId }, 'changes', { watch: w.data.watch, stop }, s)
        .then((r) => r.data, () => undefined)
      : Promise.resolve(undefined)),
  };
}

/**
 * How long, at most, an answer waits for an app to draw the route an input
 * changed in place (history.pushState), and how long the page must then be
 * still.
 */
const ROUTE_MS = 1500;
const ROUTE_STILL_MS = 150;
/** How long a route that drew nothing yet may be still before it is taken as drawn. */
const ROUTE_IDLE_MS = 500;
const ROUTE_POLL_MS = 50;

/**
 * An app that changed its route in place (history.pushState, or Back to
 * such a route) draws it after: at once, or once its data came. Waits, up
 * to ROUTE_MS, until something was drawn and the page, and the requests of
 * tabId since start, have been still for ROUTE_STILL_MS (ROUTE_IDLE_MS
 * while nothing was drawn), so that the agent reads the route it went to,
 * not the one it left. A jump to a part of the page (#section) is no
 * route. look says what a watch begun before the input has seen; report
 * is what it said last. Answers what it says at the end, or, when the page
 * went or a dialog holds it, what it said then.
 * @param {number} tabId
 * @param {number} start
 * @param {() => Promise<any>} look
 * @param {any} report
 * @param {AbortSignal} signal
 * @returns {Promise<any>}
 */
export async function routeDrawn(tabId, start, look, report, signal) {
  if (report.jumped) return report;
  const drawn = (/** @type {any} */ r) => (r.added ?? 0) + (r.removed ?? 0) + (r.texts ?? 0);
  const deadline = Date.now() + ROUTE_MS;
  let still = 0;
  while (Date.now() < deadline && !dialogs.current(tabId)) {
    await sleep(ROUTE_POLL_MS, signal);
    const next = await look();
    if (!next || next.navigated || next.dialogOpen || next.frameGone || next.lost) return next ?? report;
    const busy = evidence.requestsOf(tabId).activity(start).pending > 0;
    still = busy || drawn(next) !== drawn(report) ? 0 : still + ROUTE_POLL_MS;
    report = next;
    if (still >= (drawn(report) > 0 ? ROUTE_STILL_MS : ROUTE_IDLE_MS)) break;
  }
  return report;
}

/**
 * runAnswer is runInput for the answer to an open dialog, which input to
 * the page is refused during: what the page did once it ran on (another
 * dialog, a navigation away), and what it changed, as the watch of the
 * input that opened the dialog saw it (a row a confirmed Delete removed).
 * A dialog the agent's input did not open (a timer's) has no such watch.
 * @param {number} tabId
 * @param {(signal: AbortSignal) => Promise<unknown>} fn
 * @param {AbortSignal} signal
 * @returns {Promise<Record<string, any>>}
 */
export async function runAnswer(tabId, fn, signal) {
  const look = dialogs.takeWatch(tabId);
  /** @type {Record<string, any>} */
  let out;
  try {
    out = await unlessClosed(tabId, () => effects(tabId, fn, signal), { navigated: false, closed: true });
  } catch (err) {
    if (look) dialogs.holdWatch(tabId, look); // unanswered: the next answer may take it
    throw err;
  }
  if (!look || out.navigated || out.closed) return out;
  if (out.dialog) {
    dialogs.holdWatch(tabId, look); // the page asks again: the watch goes on
    return out;
  }
  const r = await look(true, signal).catch(() => undefined);
  if (r && !r.lost && !r.dialogOpen && !r.navigated && !r.frameGone) out.changes = summarize(r, out.downloads);
  return out;
}

/**
 * runInput's work while the tab stays.
 * @param {number} tabId
 * @param {(signal: AbortSignal, stop: AbortSignal) => Promise<unknown>} fn
 * @param {AbortSignal} signal
 * @returns {Promise<Record<string, unknown>>}
 */
async function effects(tabId, fn, signal) {
  const start = Date.now();
  const next = dialogs.next(tabId);
  const stop = new AbortController();
  try {
    await Promise.race([fn(signal, stop.signal), next.opened]);
  } finally {
    stop.abort();
    next.cancel();
  }
  return settled(tabId, start, signal);
}

/**
 * What the input sent at start did, once the page has settled: the requests
 * it started ended, a navigation it started followed; where the tab is.
 * @param {number} tabId
 * @param {number} start
 * @param {AbortSignal} signal
 * @returns {Promise<Record<string, unknown>>}
 */
async function settled(tabId, start, signal) {
  const running = await settleRequests(tabId, start, signal);
  const navigated = await navigation.settleNavigation(tabId, start, NAVIGATION_MS, signal);
  const tab = await chrome.tabs.get(tabId);
  /** @type {Record<string, unknown>} */
  const out = { navigated, url: tab.url, title: tab.title };
  const going = navigated ? navigation.goingTo(tabId, start) : undefined;
  if (going) out.navigating = going;
  const refusedWith = navigated ? navigation.refusedWith(tabId, start) : undefined;
  if (refusedWith) out.status = refusedWith;
  if (running) out.requestsRunning = running;
  const failed = evidence.requestsOf(tabId).failedSince(start);
  if (failed.length) out.failedRequests = failed;
  const d = dialogs.current(tabId);
  if (d) out.dialog = dialogs.describe(d);
  const opened = await popups.openedSince(tabId, start);
  if (opened.length) out.opened = opened;
  const started = await downloads.startedSince(tabId, start);
  if (started.length) out.downloads = started;
  const refused = policy.refusedSince(tabId, start);
  if (refused) out.navigationBlocked = policy.said(refused);
  const chooser = fileChooser.openedSince(tabId, start);
  if (chooser) out.fileChooser = { multiple: chooser.multiple, next: 'upload_file with the paths, without ref' };
  return out;
}

/**
 * How to ask where what a wheel at point moves stands (page/dom.js
 * scrollState), of the page script of target's frame.
 * @param {{ tabId: number, frameId: number }} target
 * @param {{ x: number, y: number }} point in that frame's view
 * @param {AbortSignal} signal
 * @returns {() => Promise<ScrollState>}
 */
export function scrollStateAt(target, point, signal) {
  return () => pageScript.call(target, 'scrollState', point, signal).then((r) => /** @type {ScrollState} */ (r.data));
}

/**
 * Turns a wheel and says where what it moves stands: asks where before,
 * runs wheel, asks again, and puts scrolled's account before the rest of
 * the answer's changes. wheel gets the place before (undefined when no
 * page script answers: the wheel turns all the same, unreported) and may
 * send nothing (delivered: false), which needs no second look. A wheel
 * turned down that leaves the view at the end is watched LATE_MS longer
 * for the content to grow: a feed loads more when it is scrolled to its
 * end, often after a timer or a request the wheel did not wait for.
 * @param {() => Promise<ScrollState>} where
 * @param {(before: ScrollState | undefined) => Promise<Record<string, any>>} wheel
 * @param {boolean} byRef the wheel was aimed at an element, not at the middle of the view
 * @param {{ down: boolean, signal: AbortSignal }} opts
 * @returns {Promise<Record<string, any>>}
 */
export async function wheelSaid(where, wheel, byRef, { down, signal }) {
  const before = await where().catch(() => undefined);
  const out = await wheel(before);
  if (!before || out.delivered === false || out.navigated || out.closed) return out;
  let after = await where().catch(() => undefined);
  if (after?.room && down && !after.room.down && after.pane === before.pane && after.height <= before.height) {
    for (const deadline = Date.now() + LATE_MS; Date.now() < deadline;) {
      await sleep(LATE_POLL_MS, signal);
      const now = await where().catch(() => undefined);
      if (now && now.pane === after.pane && now.height > after.height) {
        after = now;
        break;
      }
    }
  }
  if (after) out.changes = withScrolled(scrolled(before, after, byRef), out.changes);
  return out;
}
