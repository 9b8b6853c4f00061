// @ts-check
// The Chrome DevTools Protocol through chrome.debugger, the only caller of
// that API. A tab is attached lazily, on its first command, and stays
// attached until it closes or something detaches it (the user pressing Cancel
// on the "started debugging" bar, the person's Stop, a crash). Only a command
// attaches (send, attach): what merely belongs to a session (replies to its
// events, keeping it alive, cleaning up) goes through sendInSession, which
// never brings back a debugger that was let go. Events reach the subscribers of
// their method: those of the tab's own session, or (onChildEvent) those of an
// out-of-process frame's child session.

import { raceSignal, sleep } from '../lib/abort.js';
import { ActionError } from '../lib/errors.js';

const PROTOCOL_VERSION = '1.3';

/** Tabs we hold a debugger session on. @type {Set<number>} */
const attached = new Set();
/**
 * Why each tab's session last ended, when something other than us ended it.
 * @type {Map<number, string>}
 */
const detachedBy = new Map();
/**
 * Event subscribers by CDP method: of the tab's own session, and of the
 * child sessions of its out-of-process frames.
 * @type {Map<string, Set<(tabId: number, params: any) => unknown>>}
 */
const subscribers = new Map();
/** @type {Map<string, Set<(tabId: number, params: any, sessionId: string) => void>>} */
const childSubscribers = new Map();
/**
 * How many times we let go of each tab ourselves (detach): a command whose
 * session we ended on purpose, by Stop or when the tab went idle, must not
 * attach again to finish.
 * @type {Map<number, number>}
 */
const letGo = new Map();
/**
 * Attaches under way, so that two commands attach once.
 * @type {Map<number, Promise<void>>}
 */
const attaching = new Map();
/**
 * Tabs whose Debugger domain is on, with how many evaluations hold it, and
 * the timer that turns it off once none has for a while.
 * @type {Map<number, { users: number, ready: Promise<void>, off?: ReturnType<typeof setTimeout> }>}
 */
const debuggerDomains = new Map();
/**
 * How long the Debugger domain stays on after its last evaluation. Turning
 * it on replays an event for every script the page ever compiled, each
 * evaluation's included: an agent's run of javascript_tool calls would pay
 * more for each than for the last.
 */
const DEBUGGER_LINGER_MS = 30_000;

// Registered at the top level, in the worker's first evaluation: an event
// that wakes a stopped worker is dispatched only to the listeners present
// then.
chrome.debugger.onDetach.addListener((source, reason) => {
  if (source.tabId === undefined) return;
  attached.delete(source.tabId);
  debuggerDomains.delete(source.tabId); // its session, and state, are gone
  if (reason === 'canceled_by_user') detachedBy.set(source.tabId, reason);
  for (const fn of subscribers.get('detached') ?? []) fn(source.tabId, { reason });
  console.info(`cdp: tab ${source.tabId} detached (${reason})`);
});
chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.tabId === undefined) return;
  const { tabId, sessionId } = source;
  if (sessionId) {
    for (const fn of childSubscribers.get(method) ?? []) fn(tabId, params ?? {}, sessionId);
    return;
  }
  for (const fn of subscribers.get(method) ?? []) fn(tabId, params ?? {});
});
chrome.tabs.onRemoved.addListener((tabId) => {
  detachedBy.delete(tabId);
  letGo.delete(tabId);
});

/**
 * Calls fn for every CDP event named method, from any attached tab; the
 * pseudo-events 'attached' and 'detached' report a session starting and
 * ending ({reason}). An 'attached' subscriber may return a promise: the
 * attach resolves once it has settled, so what a new session must have
 * before its first command (the site policy's interception) is there.
 * @param {string} method e.g. 'Page.javascriptDialogOpening'
 * @param {(tabId: number, params: any) => unknown} fn
 */
export function onEvent(method, fn) {
  let fns = subscribers.get(method);
  if (!fns) subscribers.set(method, (fns = new Set()));
  fns.add(fn);
}

/**
 * Calls fn for every CDP event named method from a child session: an
 * out-of-process frame's, once Target.setAutoAttach has attached it.
 * @param {string} method
 * @param {(tabId: number, params: any, sessionId: string) => void} fn
 */
