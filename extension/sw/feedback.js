// @ts-check
// The person's questions (browser_request_feedback, docs/human.md), chrome.*
// part: feedback.request shows a question in its tab's overlay
// (page/overlay.js) or, on a page no extension may script, in the side
// panel over a screenshot of the tab; brings the tab to the front; and
// waits for the answer the overlay or the panel sends as a runtime message,
// for the countdown, or for the command to be cancelled. The decisions are
// lib/feedback.js's.
//
// The worker may be stopped while the person thinks. So every question is
// kept in chrome.storage.session (`feedback`, and `feedbackShot:<id>` for a
// screenshot) and a restarted worker takes up where the last one stopped:
// its countdowns run again, the overlay is still in the page, an answer that
// arrives with no command waiting is kept until the host asks again for the
// same request (it does, once its link is back), and a question the host no
// longer lists in its state is withdrawn.

import { raceSignal } from '../lib/abort.js';
import { ActionError } from '../lib/errors.js';
import {
  MARKING,
  checkAnswer,
  isFeedbackMessage,
  newRecord,
  parseRequest,
  reconcile,
  resultOf,
  takeUp,
  timedOut,
} from '../lib/feedback.js';
import { PAGE_FILES } from '../lib/page-files.js';
import * as pageScript from './page-script.js';
import * as port from './port.js';

/** @typedef {import('../lib/feedback.js').Question} Question */
/** @typedef {import('../lib/feedback.js').Result} Result */
/** @typedef {import('../lib/router.js').TabContext} TabContext */

/** The chrome.storage.session keys the side panel reads. */
export const RECORDS_KEY = 'feedback';
export const SHOT_PREFIX = 'feedbackShot:';
const OVERLAY_FILE = 'page/overlay.js';
/** What the overlay is made of; injected before it. */
const SHELL_FILE = 'page/shell.js';
/** How long one injection may take: a page busy in a loop never runs it. */
const SCRIPT_MS = 3000;
/** How long reading the marks' refs may take before the answer goes without them. */
const MARKS_MS = 5000;
/** The modes that cannot be answered without the page or a picture of it. */
const NEEDS_PICTURE = ['point', 'element', 'region'];

/** The questions this worker keeps, by id, as in storage. @type {Map<string, Question>} */
let records = new Map();
/**
 * The commands of this worker waiting for an answer, by question id.
 * @type {Map<string, { promise: Promise<Result>, resolve: (r: Result) => void, reject: (e: unknown) => void }>}
 */
const waiters = new Map();
/** The countdowns. @type {Map<string, ReturnType<typeof setTimeout>>} */
const timers = new Map();

/**
 * Everything that reads or changes the records runs here, one after
 * another: an answer must not overtake the question it answers.
 */
let chain = Promise.resolve();

/**
 * Runs fn after everything queued before it.
 * @template T
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
function serial(fn) {
  const run = chain.then(fn);
  chain = run.then(() => {}, (err) => console.warn('feedback:', err));
  return run;
}

// A restarted worker takes up the questions a previous one kept.
serial(async () => {
  const stored = await chrome.storage.session.get(RECORDS_KEY);
  const list = /** @type {Question[]} */ (Array.isArray(stored[RECORDS_KEY]) ? stored[RECORDS_KEY] : []);
  records = new Map(list.map((r) => [r.id, r]));
  for (const r of records.values()) if (r.status === 'pending') arm(r);
});

// Listeners are registered at the top level, in the worker's first
// evaluation: the person's answer is what wakes a stopped worker, and it is
// dispatched only to the listeners present then.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  // Not ours: return falsy, so that the sender is not left waiting.
  if (!isFeedbackMessage(message)) return false;
  answer(message, sender).then(sendResponse, (err) => {
    sendResponse({ ok: false, error: `OpenChrome failed: ${err instanceof Error ? err.message : String(err)}` });
  });
  return true; // sendResponse is called later
});

// The overlay goes with the document: put it back in every new one.
chrome.webNavigation.onDOMContentLoaded.addListener(({ tabId, frameId }) => {
  if (frameId !== 0) return;
  serial(async () => {
    for (const r of records.values()) {
      if (r.tabId === tabId && r.status === 'pending' && r.place === 'overlay') await showOverlay(r);
    }
  });
});

// A question whose tab closes can no longer be answered.
chrome.tabs.onRemoved.addListener((tabId) => {
  serial(async () => {
    for (const r of [...records.values()]) {
      if (r.tabId !== tabId) continue;
      waiters.get(r.id)?.reject(new ActionError('tab_not_found', 'the tab was closed before the person answered',
        "call tabs_context for the agent's tabs"));
      waiters.delete(r.id);
      await forget(r.id);
    }
  });
});

