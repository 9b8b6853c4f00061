// @ts-check
// The human's side (docs/human.md), chrome.* part: keeps the daemon's state
// and the port's connection in chrome.storage.session, where the side panel
// reads them; shows the badge; makes banners follow the state
// (sw/banner.js); answers the side panel's and the banner's runtime messages;
// and stops everything here when the person presses Stop. The decisions are
// lib/human.js's and lib/panel.js's, which node tests.

import { eventFrame } from '../lib/frames.js';
import { checkHumanMessage, isHumanMessage } from '../lib/human.js';
import { DOCTOR, PANEL_PORT, badge } from '../lib/panel.js';
import { rulesOf } from '../lib/policy.js';
import * as banner from './banner.js';
import * as cdp from './cdp.js';
import * as feedback from './feedback.js';
import * as policy from './policy.js';
import * as port from './port.js';

/** @typedef {import('../lib/human.js').Connection} Connection */

/**
 * The commands in flight, as Stop needs them: lib/router.js's Router.
 * @typedef {{ cancelAll(options?: { except?: string, message?: string }): number }} Commands
 */

/** The chrome.storage.session keys the side panel reads. */
const STATE_KEY = 'state';
const CONNECTION_KEY = 'connection';

/** The last state's data. @type {unknown} */
let state;
/** @type {Connection | undefined} */
let connection;
/** @type {Commands | undefined} */
let commands;
/** The side panels' ports (see onConnect). @type {Set<chrome.runtime.Port>} */
const panels = new Set();

/**
 * Everything that reads or changes state, connection, the badge or the
 * banners runs here, one after another: a state frame must not overtake the
 * one before it, nor a navigation see half of one.
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
  chain = run.then(() => {}, (err) => console.warn('human:', err));
  return run;
}

// A restarted worker picks up the state a previous one kept. Its port is
// new, so a stored "connected" is stale until the host answers again.
serial(async () => {
  const stored = await chrome.storage.session.get([STATE_KEY, CONNECTION_KEY]);
  state = stored[STATE_KEY];
  connection = /** @type {Connection | undefined} */ (stored[CONNECTION_KEY]);
  if (connection?.connected || !connection) {
    await setConnection({ connected: false, since: new Date().toISOString(), reason: 'connecting' });
  } else {
    await showBadge();
  }
});

// Listeners are registered at the top level, in the worker's first
// evaluation: an event that wakes a stopped worker is dispatched only to the
// listeners present then.

chrome.runtime.onInstalled.addListener(openPanelOnClick);
chrome.runtime.onStartup.addListener(openPanelOnClick);

// The banner goes with the document: put it back in every new one.
chrome.webNavigation.onCommitted.addListener(navigated);
chrome.webNavigation.onCompleted.addListener(navigated);

// The side panel holds a port to the worker, to learn at once when the
// worker stops; nothing is sent on it. Its connecting also wakes a stopped
// worker, so an open panel brings the extension back within a second.
chrome.runtime.onConnect.addListener((p) => {
  if (p.name !== PANEL_PORT || p.sender?.id !== chrome.runtime.id) return;
  panels.add(p);
  p.onDisconnect.addListener(() => panels.delete(p));
});

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  // Not ours: return falsy, so that the sender is not left waiting for an
  // answer nobody will send.
  if (!isHumanMessage(message)) return false;
  answer(message, sender).then(sendResponse, (err) => {
    sendResponse({ ok: false, error: `OpenChrome failed: ${err instanceof Error ? err.message : String(err)}` });
  });
  return true; // sendResponse is called later
});

/**
 * Gives Stop the commands to cancel. service-worker.js calls it once.
 * @param {Commands} router
 */
export function start(router) {
  commands = router;
}

/**
 * Takes a state frame's data: keeps it for the side panel, updates the badge
 * and the banners.
 * @param {unknown} data
 */
export function onState(data) {
  feedback.onState(data);
  policy.setRules(rulesOf(data));
  serial(async () => {
    const prev = state;
    state = data;
    await Promise.all([
      chrome.storage.session.set({ [STATE_KEY]: data }),
      showBadge(),
      banner.follow(prev, data),
    ]);
  });
}

/** The host answered on a new port. */
export function connected() {
  serial(() => setConnection({ connected: true, since: new Date().toISOString() }));
}

/**
 * The port closed.
 * @param {string} reason Chrome's, e.g. "Native host has exited."
 */
export function disconnected(reason) {
  serial(() => setConnection({
    connected: false,
    // Since it went away, not since the last try to connect again.
    since: connection && !connection.connected ? connection.since : new Date().toISOString(),
    reason,
  }));
}

/** @param {Connection} c */
async function setConnection(c) {
  connection = c;
  await Promise.all([chrome.storage.session.set({ [CONNECTION_KEY]: c }), showBadge()]);
}

async function showBadge() {
  const b = badge(state, connection);
  await Promise.all([
    chrome.action.setBadgeText({ text: b.text }),
    chrome.action.setBadgeBackgroundColor({ color: b.color }),
    chrome.action.setTitle({ title: b.title }),
  ]);
}

function openPanelOnClick() {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true })
    .catch((err) => console.warn('human: cannot set the side panel to open on click', err));
}

/**
 * @param {{ tabId: number, frameId: number, documentId?: string }} details
 */
function navigated({ tabId, frameId, documentId }) {
  if (frameId !== 0) return;
  serial(() => banner.navigated(tabId, documentId, state));
}

/**
 * Answers a {type: 'human', event, data} runtime message: checks who sent
 * it, does the local part of agent.stop, and tells the daemon.
 * @param {unknown} message
 * @param {chrome.runtime.MessageSender} sender
 * @returns {Promise<{ ok: boolean, error?: string }>}
 */
async function answer(message, sender) {
  const verdict = await serial(async () =>
    checkHumanMessage(message, sender, { extensionId: chrome.runtime.id, state }));
  if (!verdict.ok) return verdict;
  const connected = port.isConnected() && connection?.connected;
  // The daemon hears of a Stop before the commands it aborts answer, so the
  // agent's calls end saying the person stopped them, not just "cancelled".
  if (connected) port.send(eventFrame(verdict.event, verdict.data));
  if (verdict.event === 'agent.stop') await stopLocally();
  if (!connected) {
    const stopped = verdict.event === 'agent.stop' ? 'Stopped in this browser, but ' : '';
    return { ok: false, error: `${stopped}OpenChrome is not connected: run \`${DOCTOR}\`` };
  }
  return { ok: true };
}

/**
 * Stops what the extension itself is doing: cancels every command in flight
 * but except, removes every banner and question overlay and detaches the
 * debugger from every tab (what the agent's tabs log is kept again from
 * their next command). For the side panel's Stop and browser.stop.
 * @param {string} [except] the id of the command that asked (browser.stop),
 *   which must still answer
 * @returns {Promise<{ cancelled: number, banners: number, detached: number }>}
 */
export async function stopLocally(except) {
  const cancelled = commands?.cancelAll({ except, message: 'the person pressed Stop' }) ?? 0;
  const [banners, overlays] = await Promise.all([
    serial(() => banner.removeAll(state)),
    feedback.removeAll(),
  ]);
  const detached = await cdp.detachAll();
  return { cancelled, banners: banners + overlays, detached };
}