export function onChildEvent(method, fn) {
  let fns = childSubscribers.get(method);
  if (!fns) childSubscribers.set(method, (fns = new Set()));
  fns.add(fn);
}

/**
 * Reports whether the user dismissed the debugging bar on tabId since we
 * last attached: the next command says so before attaching again.
 * @param {number} tabId
 */
export function dismissedByUser(tabId) {
  return detachedBy.get(tabId) === 'canceled_by_user';
}

/**
 * The number of tabs we hold a debugger session on.
 * @returns {number}
 */
export function attachedCount() {
  return attached.size;
}

/**
 * Attaches the debugger to tabId unless it is attached already. With a
 * signal, the wait stops on abort, and an aborted command attaches nothing
 * at all: Stop may just have let go of the tab.
 * @param {number} tabId
 * @param {AbortSignal} [signal]
 * @returns {Promise<void>}
 * @throws {ActionError} conflict when another debugger holds the tab
 */
export function attach(tabId, signal) {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (attached.has(tabId)) return Promise.resolve();
  let pending = attaching.get(tabId);
  if (!pending) {
    pending = attachNow(tabId).finally(() => attaching.delete(tabId));
    attaching.set(tabId, pending);
  }
  return raceSignal(pending, signal);
}

/** @param {number} tabId */
async function attachNow(tabId) {
  try {
    await chrome.debugger.attach({ tabId }, PROTOCOL_VERSION);
  } catch (err) {
    if (!/already attached/i.test(messageOf(err))) throw attachError(err);
    // Sessions outlive the service worker, so the holder may be us, from
    // before a restart. Detaching succeeds only then; for DevTools, another
    // extension or a remote client it fails, and the tab is theirs.
    try {
      await chrome.debugger.detach({ tabId });
    } catch {
      throw conflict();
    }
    try {
      await chrome.debugger.attach({ tabId }, PROTOCOL_VERSION);
    } catch (again) {
      throw attachError(again);
    }
  }
  attached.add(tabId);
  detachedBy.delete(tabId);
  // Dialog events, and an open dialog reported at once.
  await chrome.debugger.sendCommand({ tabId }, 'Page.enable').catch(() => {});
  await Promise.allSettled([...(subscribers.get('attached') ?? [])].map((fn) => fn(tabId, {})));
}

/**
 * How long a tab may go without a command before its debugger is detached:
 * the "started debugging" bar then goes away, and the tab is the user's
 * alone again. The next command attaches again.
 */
const IDLE_MS = 5 * 60 * 1000;
/** @type {Map<number, ReturnType<typeof setTimeout>>} */
const idleTimers = new Map();

/**
 * Restarts tabId's idle timer.
 * @param {number} tabId
 */
function touch(tabId) {
  clearTimeout(idleTimers.get(tabId));
  idleTimers.set(tabId, setTimeout(() => {
    idleTimers.delete(tabId);
    detach(tabId);
  }, IDLE_MS));
}

/**
 * Sends a CDP command to tabId, attaching first when needed. CDP results are
 * typed per method; callers read the fields they asked for.
 * @param {number} tabId
 * @param {string} method e.g. 'Runtime.evaluate'
 * @param {Record<string, unknown>} [params]
 * @param {{ signal?: AbortSignal, sessionId?: string }} [options] the wait
 *   stops on abort, though the command itself may still run to its end in
 *   the browser; sessionId sends it to a child session (an out-of-process frame)
 * @returns {Promise<any>}
 */
export async function send(tabId, method, params = {}, { signal, sessionId } = {}) {
  for (let attempt = 0; ; attempt++) {
    await attach(tabId, signal);
    touch(tabId);
    const session = letGo.get(tabId);
    try {
      return await raceSignal(
        chrome.debugger.sendCommand(sessionId ? { tabId, sessionId } : { tabId }, method, params),
        signal,
      );
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      // Detached between attach and send (DevTools opened, a crash): attach
      // again once. Never when it went while the command ran ("Detached
      // while handling command"): the command may have run (a script, an
      // input), nor when we let go of the tab ourselves meanwhile.
      if (attempt === 0 && /not attached/i.test(messageOf(err)) && letGo.get(tabId) === session) {
        attached.delete(tabId);
        continue;
      }
      throw err;
    }
  }
}

