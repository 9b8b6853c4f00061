// @ts-check
// The native port: the only caller of chrome.runtime.connectNative. It
// connects at start-up, says hello, hands every incoming frame to onFrame and
// reconnects with backoff when the host goes away (Chrome then spawns a new
// host). onOpen and onClose tell the side panel (sw/human.js) whether the
// host is there. While the port is open Chrome keeps the service worker
// alive, but it still stops it at times (an update or reload, a crash,
// memory pressure, a person): then the native host dies with the port, the
// daemon behind it stays, and the worker wakes itself (lib/wake.js) and
// connects again.

import { Backoff } from '../lib/backoff.js';
import { helloFrame } from '../lib/frames.js';
import { WAKE_ALARM, needsAlarm, wakePeriodMinutes } from '../lib/wake.js';
import { identity } from './identity.js';

/** @typedef {import('../lib/frames.js').BrowserFrame} BrowserFrame */

/** The native host's name, as in its manifest (manifests/). */
export const HOST_NAME = 'com.openchrome.host';

/**
 * @typedef {object} PortHandlers
 * @property {(message: unknown) => void} onFrame a frame from the host
 * @property {() => void} [onOpen] the host answered on a new port: its
 *   first frame arrived. Not when the port opens: for a host that is not
 *   installed Chrome opens one anyway, and closes it a moment later.
 * @property {(reason: string) => void} onClose the port closed; nothing
 *   sent before it reaches the host any more
 */

/** @type {PortHandlers | undefined} */
let handlers;
/** @type {chrome.runtime.Port | undefined} the open port */
let port;
/** Frames sent before the hello went out, in order. @type {BrowserFrame[]} */
let queued = [];
let helloSent = false;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retryTimer;
const backoff = new Backoff();

// Listeners are registered at the top level, in the worker's first
// evaluation: an event that wakes a stopped worker is dispatched only to the
// listeners present then. These exist to wake it, and a woken worker
// connects (service-worker.js calls start): when the browser starts, when
// the extension is installed, updated or reloaded, when the wake alarm
// fires, and on tab and navigation events. Chrome cannot wake a worker for
// the agent's tabs alone (a listener hears every tab), so any tab event
// wakes it; other modules listen to those events anyway.
chrome.runtime.onStartup.addListener(ensureConnected);
chrome.runtime.onInstalled.addListener(ensureConnected);
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === WAKE_ALARM) ensureConnected();
});
chrome.tabs.onUpdated.addListener(ensureConnected);
chrome.tabs.onActivated.addListener(ensureConnected);
chrome.webNavigation.onCommitted.addListener(ensureConnected);

/**
 * Starts the port: connects now and keeps reconnecting.
 * @param {PortHandlers} h
 */
export function start(h) {
  handlers = h;
  ensureConnected();
  keepWaking();
}

/**
 * Makes sure the wake alarm is set, with the period this install allows.
 * Chrome keeps alarms across worker restarts; after an update or a browser
 * restart they may be gone.
 */
async function keepWaking() {
  try {
    const self = await chrome.management.getSelf();
    const periodInMinutes = wakePeriodMinutes(self.installType);
    if (needsAlarm(await chrome.alarms.get(WAKE_ALARM), periodInMinutes)) {
      await chrome.alarms.create(WAKE_ALARM, { periodInMinutes, delayInMinutes: periodInMinutes });
    }
  } catch (err) {
    console.warn('port: cannot set the wake alarm', err);
  }
}

/**
 * Reports whether the port is open.
 * @returns {boolean}
 */
export function isConnected() {
  return port !== undefined;
}

/**
 * Sends frame to the host. Frames sent while no port is open are dropped:
 * the host that sent the command is gone.
 * @param {BrowserFrame} frame
 */
export function send(frame) {
  if (!port) {
    console.warn(`port: not connected, dropping a ${frame.type} frame`);
    return;
  }
  if (!helloSent) {
    queued.push(frame);
    return;
  }
  port.postMessage(frame);
}

function ensureConnected() {
  if (handlers && !port && retryTimer === undefined) connect();
}

function connect() {
  retryTimer = undefined;
  /** @type {chrome.runtime.Port} */
  let p;
  try {
    p = chrome.runtime.connectNative(HOST_NAME);
  } catch (err) {
    reconnectLater(err instanceof Error ? err.message : String(err));
    return;
  }
  port = p;
  helloSent = false;
  queued = [];
  backoff.connected(Date.now());
  let answered = false;
  p.onMessage.addListener((message) => {
    if (!answered) {
      answered = true;
      handlers?.onOpen?.();
    }
    handlers?.onFrame(message);
  });
  p.onDisconnect.addListener(() => {
    // Read lastError here, or Chrome reports it as unchecked. It says why:
    // "Specified native messaging host not found.", "Native host has
    // exited.", ...
    const reason = chrome.runtime.lastError?.message ?? 'the port closed';
    if (port !== p) return;
    port = undefined;
    handlers?.onClose(reason);
    reconnectLater(reason);
  });
  sayHello(p);
}

/**
 * Sends the hello on p, then whatever was sent meanwhile.
 * @param {chrome.runtime.Port} p
 */
async function sayHello(p) {
  let who;
  try {
    who = await identity();
  } catch (err) {
    console.error('port: cannot say hello', err);
    p.disconnect(); // onDisconnect does not fire for our own disconnect
    if (port === p) {
      port = undefined;
      handlers?.onClose('no hello');
      reconnectLater('no hello');
    }
    return;
  }
  if (port !== p) return;
  try {
    p.postMessage(helloFrame(who));
    helloSent = true;
    for (const frame of queued) p.postMessage(frame);
  } catch (err) {
    console.warn('port: cannot send', err); // onDisconnect follows
  } finally {
    queued = [];
  }
}

/** @param {string} reason */
function reconnectLater(reason) {
  const delay = backoff.disconnected(Date.now());
  console.warn(`port: ${reason} Reconnecting in ${delay} ms.`);
  retryTimer = setTimeout(connect, delay);
}