/**
 * feedback.request: shows the question and waits for what the person does
 * with it. The same request again (the host asks again after its link came
 * back) waits for the question already shown, or returns the answer kept.
 * @param {Record<string, unknown>} params
 * @param {TabContext} ctx
 * @returns {Promise<Result>}
 */
export async function ask(params, { tabId, signal }) {
  const req = parseRequest(params);
  const rec = await serial(() => begin(req, tabId));
  if (rec.status === 'answered' && rec.result) {
    const result = rec.result;
    await serial(() => forget(rec.id));
    return result;
  }
  const waiter = waiters.get(rec.id);
  if (!waiter) throw new ActionError('internal', 'the question is neither answered nor waited for');
  try {
    return await raceSignal(waiter.promise, signal);
  } catch (err) {
    if (signal.aborted && waiters.get(rec.id) === waiter) {
      waiters.delete(rec.id);
      // Cancelled by the host (the agent cancelled, another place answered
      // first, Stop): the question goes. The host going away is not the
      // agent giving up: a host that outlives its link asks again, and a
      // new one's state withdraws it.
      if (port.isConnected()) await serial(() => forget(rec.id));
    }
    throw err;
  }
}

/**
 * Takes up request req: the question kept under its id, or a new one shown
 * in the tab (or, failing that, the panel). A command waits for it from now
 * on.
 * @param {import('../lib/feedback.js').Request} req
 * @param {number} tabId
 * @returns {Promise<Question>}
 */
async function begin(req, tabId) {
  let rec = records.get(req.requestId);
  const how = takeUp(rec, tabId);
  if (!rec) {
    rec = newRecord(req, tabId, Date.now());
    await bringToFront(tabId);
    if (!(await showOverlay(rec))) {
      rec.place = 'panel';
      rec.shot = await screenshot(rec);
      if (!rec.shot && NEEDS_PICTURE.includes(rec.mode)) {
        throw new ActionError('tab_not_allowed',
          'OpenChrome can neither show its overlay on this page nor take a screenshot of it',
          'navigate the tab to an ordinary web page, or ask in mode confirm, choose or comment');
      }
    }
    records.set(rec.id, rec);
    await save();
    arm(rec);
  } else if (how === 'wait' && rec.place === 'overlay') {
    await showOverlay(rec); // the worker restarted: the page may have moved on meanwhile
  }
  if (rec.status === 'pending') {
    waiters.get(rec.id)?.reject(new ActionError('cancelled', 'the host asked again for this request'));
    /** @type {(r: Result) => void} */
    let resolve = () => {};
    /** @type {(e: unknown) => void} */
    let reject = () => {};
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => {}); // rejected when nobody waits any more
    waiters.set(rec.id, { promise: /** @type {Promise<Result>} */ (promise), resolve, reject });
  }
  return rec;
}

/**
 * Answers a {type: 'feedback', requestId, answer} message from the overlay
 * or the side panel: checks who sent it, reads the refs of the overlay's
 * marks, and settles the question.
 * @param {unknown} message
 * @param {chrome.runtime.MessageSender} sender
 * @returns {Promise<{ ok: boolean, error?: string }>}
 */
function answer(message, sender) {
  return serial(async () => {
    const id = String(/** @type {{ requestId?: unknown }} */ (message).requestId ?? '');
    const record = records.get(id);
    const v = checkAnswer(message, sender, { extensionId: chrome.runtime.id, record });
    if (!v.ok || !record) return v;
    let marks = /** @type {import('../lib/feedback.js').Mark[]} */ ([]);
    if (v.answer.via === 'overlay' && !v.answer.dismissed && MARKING.includes(record.mode)) {
      marks = await readMarks(record);
    }
    await settle(id, resultOf(record, v.answer, marks));
    return { ok: true };
  });
}

/**
 * The refs of the elements the overlay kept, handed out by the page script
 * in read_page's ref space; [] when they cannot be read (the answer still
 * counts, with its coordinates).
 * @param {Question} record
 * @returns {Promise<import('../lib/feedback.js').Mark[]>}
 */
