// @ts-check
// element.*: finding elements and form fields, and acting on one by ref.
// How element.act acts (the click ladder, fill, select, ...) is
// sw/target.js.

import { ACT_ACTIONS, DIRECTIONS } from '../../lib/act.js';
import { ActionError } from '../../lib/errors.js';
import { refuseChord } from '../../lib/keys.js';
import { boolParam, enumParam, intParam, stringParam } from '../../lib/params.js';
import { tabAction } from '../../lib/router.js';
import * as cdp from '../cdp.js';
import * as pageScript from '../page-script.js';
import * as dialogs from '../dialogs.js';
import { siteSecrets } from '../secrets.js';
import { runAnswer, runInput, runWatched, scrollStateAt, wheelSaid } from '../input-effects.js';
import { focusMoved, Target } from '../target.js';
import * as input from '../trusted-input.js';
import { upload as setFiles } from '../upload.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * element.act: one action on the element behind ref; with secrets, and
 * the site's secrets of the page the action left the tab on, read after it
 * (sw/secrets.js), for the engine to mask its answer with.
 * @type {TabAction}
 */
async function act(params, context) {
  const out = /** @type {Record<string, unknown>} */ (await actOnce(params, context));
  if (boolParam(params, 'secrets', false) && !out.closed) {
    const url = typeof out.url === 'string' ? out.url : (await chrome.tabs.get(context.tabId)).url ?? '';
    Object.assign(out, await siteSecrets(context.tabId, url));
  }
  return out;
}

/**
 * One action on the element behind ref.
 * @type {TabAction}
 */
async function actOnce(params, { tabId, signal }) {
  const action = enumParam(params, 'action', ACT_ACTIONS);
  if (!action) throw new ActionError('bad_request', 'action is required');

  if (action === 'accept_dialog' || action === 'dismiss_dialog') {
    const d = dialogs.current(tabId);
    if (!d) throw new ActionError('bad_request', 'no JavaScript dialog is open in this tab');
    const text = stringParam(params, 'text');
    const out = await runAnswer(tabId, (s) => dialogs.answer(tabId, action === 'accept_dialog', text, { signal: s }), signal);
    // dialog, when there is one, is the next one the page opened.
    return { action, answered: dialogs.describe(d), delivered: true, ...out };
  }
  /** What has the focus, with a ref; nothing when the page itself has it. */
  const focused = () => pageScript.callHanding(tabId, 'focused', {}, signal).catch(() => undefined);
  if (action === 'press' && params.ref === undefined) {
    const key = requireString(params, 'key', 'press needs key, e.g. "Enter" or "ctrl+a"');
    const before = await focused();
    refuseChord(key, before?.app, `the focused ${before?.name}`);
    // What the key did is watched on the whole page: Escape closing a
    // dialog, a shortcut opening a panel.
    const out = await runWatched(tabId, (s) => input.press(tabId, key, s), signal, { keys: true, late: true });
    /** @type {Record<string, unknown>} */
    const result = { action, key, delivered: true, ...out };
    if (!out.navigated && !out.closed && !out.dialog) {
      // Tab, an arrow in a menu: where the keys go next.
      const moved = focusMoved(before?.ref, await focused());
      if (moved) result.focused = moved;
    }
    return result;
  }
  if (action === 'type' && params.ref === undefined) {
    // Into what has the focus (an editor a double click opened in place),
    // as typed into it by its ref.
    const now = await focused();
    if (!now?.ref) {
      throw new ActionError('bad_request', 'type without ref types into what has the focus, and nothing on the page has it',
        'pass the ref or query of the field to type into');
    }
    if (now.name?.startsWith('iframe')) {
      throw new ActionError('bad_request', `the focus is inside ${now.name}: type without ref reaches no further`,
        'pass the ref of the field in the frame (read_page shows it)');
    }
    params = { ...params, ref: `e${now.ref}` };
  }
  if (action === 'scroll' && params.ref === undefined) {
    // The page itself, as a person scrolls with the wheel over it: what
    // moves is what lies under the middle of the view, a pane or the page.
    const direction = enumParam(params, 'direction', DIRECTIONS) ?? 'down';
    const m = await cdp.send(tabId, 'Page.getLayoutMetrics', {}, { signal });
    const { clientWidth: w, clientHeight: h } = m.cssLayoutViewport;
    const px = typeof params.amount === 'number' && params.amount > 0 ? params.amount : Math.round(h * 0.8);
    const dx = direction === 'left' ? -px : direction === 'right' ? px : 0;
    const dy = direction === 'up' ? -px : direction === 'down' ? px : 0;
    const centre = { x: Math.round(w / 2), y: Math.round(h / 2) };
    const where = scrollStateAt({ tabId, frameId: 0 }, centre, signal);
    const out = await wheelSaid(where, () => runInput(tabId, (s) => input.wheel(tabId, centre, dx, dy, s), signal), false, { down: dy > 0, signal });
    return { action, delivered: true, ...out, changes: out.changes ?? 'no visible change' };
  }

  const t = await pageScript.resolve(tabId, params.ref);
  const offset = await pageScript.frameOffset(tabId, t.frameId, signal);
  const el = new Target(t, offset, signal);
  switch (action) {
    case 'click':
    case 'double_click':
    case 'right_click':
      return el.click(action);
    case 'drag':
      return el.drag(params.target, params.to);
    case 'hover':
      return el.hover();
    case 'focus':
      return el.focus();
    case 'type':
    case 'fill':
      return el.write(action, requireString(params, 'text', `${action} needs text`), { pick: boolParam(params, 'pick', false) });
    case 'clear':
      return el.write('fill', '');
    case 'select':
      return el.select(params.values ?? params.text);
    case 'check':
    case 'uncheck':
      return el.check(action === 'check');
    case 'press':
      return el.press(requireString(params, 'key', 'press needs key, e.g. "Enter" or "ctrl+a"'));
    case 'scroll':
      return el.scroll(enumParam(params, 'direction', DIRECTIONS) ?? 'down', params.amount);
    case 'scroll_into_view':
      return el.scrollIntoView();
  }
  throw new ActionError('bad_request', `unknown action ${action}`);
}

