// @ts-check
// JavaScript dialogs (alert, confirm, prompt, beforeunload): while one is
// open its page runs no script, so an injected call would wait for as long as
// the dialog stays. We follow them through CDP's Page events and answer them
// when the agent says so.

import { ActionError } from '../lib/errors.js';
import * as cdp from './cdp.js';

/**
 * An open dialog.
 * @typedef {{ type: string, message: string, defaultPrompt?: string }} Dialog
 */

/** @type {Map<number, Dialog>} */
const open = new Map();
/** Waiters for a tab's next dialog. @type {Map<number, Set<(d: Dialog) => void>>} */
const waiters = new Map();

cdp.onEvent('Page.javascriptDialogOpening', (tabId, p) => {
  /** @type {Dialog} */
  const d = { type: p.type, message: String(p.message ?? '').slice(0, 500) };
  if (p.type === 'prompt') d.defaultPrompt = String(p.defaultPrompt ?? '').slice(0, 200);
  open.set(tabId, d);
  for (const fn of waiters.get(tabId) ?? []) fn(d);
  waiters.delete(tabId);
});
cdp.onEvent('Page.javascriptDialogClosed', (tabId) => open.delete(tabId));
cdp.onEvent('detached', (tabId) => {
  open.delete(tabId);
  held.delete(tabId);
});

/**
 * What a watch of the page has seen since it began; stop ends it. signal
 * bounds the asking (the call that asks, not the one that began the watch).
 * @typedef {(stop: boolean, signal?: AbortSignal) => Promise<any>} Look
 */

/**
 * tabId -> the watch of the input that opened the tab's open dialog: the
 * page runs no script while the dialog is open, so what it does once the
 * dialog is answered (the row a confirmed Delete removes) is seen only by a
 * watch begun before. The answer to that dialog takes it.
 * @type {Map<number, { look: Look, dialog: Dialog }>}
 */
const held = new Map();

/**
 * Keeps the watch of the input that opened tabId's open dialog for its
 * answer, ending the one kept before (for a dialog the person answered).
 * With no dialog open (answered already), the watch just ends.
 * @param {number} tabId
 * @param {Look} look
 */
export function holdWatch(tabId, look) {
  const before = held.get(tabId);
  const dialog = open.get(tabId);
  if (dialog) held.set(tabId, { look, dialog });
  else held.delete(tabId);
  before?.look(true).catch(() => {});
  if (!dialog) look(true).catch(() => {});
}

/**
 * The watch kept for the answer to the dialog open on tabId, no longer
 * kept; undefined when no input of the agent's opened that dialog (a
 * timer did).
 * @param {number} tabId
 * @returns {Look | undefined}
 */
export function takeWatch(tabId) {
  const h = held.get(tabId);
  held.delete(tabId);
  if (h && h.dialog === open.get(tabId)) return h.look;
  h?.look(true).catch(() => {});
  return undefined;
}

/**
 * The dialog open on tabId, if any.
 * @param {number} tabId
 * @returns {Dialog | undefined}
 */
export function current(tabId) {
  return open.get(tabId);
}

/**
 * Resolves with tabId's next dialog; never rejects. The returned cancel
 * stops waiting.
 * @param {number} tabId
 * @returns {{ opened: Promise<Dialog>, cancel: () => void }}
 */
export function next(tabId) {
  /** @type {(d: Dialog) => void} */
  let resolve = () => {};
  const opened = new Promise((r) => {
    resolve = r;
  });
  let set = waiters.get(tabId);
  if (!set) waiters.set(tabId, (set = new Set()));
  set.add(resolve);
  return {
    opened: /** @type {Promise<Dialog>} */ (opened),
    cancel: () => {
      waiters.get(tabId)?.delete(resolve);
    },
  };
}

/**
 * Answers the dialog open on tabId.
 * @param {number} tabId
 * @param {boolean} accept
 * @param {string} [promptText] what to type into a prompt
 * @param {{ signal?: AbortSignal }} [options]
 */
export async function answer(tabId, accept, promptText, { signal } = {}) {
  /** @type {Record<string, unknown>} */
  const params = { accept };
  if (promptText !== undefined) params.promptText = promptText;
  const answered = open.get(tabId);
  await cdp.send(tabId, 'Page.handleJavaScriptDialog', params, { signal });
  // The page may open its next dialog (an alert after a confirm) before
  // the answer's reply comes back: that one stays open.
  if (open.get(tabId) === answered) open.delete(tabId);
}

/**
 * A one-line description of a dialog, for results and errors.
 * @param {Dialog} d
 */
export function describe(d) {
  // Chrome shows its own words for beforeunload, whatever the page set.
  if (d.type === 'beforeunload') return 'beforeunload "Leave site? Changes you made may not be saved."';
  return `${d.type} "${d.message}"`;
}

/**
 * Throws conflict when a dialog is open on tabId: its page runs nothing
 * until the dialog is answered.
 * @param {number} tabId
 */
export function refuseWhileOpen(tabId) {
  const d = open.get(tabId);
  if (d) {
    throw new ActionError('conflict', `a JavaScript dialog is open: ${describe(d)}`,
      'call interact with action accept_dialog or dismiss_dialog');
  }
}