async function readMarks(record) {
  try {
    const data = await pageScript.callHanding(record.tabId, 'feedbackMarks', { requestId: record.id },
      AbortSignal.timeout(MARKS_MS));
    return Array.isArray(data?.marks) ? data.marks : [];
  } catch (err) {
    console.warn(`feedback: the marks of ${record.id} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
}

/**
 * Ends question id with result: hands it to the command waiting, or keeps
 * it for a host that asks again. Runs in serial.
 * @param {string} id
 * @param {Result} result
 */
async function settle(id, result) {
  const rec = records.get(id);
  if (!rec || rec.status !== 'pending') return;
  clearTimeout(timers.get(id));
  timers.delete(id);
  rec.status = 'answered';
  rec.result = result;
  const waiter = waiters.get(id);
  if (waiter) {
    waiters.delete(id);
    await forget(id);
    waiter.resolve(result);
    return;
  }
  await save();
  await removeOverlay(rec);
}

/**
 * Starts rec's countdown; its end is a timedOut answer.
 * @param {Question} rec
 */
function arm(rec) {
  clearTimeout(timers.get(rec.id));
  timers.set(rec.id, setTimeout(() => serial(() => settle(rec.id, timedOut())), Math.max(rec.deadline - Date.now(), 0)));
}

/**
 * Forgets question id: its overlay, its screenshot, its record. Runs in
 * serial.
 * @param {string} id
 */
async function forget(id) {
  const rec = records.get(id);
  clearTimeout(timers.get(id));
  timers.delete(id);
  if (!rec) return;
  records.delete(id);
  await Promise.all([
    save(),
    rec.shot ? chrome.storage.session.remove(SHOT_PREFIX + id) : undefined,
    rec.place === 'overlay' ? removeOverlay(rec) : undefined,
  ]);
}

function save() {
  return chrome.storage.session.set({ [RECORDS_KEY]: [...records.values()] });
}

/**
 * Takes a state frame's data: withdraws the questions whose host no longer
 * waits for them. sw/human.js calls it for every state.
 * @param {unknown} data
 */
export function onState(data) {
  serial(async () => {
    const { withdraw, drop } = reconcile([...records.values()], data, new Set(waiters.keys()), Date.now());
    for (const id of [...withdraw, ...drop]) await forget(id);
  });
}

/**
 * Removes every question, for Stop: the commands waiting are cancelled by
 * the router; this takes away what no command waits for.
 * @returns {Promise<number>} how many overlays it removed
 */
export function removeAll() {
  return serial(async () => {
    const shown = [...records.values()].filter((r) => r.place === 'overlay' && r.status === 'pending').length;
    for (const id of [...records.keys()]) {
      waiters.get(id)?.reject(new ActionError('cancelled', 'the person pressed Stop'));
      waiters.delete(id);
      await forget(id);
    }
    return shown;
  });
}

/**
 * chrome.scripting.executeScript, given up on after SCRIPT_MS.
 * @param {chrome.scripting.ScriptInjection<any[], unknown>} injection
 */
function run(injection) {
  return raceSignal(chrome.scripting.executeScript(injection), AbortSignal.timeout(SCRIPT_MS));
}

/**
 * Shows rec in its tab's top frame, with the page script (which picks the
 * elements); false when the page cannot be scripted (a chrome:// or
 * extension page, the Web Store, the PDF viewer, a page that blocks it).
 * @param {Question} rec
 * @returns {Promise<boolean>}
 */
async function showOverlay(rec) {
  const target = { tabId: rec.tabId, frameIds: [0] };
  try {
    await run({ target, files: [...PAGE_FILES, SHELL_FILE, OVERLAY_FILE], injectImmediately: true });
    const [res] = await run({
      target,
      injectImmediately: true,
      func: (q) => {
        const api = /** @type {any} */ (globalThis).__openchromeFeedback;
        if (!api) return false;
        api.show(q);
        return true;
      },
      args: [{ id: rec.id, mode: rec.mode, prompt: rec.prompt, options: rec.options, deadline: rec.deadline }],
    });
    return res?.result === true;
  } catch (err) {
    console.debug(`feedback: no overlay in tab ${rec.tabId}: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}

/**
 * Removes rec's overlay, if its page still shows it.
 * @param {Question} rec
 */
async function removeOverlay(rec) {
  try {
    await run({
      target: { tabId: rec.tabId, frameIds: [0] },
      injectImmediately: true,
      func: () => /** @type {any} */ (globalThis).__openchromeFeedback?.remove() === true,
    });
  } catch {
    // the tab is gone, or cannot be scripted and so has none
  }
}

/**
 * Keeps a screenshot of rec's tab for the side panel; false when Chrome
 * will not take one (chrome:// pages).
 * @param {Question} rec
 * @returns {Promise<boolean>}
 */
async function screenshot(rec) {
  try {
    const tab = await chrome.tabs.get(rec.tabId);
    const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'jpeg', quality: 80 });
    await chrome.storage.session.set({ [SHOT_PREFIX + rec.id]: dataUrl });
    return true;
  } catch (err) {
    console.debug(`feedback: no screenshot of tab ${rec.tabId}: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}

/**
 * Brings the tab and its window to the front: the person should see what
 * they are asked about (and captureVisibleTab takes the active tab).
 * @param {number} tabId
 */
async function bringToFront(tabId) {
  try {
    const tab = await chrome.tabs.update(tabId, { active: true });
    if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true });
  } catch {
    // a window that cannot take focus (headless) still shows the tab
  }
}