/**
 * element.locate: where ref's element is and what state it is in, without
 * touching it. A ref that is gone is stale_ref.
 * @type {TabAction}
 */
async function locate(params, { tabId, signal }) {
  const t = await pageScript.resolve(tabId, params.ref);
  return pageScript.onRef(t, 'locate', {}, signal);
}

/** find's score for an element whose name is the query (page/find.js). */
const EXACT = 90;

/**
 * element.find: ranked candidates for a query.
 * @type {TabAction}
 */
async function find(params, { tabId, signal }) {
  const query = stringParam(params, 'query');
  if (!query?.trim()) throw new ActionError('bad_request', 'query is empty');
  const limit = intParam(params, 'limit', 1, 100) ?? 10;
  const top = await pageScript.callHanding(tabId, 'find', { query, limit }, signal);
  /** @type {Array<{ ref: number, role: string, name: string, why: string, score: number }>} */
  let candidates = top.candidates;
  let total = top.total;
  // An element of the page itself named exactly so is the one meant.
  if (candidates.some((c) => c.score >= EXACT)) return top;
  // Else the cross-origin frames the top's script cannot walk (a payment or
  // consent frame) too; an equal score keeps the top's candidate first.
  for (const frameId of await pageScript.crossFrames(tabId, signal).catch(() => [])) {
    const r = await pageScript.callHandingIn({ tabId, frameId }, 'find', { query, limit }, signal).catch(() => null);
    if (!r) continue;
    candidates = [...candidates, ...r.candidates];
    total += r.total;
  }
  candidates = candidates.sort((a, b) => b.score - a.score).slice(0, limit);
  return { ...top, candidates, total };
}

/**
 * element.field: the form control labelled label (and, in a group, the
 * option named value; with values, every box of the group and whether
 * values name it).
 * @type {TabAction}
 */
async function field(params, { tabId, signal }) {
  const label = stringParam(params, 'label');
  if (!label?.trim()) throw new ActionError('bad_request', 'label is empty');
  const values = params.values;
  if (values !== undefined && !(Array.isArray(values) && values.length && values.every((v) => typeof v === 'string'))) {
    throw new ActionError('bad_request', 'values must be a list of strings');
  }
  const args = { label, value: stringParam(params, 'value'), values };
  try {
    return await pageScript.callHanding(tabId, 'field', args, signal);
  } catch (err) {
    if (!(err instanceof ActionError && err.code === 'not_found')) throw err;
    // A field in a cross-origin frame (a card number in a payment frame).
    for (const frameId of await pageScript.crossFrames(tabId, signal).catch(() => [])) {
      const r = await pageScript.callHandingIn({ tabId, frameId }, 'field', args, signal).catch(() => null);
      if (r) return r;
    }
    throw err;
  }
}

/**
 * @param {Record<string, unknown>} params
 * @param {string} name
 * @param {string} message
 */
function requireString(params, name, message) {
  const v = stringParam(params, name);
  if (v === undefined) throw new ActionError('bad_request', message);
  return v;
}

/**
 * element.upload: sets the files of the file input behind ref, or of the
 * file chooser open in the tab when there is no ref. The host has checked
 * the paths.
 * @type {TabAction}
 */
async function upload(params, { tabId, signal }) {
  const files = params.files;
  if (!Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === 'string' && f !== '')) {
    throw new ActionError('bad_request', 'files must be a list of paths');
  }
  return setFiles(tabId, params.ref, files, signal);
}

export const ACTIONS = [
  tabAction('element.act', act),
  tabAction('element.upload', upload),
  tabAction('element.locate', locate),
  tabAction('element.find', find),
  tabAction('element.field', field),
];
