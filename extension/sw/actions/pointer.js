// @ts-check
// input.*: raw mouse and keyboard at viewport coordinates, for the computer
// tool: what a person does looking at a screenshot.

import { sleep } from '../../lib/abort.js';
import { ActionError } from '../../lib/errors.js';
import { enumParam, intParam, stringParam, tabIdParam } from '../../lib/params.js';
import * as cdp from '../cdp.js';
import * as dialogs from '../dialogs.js';
import * as input from '../input.js';
import * as navigation from '../navigation.js';
import { checkTab } from '../tab-group.js';

/** @typedef {import('../../lib/router.js').Action} Action */

const BUTTONS = /** @type {const} */ (['left', 'right', 'middle']);

/**
 * A point param: {x, y} in CSS pixels of the viewport.
 * @param {Record<string, unknown>} params
 * @param {string} name
 */
function pointParam(params, name) {
  const p = /** @type {{ x?: unknown, y?: unknown } | undefined} */ (params[name]);
  if (!p || typeof p.x !== 'number' || typeof p.y !== 'number' || !Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    throw new ActionError('bad_request', `${name} must be {x, y} in CSS pixels of the viewport`);
  }
  return { x: p.x, y: p.y };
}

/**
 * Where the tab is after input, and whether the input navigated it or
 * opened a dialog.
 * @param {number} tabId
 * @param {number} start
 * @param {AbortSignal} signal
 */
async function after(tabId, start, signal) {
  await sleep(60, signal);
  const navigated = await navigation.settleNavigation(tabId, start, 15000, signal);
  const tab = await chrome.tabs.get(tabId);
  /** @type {Record<string, unknown>} */
  const out = { navigated, url: tab.url, title: tab.title };
  const d = dialogs.current(tabId);
  if (d) out.dialog = dialogs.describe(d);
  return out;
}

/**
 * Runs fn unless a dialog blocks the page; a dialog fn opens ends the wait.
 * @param {number} tabId
 * @param {(signal: AbortSignal) => Promise<unknown>} fn
 * @param {AbortSignal} signal
 */
async function run(tabId, fn, signal) {
  await checkTab(tabId);
  const open = dialogs.current(tabId);
  if (open) {
    throw new ActionError('conflict', `a JavaScript dialog is open: ${dialogs.describe(open)}`,
      'call interact with action accept_dialog or dismiss_dialog');
  }
  const start = Date.now();
  const next = dialogs.next(tabId);
  try {
    await Promise.race([fn(signal), next.opened]);
  } finally {
    next.cancel();
  }
  return after(tabId, start, signal);
}

/**
 * input.click: press and release a button at a point, count times.
 * @type {Action}
 */
export async function click(params, { signal }) {
  const tabId = tabIdParam(params);
  const at = pointParam(params, 'at');
  const button = enumParam(params, 'button', BUTTONS) ?? 'left';
  const count = intParam(params, 'count', 1, 3) ?? 1;
  return run(tabId, (s) => input.click(tabId, at, { button, count }, s), signal);
}

/**
 * input.move: move the mouse to a point.
 * @type {Action}
 */
export async function move(params, { signal }) {
  const tabId = tabIdParam(params);
  const at = pointParam(params, 'at');
  return run(tabId, (s) => input.move(tabId, at, s), signal);
}

/**
 * input.drag: press at one point, move to another, release.
 * @type {Action}
 */
export async function drag(params, { signal }) {
  const tabId = tabIdParam(params);
  const from = pointParam(params, 'at');
  const to = pointParam(params, 'to');
  return run(tabId, (s) => input.drag(tabId, from, to, s), signal);
}

/**
 * input.type: type text at the focus.
 * @type {Action}
 */
export async function type(params, { signal }) {
  const tabId = tabIdParam(params);
  const text = stringParam(params, 'text');
  if (!text) throw new ActionError('bad_request', 'type needs text');
  return run(tabId, (s) => input.type(tabId, text, s), signal);
}

/**
 * input.key: press a key or chord at the focus.
 * @type {Action}
 */
export async function key(params, { signal }) {
  const tabId = tabIdParam(params);
  const chord = stringParam(params, 'key');
  if (!chord) throw new ActionError('bad_request', 'key needs a key, e.g. "Enter" or "ctrl+a"');
  return run(tabId, (s) => input.press(tabId, chord, s), signal);
}

/**
 * input.scroll: turn the wheel at a point by dx, dy CSS pixels.
 * @type {Action}
 */
export async function scroll(params, { signal }) {
  const tabId = tabIdParam(params);
  const at = pointParam(params, 'at');
  const dx = Number(params.dx ?? 0);
  const dy = Number(params.dy ?? 0);
  if (!Number.isFinite(dx) || !Number.isFinite(dy) || (dx === 0 && dy === 0)) {
    throw new ActionError('bad_request', 'scroll needs dx or dy in CSS pixels');
  }
  return run(tabId, (s) => input.wheel(tabId, at, dx, dy, s), signal);
}

/**
 * input.viewport: the viewport's size in CSS pixels and its device pixel
 * ratio, so screenshots and coordinates agree.
 * @type {Action}
 */
export async function viewport(params, { signal }) {
  const tabId = tabIdParam(params);
  await checkTab(tabId);
  const m = await cdp.send(tabId, 'Page.getLayoutMetrics', {}, { signal });
  const css = m.cssVisualViewport ?? m.visualViewport;
  const device = m.visualViewport;
  return { width: css.clientWidth, height: css.clientHeight, dpr: device.clientWidth / css.clientWidth || 1 };
}
