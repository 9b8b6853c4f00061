// @ts-check
// element.act: acting on one element by ref with trusted input, and saying
// what happened. Clicks climb a recovery ladder until one takes effect:
//
//   S1 a click at the centre of the element's box, if a hit test says the
//      click lands on it
//   S2 the same after scrolling it into the middle of the viewport
//   S3 another point of its box that the hit test confirms
//   S4 a DOM-level click (element.click())
//   S5 the keyboard: focus it, then Enter (Space for checkboxes and radios)
//   S6 raw input events at its centre, whatever the hit test says
//
// A mouse strategy counts when the element received the trusted click (or
// the click navigated or opened a dialog); S4 and S5 count when the page
// visibly changed. When none does, the result says so and suggests handing
// the tab to the human (S7).

import { sleep } from '../../lib/abort.js';
import { ActionError } from '../../lib/errors.js';
import { enumParam, stringParam, tabIdParam } from '../../lib/params.js';
import * as agent from '../agent.js';
import * as dialogs from '../dialogs.js';
import * as input from '../input.js';
import * as navigation from '../navigation.js';
import { checkTab } from '../tab-group.js';

/** @typedef {import('../../lib/router.js').Action} Action */
/** @typedef {import('../agent.js').RefTarget} RefTarget */
/** @typedef {{ x: number, y: number }} Point */

const ACTIONS = /** @type {const} */ ([
  'click', 'double_click', 'right_click', 'hover', 'focus', 'type', 'fill', 'clear', 'select',
  'check', 'uncheck', 'press', 'scroll', 'scroll_into_view', 'accept_dialog', 'dismiss_dialog',
]);
const DIRECTIONS = /** @type {const} */ (['up', 'down', 'left', 'right']);

/** How long a page may take to react to input before we look. */
const SETTLE_MS = 60;
/** How long to wait for a navigation the action started. */
const NAVIGATION_MS = 15000;

/**
 * element.act: one action on the element behind ref.
 * @type {Action}
 */