/**
 * Sends a CDP command in the debugger session tabId has now, never starting
 * one. For what belongs to a session rather than to a command: replies to
 * its events, its child sessions, keeping it alive, undoing what a command
 * set up in it. A session that ended (Stop, the person's Cancel on the
 * debugging bar, the tab going idle) is not started again for any of that.
 * @param {number} tabId
 * @param {string} method
 * @param {Record<string, unknown>} [params]
 * @param {{ signal?: AbortSignal, sessionId?: string }} [options]
 * @returns {Promise<any>}
 * @throws {Error} when the tab has no session
 */
export async function sendInSession(tabId, method, params = {}, { signal, sessionId } = {}) {
  signal?.throwIfAborted();
  if (!attached.has(tabId)) throw new Error(`no debugger session on tab ${tabId}`);
  touch(tabId);
  return raceSignal(
    chrome.debugger.sendCommand(sessionId ? { tabId, sessionId } : { tabId }, method, params),
    signal,
  );
}

/**
 * Sends a command that undoes what the session set up for a command now
 * ending: releases its objects, turns a domain off, cancels a drag. A tab no
 * longer attached has none of that left, so it is not attached again for it:
 * the end of a command Stop aborted must not put the debugger back on a tab
 * Stop let go of. It never throws; there is nothing a caller could do.
 * @param {number} tabId
 * @param {string} method
 * @param {Record<string, unknown>} [params]
 * @param {{ sessionId?: string }} [options]
 * @returns {Promise<void>}
 */
export async function undo(tabId, method, params = {}, { sessionId } = {}) {
  await sendInSession(tabId, method, params, { sessionId }).catch(() => {});
}

/**
 * Turns tabId's Debugger domain on for the caller, so that interrupt can
 * stop a script it runs, and returns the function that gives it back; the
 * domain goes off when the last holder has given it back. Breakpoints are
 * deactivated meanwhile: the page's `debugger;` statements must not pause it
 * with nobody to resume.
 * @param {number} tabId
 * @param {{ signal?: AbortSignal }} [options]
 * @returns {Promise<(now?: boolean) => void>} release; calling it twice is harmless. The
 *   domain stays on a while after its last holder, unless released now.
 */
export async function holdDebugger(tabId, { signal } = {}) {
  let held = debuggerDomains.get(tabId);
  if (!held) {
    const ready = (async () => {
      await send(tabId, 'Debugger.enable');
      await send(tabId, 'Debugger.setBreakpointsActive', { active: false });
    })();
    const entry = { users: 0, ready };
    ready.catch(() => {
      if (debuggerDomains.get(tabId) === entry) debuggerDomains.delete(tabId);
    });
    debuggerDomains.set(tabId, (held = entry));
  }
  const entry = held;
  entry.users++;
  clearTimeout(entry.off);
  let released = false;
  /** @param {boolean} [now] off at once: after interrupt, whose pause may still be pending */
  const release = (now = false) => {
    if (released) return;
    released = true;
    if (--entry.users > 0 || debuggerDomains.get(tabId) !== entry) return;
    const off = () => {
      if (entry.users > 0 || debuggerDomains.get(tabId) !== entry) return;
      debuggerDomains.delete(tabId);
      // Also drops a pause that interrupt asked for and never got.
      undo(tabId, 'Debugger.disable');
    };
    if (now) off();
    else entry.off = setTimeout(off, DEBUGGER_LINGER_MS);
  };
  try {
    await raceSignal(entry.ready, signal);
  } catch (err) {
    release();
    throw err;
  }
  return release;
}

// How long the page's main thread may take to answer before it counts as
// busy (running a script) rather than idle (waiting, e.g. on a timer).
const PROBE_MS = 150;
// The waits between attempts to resume a pause that has not happened yet.
const RESUME_WAITS_MS = [0, 10, 20, 50, 100, 200, 400];

