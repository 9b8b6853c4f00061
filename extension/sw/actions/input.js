// @ts-check
// input.*: raw mouse and keyboard at viewport coordinates, for the computer
// tool: what a person does looking at a screenshot.

import { ActionError, opensApp } from '../../lib/errors.js';
import { followsLink, refuseChord } from '../../lib/keys.js';
import { enumParam, intParam, stringParam } from '../../lib/params.js';
import { tabAction } from '../../lib/router.js';
import { devicePixelRatio } from '../../lib/shot-scale.js';
import * as cdp from '../cdp.js';
import * as dialogs from '../dialogs.js';
import * as pageScript from '../page-script.js';
import { runWatched, scrollStateAt, typedUntilDialog, wheelSaid } from '../input-effects.js';
import * as input from '../trusted-input.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

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
 * input.click: press and release a button at a point, count times.
 * @type {TabAction}
 */
async function click(params, { tabId, signal }) {
  const at = pointParam(params, 'at');
  const button = enumParam(params, 'button', BUTTONS) ?? 'left';
  const count = intParam(params, 'count', 1, 3) ?? 1;
  if (button === 'left') {
    // As element.act refuses it: Chrome would hand the link to another
    // program, or hold the tab with a prompt. A page no script reaches says nothing.
    const { app } = await pageScript.call({ tabId, frameId: 0 }, 'appAt', at, signal)
      .then((r) => /** @type {{ app?: string }} */ (r.data)).catch(() => ({ app: undefined }));
    if (app) throw opensApp(`the link at [${at.x}, ${at.y}]`, app, 'clicked');
  }
  return runWatched(tabId, (s) => input.click(tabId, at, { button, count }, s), signal, { late: true });
}

/**
 * input.move: move the mouse to a point.
 * @type {TabAction}
 */
async function move(params, { tabId, signal }) {
  const at = pointParam(params, 'at');
  return runWatched(tabId, (s) => input.move(tabId, at, s), signal);
}

/**
 * input.drag: press at one point, move to another, release.
 * @type {TabAction}
 */
async function drag(params, { tabId, signal }) {
  const from = pointParam(params, 'at');
  const to = pointParam(params, 'to');
  return runWatched(tabId, (s) => input.drag(tabId, from, to, async () => to, s), signal);
}

/**
 * input.type: type text at the focus.
 * @type {TabAction}
 */
async function type(params, { tabId, signal }) {
  const text = stringParam(params, 'text');
  if (!text) throw new ActionError('bad_request', 'type needs text');
  let typed = 0;
  const out = await runWatched(tabId, (s, stop) => input.type(tabId, text, s, { stop, pressed: () => typed++ }), signal);
  const all = [...text].length;
  if (out.dialog && typed < all) out.typed = typedUntilDialog(typed, all);
  return out;
}

/**
 * input.key: press a key or chord at the focus.
 * @type {TabAction}
 */
async function key(params, { tabId, signal }) {
  const chord = stringParam(params, 'key');
  if (!chord) throw new ActionError('bad_request', 'key needs a key, e.g. "Enter" or "ctrl+a"');
  // As element.act's press refuses it.
  const now = followsLink(chord) ? await pageScript.callHanding(tabId, 'focused', {}, signal).catch(() => undefined) : undefined;
  refuseChord(chord, now?.app, `the focused ${now?.name}`);
  return runWatched(tabId, (s) => input.press(tabId, chord, s), signal, { keys: true, late: true });
}

/**
 * input.scroll: turn the wheel at a point by dx, dy CSS pixels.
 * @type {TabAction}
 */
async function scroll(params, { tabId, signal }) {
  const at = pointParam(params, 'at');
  const dx = Number(params.dx ?? 0);
  const dy = Number(params.dy ?? 0);
  if (!Number.isFinite(dx) || !Number.isFinite(dy) || (dx === 0 && dy === 0)) {
    throw new ActionError('bad_request', 'scroll needs dx or dy in CSS pixels');
  }
  // Where what the wheel moves is, before and after, as interact's scroll says.
  const where = scrollStateAt({ tabId, frameId: 0 }, at, signal);
  return wheelSaid(where, () => runWatched(tabId, (s) => input.wheel(tabId, at, dx, dy, s), signal), true, { down: dy > 0, signal });
}

/**
 * input.viewport: the viewport's size in CSS pixels and its device pixel
 * ratio, so screenshots and coordinates agree.
 * @type {TabAction}
 */
async function viewport(_params, { tabId, signal }) {
  dialogs.refuseWhileOpen(tabId); // the page answers nothing under it
  const m = await cdp.send(tabId, 'Page.getLayoutMetrics', {}, { signal });
  const css = m.cssVisualViewport ?? m.visualViewport;
  return { width: css.clientWidth, height: css.clientHeight, dpr: devicePixelRatio(m) };
}

export const ACTIONS = [
  tabAction('input.click', click),
  tabAction('input.move', move),
  tabAction('input.drag', drag),
  tabAction('input.type', type),
  tabAction('input.key', key),
  tabAction('input.scroll', scroll),
  tabAction('input.viewport', viewport),
];
