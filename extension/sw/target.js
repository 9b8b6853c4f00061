// @ts-check
// The click ladder and the other ways element.act acts on one element with
// trusted input, each saying what happened. Clicks climb the ladder until
// one takes effect:
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
// the click navigated, opened a dialog or a tab); S4 and S5 count when the
// page visibly changed. When none does, the result says so and suggests handing
// the tab to the human (S7).

import { sleep } from '../lib/abort.js';
import { changed, counts, describeTarget, normalize, roundBox, summarize, truthy } from '../lib/act.js';
import { ActionError } from '../lib/errors.js';
import * as dialogs from './dialogs.js';
import * as fileChooser from './file-chooser.js';
import * as downloads from './downloads.js';
import { NAVIGATION_MS, SETTLE_MS } from './input-effects.js';
import * as navigation from './navigation.js';
import * as pageScript from './page-script.js';
import * as popups from './popups.js';
import { unlessClosed } from './tab-group.js';
import * as input from './trusted-input.js';

/** @typedef {import('./page-script.js').RefTarget} RefTarget */
/** @typedef {import('../lib/act.js').Counts} Counts */
/** @typedef {{ x: number, y: number }} Point */
/**
 * What one try did: a dialog it opened, whether it navigated or closed the
 * tab, the tabs, downloads and file chooser it opened, and the watch's report.
 * @typedef {{ dialog?: dialogs.Dialog, navigated: boolean, closed?: boolean, opened: number[],
 *   downloads?: Array<{ id: number, name: string }>, chooser?: { multiple: boolean },
 *   report: any }} Attempt
 */

/**
 * One element, and the watch that sees what an action does to the page.
 */
export class Target {
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
    return pageScript.onRef(this.t, method, args, this.signal);
  }

  async locate() {
    const loc = await this.call('locate');
    this.label = describeTarget(loc);
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
      if (err instanceof pageScript.DialogOpened) return { dialogOpen: true };
      throw err;
    }
  }

  /**
   * Runs input, then reports whether it took effect and what changed. A
   * dialog the input opens ends the wait at once, and so does the tab
   * closing (a sign-in popup's button).
   * @param {() => Promise<unknown>} fn
   * @returns {Promise<Attempt>}
   */
  async attempt(fn) {
    /** @type {Attempt} */
    const closed = { closed: true, navigated: false, opened: [], report: {} };
    return unlessClosed(this.t.tabId, () => this.effects(fn), closed);
  }

  /**
   * attempt's work while the tab stays.
   * @param {() => Promise<unknown>} fn
   * @returns {Promise<Attempt>}
   */
  async effects(fn) {
    const start = Date.now();
    const next = dialogs.next(this.t.tabId);
    try {
      const d = await Promise.race([fn().then(() => undefined), next.opened]);
      if (d) return { dialog: d, navigated: false, opened: [], report: {} };
    } finally {
      next.cancel();
    }
    await sleep(SETTLE_MS, this.signal);
    const open = dialogs.current(this.t.tabId);
    if (open) return { dialog: open, navigated: false, opened: [], report: {} };
    const navigated = await navigation.settleNavigation(this.t.tabId, start, NAVIGATION_MS, this.signal);
    const opened = await popups.openedSince(this.t.tabId, start);
    const started = await downloads.startedSince(this.t.tabId, start);
    const chooser = fileChooser.openedSince(this.t.tabId, start);
    const report = navigated ? { navigated: true } : await this.report();
    return { navigated: navigated || !!report.navigated, opened, downloads: started, chooser, report };
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
    /** @type {Counts | undefined} */
    let before = counts(await this.report());

    /** @param {string} strategy @param {Point} p */
    const mouse = async (strategy, p) => {
      const a = await this.attempt(() => input.click(this.t.tabId, this.tabPoint(p), opts, this.signal));
      // This attempt's own click: the counts are since the watch began.
      if (a.dialog || a.navigated || a.closed || a.opened.length || a.downloads?.length || a.chooser || (a.report.trustedClicks ?? 0) > (before?.trustedClicks ?? 0)) {
        return this.done(action, strategy, a);
      }
      this.tried.push({ strategy, result: 'the element did not receive the click' });
      before = counts(a.report);
      return undefined;
    };
    /** @param {string} strategy @param {() => Promise<unknown>} fn */
    const visibly = async (strategy, fn) => {
      const a = await this.attempt(fn);
      if (a.dialog || a.navigated || a.closed || a.opened.length || a.downloads?.length || a.chooser || changed(before, a.report)) return this.done(action, strategy, a);
      this.tried.push({ strategy, result: 'nothing on the page changed' });
      before = counts(a.report);
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

  /**
   * The result of an action that took effect.
   * @param {string} action
   * @param {string | undefined} strategy
   * @param {Attempt} a
   */
  async done(action, strategy, a) {
    /** @type {Record<string, unknown>} */
    const out = { action, ref: `e${this.t.ref}`, target: this.label };
    if (strategy) out.strategy = strategy;
    if (this.tried.length) out.tried = this.tried;
    if (a.closed) {
      out.closed = true; // the page closed its own tab
      return out;
    }
    const tab = await chrome.tabs.get(this.t.tabId);
    out.navigated = a.navigated;
    out.url = tab.url;
    out.title = tab.title;
    if (a.dialog) out.dialog = dialogs.describe(a.dialog);
    if (a.opened.length) out.opened = a.opened;
    if (a.downloads?.length) out.downloads = a.downloads;
    if (a.chooser) {
      // Playwright MCP's modal state: the next call answers it.
      out.fileChooser = { multiple: a.chooser.multiple, next: 'upload_file with the paths, without ref' };
    }
    let r = a.report;
    if (!a.navigated && !a.dialog) {
      r = await this.report(true);
      out.changes = summarize(r, a.downloads);
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
      throw new ActionError('bad_request', `${this.label} is a file input: it takes files, not text`,
        'call upload_file with its ref and the paths');
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
    const out = await this.done(action, strategy, { navigated: false, opened: [], report: await this.report() });
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