/**
 * Interrupts under way, by tab: detach waits for them, so that Stop lets go
 * of a tab once the script of the command it aborted has been stopped, and
 * not before (a detached debugger stops nothing, and its busy loop would run
 * on).
 * @type {Map<number, Promise<void>>}
 */
const interrupting = new Map();

/**
 * Stops the script running in tabId's main thread, if one is running; the
 * caller must hold the Debugger domain (holdDebugger). Best effort, and only
 * in the session there is: a tab let go of meanwhile is not attached again
 * to stop it.
 *
 * Runtime.terminateExecution would do, but Chrome refuses it to extensions
 * ("not allowed for untrusted clients"). Pausing and resuming with
 * terminateOnResume ends the script the same way. A thread that is idle is
 * left alone: a pause asked for then would stop the page's next script, not
 * ours. A page's own long task that happens to run right then is stopped too.
 * @param {number} tabId
 * @returns {Promise<void>}
 */
export function interrupt(tabId) {
  let pending = interrupting.get(tabId);
  if (!pending) {
    pending = interruptNow(tabId).finally(() => interrupting.delete(tabId));
    interrupting.set(tabId, pending);
  }
  return pending;
}

/** @param {number} tabId */
async function interruptNow(tabId) {
  if (await answers(tabId, PROBE_MS)) return;
  await sendInSession(tabId, 'Debugger.pause');
  for (const ms of RESUME_WAITS_MS) {
    await sleep(ms);
    try {
      await sendInSession(tabId, 'Debugger.resume', { terminateOnResume: true });
      return;
    } catch {
      // "Can only perform operation while paused": not paused yet
      if (!attached.has(tabId)) return;
    }
  }
}

/**
 * Whether tabId's page answers a command within ms: false when its main
 * thread is held by a script. A tab we hold no session on is not attached
 * to for it, and counts as answering.
 * @param {number} tabId
 * @param {number} ms
 * @returns {Promise<boolean>}
 */
export async function answers(tabId, ms) {
  if (!attached.has(tabId)) return true;
  const answered = sendInSession(tabId, 'Runtime.evaluate', { expression: '0' }).then(
    () => true,
    () => true,
  );
  return Promise.race([answered, sleep(ms).then(() => false)]);
}

/**
 * Detaches the debugger from tabId; nothing happens when it is not attached.
 * @param {number} tabId
 * @returns {Promise<void>}
 */
export async function detach(tabId) {
  // An attach under way would hold the tab again once it lands; an
  // interrupt under way needs the session to stop its script.
  const pending = [attaching.get(tabId), interrupting.get(tabId)].filter((p) => p !== undefined);
  if (pending.length) await Promise.allSettled(pending);
  clearTimeout(idleTimers.get(tabId));
  idleTimers.delete(tabId);
  debuggerDomains.delete(tabId);
  if (!attached.delete(tabId)) return;
  letGo.set(tabId, (letGo.get(tabId) ?? 0) + 1);
  try {
    await chrome.debugger.detach({ tabId });
  } catch {
    // already gone: the tab closed or someone else detached us
  }
}

/**
 * Detaches from every tab.
 * @returns {Promise<number>} how many tabs it detached from
 */
export async function detachAll() {
  await Promise.allSettled([...attaching.values(), ...interrupting.values()]);
  const tabs = [...attached];
  await Promise.all(tabs.map(detach));
  return tabs.length;
}

function conflict() {
  return new ActionError(
    'conflict',
    'another debugger (DevTools?) is attached to the tab',
    'close DevTools on that tab, then retry',
  );
}

/**
 * Maps a failed attach to what the agent can act on.
 * @param {unknown} err
 * @returns {unknown}
 */
function attachError(err) {
  const text = messageOf(err);
  if (/already attached/i.test(text)) return conflict();
  if (/no tab with/i.test(text)) {
    return new ActionError(
      'tab_not_found',
      'no such tab',
      "call tabs_context for the agent's tabs",
    );
  }
  if (/cannot access|cannot attach/i.test(text)) {
    // chrome://, the Web Store, other extensions' pages, and file:// pages
    // unless "Allow access to file URLs" is on.
    return new ActionError(
      'bad_request',
      'the browser does not let extensions debug this page',
    );
  }
  return err;
}

/** @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}