export async function act(params, { signal }) {
  const tabId = tabIdParam(params);
  const action = enumParam(params, 'action', ACTIONS);
  if (!action) throw new ActionError('bad_request', 'action is required');
  await checkTab(tabId);

  if (action === 'accept_dialog' || action === 'dismiss_dialog') {
    const d = dialogs.current(tabId);
    if (!d) throw new ActionError('bad_request', 'no JavaScript dialog is open in this tab');
    await dialogs.answer(tabId, action === 'accept_dialog', stringParam(params, 'text'), { signal });
    await sleep(SETTLE_MS);
    const tab = await chrome.tabs.get(tabId);
    return { action, dialog: dialogs.describe(d), url: tab.url, title: tab.title };
  }
  if (action === 'press' && params.ref === undefined) {
    const key = requireString(params, 'key', 'press needs key, e.g. "Enter" or "ctrl+a"');
    const start = Date.now();
    await input.press(tabId, key, signal);
    return { action, key, ...(await afterInput(tabId, start, signal)) };
  }

  const t = await agent.resolve(tabId, params.ref);
  const offset = await agent.frameOffset(tabId, t.frameId, signal);
  const el = new Target(t, offset, signal);
  switch (action) {
    case 'click':
    case 'double_click':
    case 'right_click':
      return el.click(action);
    case 'hover':
      return el.hover();
    case 'focus':
      return el.focus();
    case 'type':
    case 'fill':
      return el.write(action, requireString(params, 'text', `${action} needs text`));
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
 * @type {Action}
 */
export async function locate(params, { signal }) {
  const tabId = tabIdParam(params);
  await checkTab(tabId);
  const t = await agent.resolve(tabId, params.ref);
  return agent.onRef(t, 'locate', {}, signal);
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
 * What became of the page after input that had no element to watch: whether
 * it navigated, where it is now.
 * @param {number} tabId
 * @param {number} start
 * @param {AbortSignal} signal
 */
async function afterInput(tabId, start, signal) {
  await sleep(SETTLE_MS);
  const navigated = await navigation.settleNavigation(tabId, start, NAVIGATION_MS, signal);
  const tab = await chrome.tabs.get(tabId);
  /** @type {Record<string, unknown>} */
  const out = { navigated, url: tab.url, title: tab.title };
  const d = dialogs.current(tabId);
  if (d) out.dialog = dialogs.describe(d);
  return out;
}

/**
 * One element, and the watch that sees what an action does to the page.
 */
class Target {
  /**
   * @param {RefTarget} t
   * @param {Point} offset where its frame's viewport sits in the tab's
   * @param {AbortSignal} signal
   */
  constructor(t, offset, signal) {
    this.t = t;
    this.offset = offset;
    this.signal = signal;
    /** @type {Array<{ strategy: string, result: string }>} */
    this.tried = [];
  }

  /** @param {string} method @param {Record<string, unknown>} [args] */
  call(method, args = {}) {
    return agent.onRef(this.t, method, args, this.signal);
  }

  async locate() {
    const loc = await this.call('locate');
    this.label = describe(loc);
    return loc;
  }

  /** A frame point as a tab point. @param {Point} p */
  tabPoint(p) {
    return { x: p.x + this.offset.x, y: p.y + this.offset.y };
  }

  /** @param {{ x: number, y: number, width: number, height: number }} box */
  static centre(box) {
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  /**
   * Starts watching the page for effects; returns the stop-and-report.
   */
  async watch() {
    const { watch } = await this.call('watch');
    this.watchId = watch;
    this.started = Date.now();
  }

  /**
   * What the watch has seen so far; a page that is gone has navigated.
   * @param {boolean} [stop]
   * @returns {Promise<any>}
   */
  async report(stop = false) {
    try {
      return await this.call('changes', { watch: this.watchId, stop });
    } catch (err) {
      if (err instanceof ActionError && err.code === 'stale_ref') return { navigated: true };
      if (err instanceof agent.DialogOpened) return { dialogOpen: true };
      throw err;
    }
  }

  /**
   * Runs input, then reports whether it took effect and what changed. A
   * dialog the input opens ends the wait at once.
   * @param {() => Promise<unknown>} fn
   * @returns {Promise<{ dialog?: dialogs.Dialog, navigated: boolean, report: any }>}
   */
  async attempt(fn) {
    const start = Date.now();
    const next = dialogs.next(this.t.tabId);
    try {
      const d = await Promise.race([fn().then(() => undefined), next.opened]);
      if (d) return { dialog: d, navigated: false, report: {} };
    } finally {
      next.cancel();
    }
    await sleep(SETTLE_MS);
    const open = dialogs.current(this.t.tabId);
    if (open) return { dialog: open, navigated: false, report: {} };
    const navigated = await navigation.settleNavigation(this.t.tabId, start, NAVIGATION_MS, this.signal);
    const report = navigated ? { navigated: true } : await this.report();
    return { navigated: navigated || !!report.navigated, report };
  }

  /**
   * click, double_click, right_click: the ladder.
   * @param {'click' | 'double_click' | 'right_click'} action
   */
  async click(action) {
    const opts = {
      button: /** @type {input.Button} */ (action === 'right_click' ? 'right' : 'left'),
      count: action === 'double_click' ? 2 : 1,
    };
    let loc = await this.locate();
    this.refuse(loc);
    await this.watch();
    /** @type {ReturnType<Target['counts']> | undefined} */
    let before = this.counts(await this.report());

    /** @param {string} strategy @param {Point} p */
    const mouse = async (strategy, p) => {
      const a = await this.attempt(() => input.click(this.t.tabId, this.tabPoint(p), opts, this.signal));
      // This attempt's own click: the counts are since the watch began.
      if (a.dialog || a.navigated || (a.report.trustedClicks ?? 0) > (before?.trustedClicks ?? 0)) {
        return this.done(action, strategy, a);
      }
      this.tried.push({ strategy, result: 'the element did not receive the click' });
      before = this.counts(a.report);
      return undefined;
    };
    /** @param {string} strategy @param {() => Promise<unknown>} fn */
    const visibly = async (strategy, fn) => {
      const a = await this.attempt(fn);
      if (a.dialog || a.navigated || this.changed(before, a.report)) return this.done(action, strategy, a);
      this.tried.push({ strategy, result: 'nothing on the page changed' });
      before = this.counts(a.report);
      return undefined;
    };

    // S1
    if (loc.inViewport) {
      const p = Target.centre(loc.box);
      const hit = await this.call('hit', p);
      if (hit.ok) {
        const r = await mouse('S1', p);
        if (r) return r;
      } else {
        this.tried.push({ strategy: 'S1', result: hit.on ? `a click there lands on ${hit.on}` : 'the centre is off the page' });
      }
    } else {
      this.tried.push({ strategy: 'S1', result: 'not in the viewport' });
    }
    // S2
    await this.call('dom', { op: 'scrollIntoView' });
    loc = await this.locate();
    const centre = Target.centre(loc.box);
    const hit2 = await this.call('hit', centre);
    if (hit2.ok) {
      const r = await mouse('S2', centre);
      if (r) return r;
    } else {
      this.tried.push({ strategy: 'S2', result: hit2.on ? `a click there lands on ${hit2.on}` : 'the centre is off the page' });
    }
    // S3
    const { points } = await this.call('points');
    const other = points.find((/** @type {Point} */ p) => Math.abs(p.x - centre.x) > 1 || Math.abs(p.y - centre.y) > 1) ??
      (hit2.ok ? undefined : points[0]);
    if (other) {
      const r = await mouse('S3', other);
      if (r) return r;
    } else {
      this.tried.push({ strategy: 'S3', result: 'no other point of the element can be clicked' });
    }
    // S4
    if (action === 'click') {
      const r = await visibly('S4', () => this.call('dom', { op: 'click' }));
      if (r) return r;
      // S5
      const key = ['checkbox', 'radio', 'switch'].includes(loc.role) ? 'Space' : 'Enter';
      const r5 = await visibly('S5', async () => {
        await this.call('dom', { op: 'focus' });
        await input.press(this.t.tabId, key, this.signal);
      });
      if (r5) return r5;
    } else {
      this.tried.push({ strategy: 'S4', result: `no DOM-level ${action.replace('_', ' ')}` });
    }
    // S6
    const r6 = await mouse('S6', centre);
    if (r6) return r6;
    return this.failed(action);
  }

  /**
   * Refuses what no strategy should try: a disabled or invisible element.
   * @param {any} loc
   */
  refuse(loc) {
    if (loc.disabled) {
      throw new ActionError('bad_request', `${this.label} is disabled`,
        'wait_for it with state "enabled", or do what enables it first');
    }
    if (!loc.visible) {
      throw new ActionError('bad_request', `${this.label} is not visible`,
        'open or hover what contains it first; read_page shows what is visible now');
    }
  }

  /** @param {any} report */
  counts(report) {
    return {
      added: report.added ?? 0, removed: report.removed ?? 0, attributes: report.attributes ?? 0,
      texts: report.texts ?? 0, trustedClicks: report.trustedClicks ?? 0,
      value: report.value, checked: report.checked, url: report.url, title: report.title,
    };
  }

  /**
   * Reports whether the page changed between two reports of one watch.
   * @param {ReturnType<Target['counts']> | undefined} before
   * @param {any} after
   */
  changed(before, after) {
    if (!before) return false;
    const a = this.counts(after);
    return a.added > before.added || a.removed > before.removed || a.attributes > before.attributes ||
      a.texts > before.texts || a.value !== before.value || a.checked !== before.checked ||
      a.url !== before.url || a.title !== before.title;
  }

  /**
   * The result of an action that took effect.
   * @param {string} action
   * @param {string | undefined} strategy
   * @param {{ dialog?: dialogs.Dialog, navigated: boolean, report: any }} a
   */
  async done(action, strategy, a) {
    const tab = await chrome.tabs.get(this.t.tabId);
    /** @type {Record<string, unknown>} */
    const out = { action, ref: `e${this.t.ref}`, target: this.label };
    if (strategy) out.strategy = strategy;
    if (this.tried.length) out.tried = this.tried;
    out.navigated = a.navigated;
    out.url = tab.url;
    out.title = tab.title;
    if (a.dialog) out.dialog = dialogs.describe(a.dialog);
    let r = a.report;
    if (!a.navigated && !a.dialog) {
      r = await this.report(true);
      out.changes = summarize(r);
      if (r.value !== undefined) out.value = r.value;
      if (r.checked !== undefined) out.checked = r.checked;
    }
    return out;
  }

  /**
   * Every strategy failed: say so, and suggest the human.
   * @param {string} action
   */
  async failed(action) {
    await this.report(true).catch(() => {});
    return {
      action,
      ref: `e${this.t.ref}`,
      target: this.label,
      ok: false,
      tried: this.tried,
      hitl: {
        required: true,
        reason: `no strategy could ${action.replace('_', ' ')} ${this.label}`,
        suggested_call: { tool: 'oc_handoff_start', args: { reason: 'manual_recovery', tabId: this.t.tabId } },
      },
    };
  }

  async hover() {
    const loc = await this.locate();
    this.refuse(loc);
    if (!loc.inViewport) await this.call('dom', { op: 'scrollIntoView' });
    await this.watch();
    const at = await this.firstHittingPoint();
    const a = await this.attempt(() => input.move(this.t.tabId, this.tabPoint(at.point), this.signal));
    if (at.strategy !== 'S1') this.tried.push({ strategy: 'S1', result: 'the centre is covered' });
    return this.done('hover', at.strategy, a);
  }

  /** The centre if a hit test confirms it, else another point of the box. */
  async firstHittingPoint() {
    const loc = await this.locate();
    const centre = Target.centre(loc.box);
    if ((await this.call('hit', centre)).ok) return { point: centre, strategy: 'S1' };
    const { points } = await this.call('points');
    if (points.length) return { point: /** @type {Point} */ (points[0]), strategy: 'S3' };
    throw new ActionError('bad_request', `${this.label} is covered by something else at every point`,
      'close what covers it (a dialog, a banner), or call oc_handoff_start with reason manual_recovery');
  }

  async focus() {
    await this.locate();
    await this.watch();
    const a = await this.attempt(() => this.call('dom', { op: 'focus' }));
    return this.done('focus', undefined, a);
  }

  /**
   * fill (replace the value) or type (keystrokes at the caret), then check
   * the value; a control that ignored the input gets it set through the DOM.
   * @param {'fill' | 'type'} action
   * @param {string} text
   */
  async write(action, text) {
    const loc = await this.locate();
    if (loc.type === 'file') {
      throw new ActionError('bad_request', 'OpenChrome does not choose files for file inputs',
        'ask the user to choose the file (oc_handoff_start with reason other)');
    }
    if (loc.role === 'combobox' && loc.tag === 'select') return this.select(text);
    if (loc.type === 'checkbox' || loc.type === 'radio') return this.check(truthy(text));
    if (loc.disabled) throw new ActionError('bad_request', `${this.label} is disabled`);
    // Inputs with their own editing UI (date, time, range, color) take no
    // typed text; their value is set through the DOM.
    const direct = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(loc.type ?? '');
    if (!loc.editable && !direct) {
      throw new ActionError('bad_request', `${this.label} does not take text`,
        'fill textboxes, searchboxes, spinbuttons, sliders, date inputs and contenteditable elements');
    }
    await this.watch();
    let strategy = 'keyboard';
    if (direct) {
      await this.call('dom', { op: 'setValue', value: text });
      strategy = 'dom';
    } else {
      await this.call('dom', { op: action === 'fill' ? 'selectText' : 'focus' });
      if (action === 'type') await input.type(this.t.tabId, text, this.signal);
      else if (text === '') await input.press(this.t.tabId, 'Delete', this.signal);
      else await input.insert(this.t.tabId, text, this.signal);
    }
    await sleep(SETTLE_MS);
    let now = await this.locate();
    const want = action === 'fill' ? text : undefined;
    if (want !== undefined && !loc.secret && normalize(now.value) !== normalize(want)) {
      // The page did not take the input (a control that rewrites it, or an
      // element the caret was not in): set it the way a framework sees it.
      await this.call('dom', { op: 'setValue', value: want });
      strategy = 'dom';
      now = await this.locate();
    }
    const out = await this.done(action, strategy, { navigated: false, report: await this.report() });
    if (loc.secret) {
      delete out.value;
      out.value_set = true; // never echo what went into a secret field
    } else if (want !== undefined) {
      out.verified = normalize(now.value) === normalize(want);
    }
    return out;
  }

  /**
   * Selects options of a select by label, text or value.
   * @param {unknown} values a string or strings
   */
  async select(values) {
    const list = Array.isArray(values) ? values.map(String) : values === undefined ? [] : [String(values)];
    if (!list.length) throw new ActionError('bad_request', 'select needs values, e.g. ["Norway"]');
    await this.locate();
    await this.watch();
    const a = await this.attempt(() => this.call('dom', { op: 'select', values: list }));
    return this.done('select', 'dom', a);
  }

  /**
   * Checks or unchecks a checkbox, radio or switch, clicking through the
   * ladder when its state differs, and verifies the new state.
   * @param {boolean} want
   */
  async check(want) {
    const loc = await this.locate();
    if (loc.checked === undefined && !['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(loc.role)) {
      throw new ActionError('bad_request', `${this.label} is not a checkbox, radio or switch`);
    }
    const action = want ? 'check' : 'uncheck';
    if (loc.checked === want) {
      return { action, ref: `e${this.t.ref}`, target: this.label, checked: want, changes: 'already so' };
    }
    if (loc.role === 'radio' && !want) {
      throw new ActionError('bad_request', 'a radio is unchecked by checking another of its group');
    }
    const out = /** @type {Record<string, unknown>} */ (await this.click('click'));
    if (out.hitl) return out;
    const now = await this.locate().catch(() => undefined);
    out.action = action;
    out.checked = now?.checked;
    out.verified = now?.checked === want;
    return out;
  }

  /** @param {string} key */
  async press(key) {
    await this.locate();
    await this.call('dom', { op: 'focus' });
    await this.watch();
    const a = await this.attempt(() => input.press(this.t.tabId, key, this.signal));
    const out = await this.done('press', undefined, a);
    out.key = key;
    return out;
  }

  /**
   * Wheel-scrolls over the element: its own scrollable area, or the page.
   * @param {'up' | 'down' | 'left' | 'right'} direction
   * @param {unknown} amount pixels; default most of a viewport
   */
  async scroll(direction, amount) {
    const loc = await this.locate();
    const px = typeof amount === 'number' && amount > 0 ? amount : Math.round(loc.viewport.height * 0.8);
    const dx = direction === 'left' ? -px : direction === 'right' ? px : 0;
    const dy = direction === 'up' ? -px : direction === 'down' ? px : 0;
    if (!loc.inViewport) await this.call('dom', { op: 'scrollIntoView' });
    const at = await this.firstHittingPoint();
    await this.watch();
    const a = await this.attempt(() => input.wheel(this.t.tabId, this.tabPoint(at.point), dx, dy, this.signal));
    return this.done('scroll', undefined, a);
  }

  async scrollIntoView() {
    await this.locate();
    await this.call('dom', { op: 'scrollIntoView' });
    const loc = await this.locate();
    return { action: 'scroll_into_view', ref: `e${this.t.ref}`, target: this.label, inViewport: loc.inViewport, box: roundBox(loc.box) };
  }
}

/**
 * role "name", for results and errors.
 * @param {any} loc
 */
function describe(loc) {
  const role = loc.role || loc.tag;
  return loc.name ? `${role} "${loc.name}"` : role;
}

/**
 * A short line saying what changed on the page.
 * @param {any} r a watch report
 * @returns {string}
 */
function summarize(r) {
  const parts = [];
  if (r.dialogs?.length) parts.push(`dialog opened: ${r.dialogs.join(', ')}`);
  if (r.added) parts.push(`${r.added} element${r.added === 1 ? '' : 's'} added`);
  if (r.removed) parts.push(`${r.removed} removed`);
  if (r.texts && !r.added && !r.removed) parts.push('text changed');
  if (r.attributes && !r.added && !r.removed) parts.push('attributes changed');
  if (r.urlChanged) parts.push('URL changed (same document)');
  if (r.titleChanged) parts.push('title changed');
  if (r.elementGone) parts.push('the element itself is gone');
  return parts.length ? parts.join(', ') : 'no visible change';
}

/** @param {unknown} v */
function normalize(v) {
  return typeof v === 'string' ? v.replace(/\r\n/g, '\n').trim() : v;
}

/** @param {string} s */
function truthy(s) {
  return !/^(false|no|off|0|unchecked|)$/i.test(s.trim());
}

/** @param {{ x: number, y: number, width: number, height: number }} b */
function roundBox(b) {
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}
