// @ts-check
// How element.act acts on one element, at most once, each action saying
// what happened. A click reaches the page exactly once or not at all:
//
//   1. Wait, up to ACTIONABLE_MS, until a person's click could reach the
//      element: shown, enabled, not moving, and a point of its box whose
//      hit test lands on it (its label, for a checkbox styled away behind
//      one), scrolling it into view as needed. In a cross-origin frame, the
//      point must also hit the iframe in each frame around it: a banner of
//      the page over a payment frame covers the frame's button too.
//   2. Move the pointer there and hit-test again: hover effects may move or
//      cover it. Moving is not clicking; if the element is no longer there,
//      go back to 1.
//   3. Press and release there: the click has happened, whatever the page
//      then shows. No other strategy runs after it.
//
// When something covers the element, nothing is clicked: the result names
// what covers it and the controls that would dismiss it, with refs, and
// suggests a handoff. Only an element that no pointer can reach (no point
// of it can be brought into the viewport) and nothing covers is clicked
// through the DOM (element.click()), for then no click can have reached it
// before.

import { sleep } from '../lib/abort.js';
import { describeTarget, kept, quiet, roundBox, scrolled, steady, summarize, truthy } from '../lib/act.js';
import { ActionError, opensApp } from '../lib/errors.js';
import { refuseChord, selectAllChord } from '../lib/keys.js';
import * as cdp from './cdp.js';
import * as dialogs from './dialogs.js';
import * as fileChooser from './file-chooser.js';
import * as frameNavigation from './frame-navigation.js';
import * as downloads from './downloads.js';
import * as evidence from './evidence.js';
import {
  LATE_MS, LATE_POLL_MS, LEAVING_MS, NAVIGATION_MS, WRITE_SETTLE_MS, followLeaving, lateSecond, routeDrawn, scrollStateAt, settleRequests,
  typedUntilDialog, typedUntilFocusLost, wheelSaid,
} from './input-effects.js';
import * as navigation from './navigation.js';
import * as pageScript from './page-script.js';
import * as policy from './policy.js';
import * as popups from './popups.js';
import { unlessClosed } from './tab-group.js';
import * as input from './trusted-input.js';

/** @typedef {import('./page-script.js').RefTarget} RefTarget */
/** @typedef {{ x: number, y: number }} Point */
/**
 * What one try did: a dialog it opened, whether it navigated or closed the
 * tab, the tabs, downloads and file chooser it opened, the requests it
 * started that were still running when it stopped waiting, and the watch's
 * report.
 * frameNavigated: where the element's frame went, when the input took it
 * to another document and the page around it stayed. refusedWith: the
 * status of 400 or more the server answered the navigation with.
 * @typedef {{ dialog?: dialogs.Dialog, navigated: boolean, navigating?: string, refusedWith?: number, frameNavigated?: string, closed?: boolean, opened: number[],
 *   downloads?: Array<{ id: number, name: string }>, chooser?: { multiple: boolean },
 *   refused?: import('./policy.js').Refused, running?: number, report: any,
 *   quietReport?: any }} Attempt
 *   quietReport: the report to give when it watched on and nothing came of the input
 */

/** The actions whose point is to set the element's value. */
const WRITES = new Set(['type', 'fill', 'clear', 'select']);
/** Roles that are checked or not: fill's text says which, a click changes it. */
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** How long an action waits for its element to become actionable. */
export const ACTIONABLE_MS = 5000;
/** How long it waits when what covers the element has dismiss controls. */
const BANNER_MS = 1000;
/**
 * How long a list the page draws may take to show the option asked for:
 * an autocomplete fetches its options as it is typed in.
 */
const PICK_MS = 2000;
/** How long a combobox's list may take to show what was typed in it. */
const OFFERS_MS = 1000;
/** How long, at most, an answer waits for the transitions an input began. */
const TRANSITION_MS = 600;
/** How long after a transition's time is up its end is drawn, at most. */
const FRAMES_MS = 50;
/** How many keys fill sends a slider the page draws, at most. */
const SLIDE_KEYS = 200;
/** A number as a number box keeps it (HTML's valid floating-point number). */
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Whether the page's focus is on an element, or its whole text is edited. */
const FOCUS_HELD = '(() => { const a = document.activeElement; return !!a && a !== document.body && a !== document.documentElement ' +
  "|| document.designMode === 'on' || !!document.body?.isContentEditable; })()";

/**
 * What the page script's actionable says of an element (page/dom.js).
 * @typedef {{ state: 'ok' | 'hidden' | 'disabled' | 'offscreen' | 'covered' | 'moving', point?: Point,
 *   box?: { x: number, y: number, width: number, height: number }, animating?: boolean,
 *   via?: string, blocker?: { ref: number, name: string }, dismiss?: Array<{ ref: number, name: string }>,
 *   asks?: Array<{ ref: number, name: string }>,
 *   passThrough?: boolean, escapes?: boolean, pinned?: boolean, unseen?: boolean, frame?: { ref: number, url: string, path?: number[] }, inFrame?: number, away?: Point,
 *   hidden?: boolean, clipped?: boolean }} Reach
 *   frame: the cross-origin iframe the blocker is or holds, whose own controls may dismiss it;
 *   hidden: the page is not shown (its tab is behind the person's own, its window minimized);
 *   away: where the pointer goes to stop hovering the blocker, when it may be open because of the pointer;
 *   asks: the buttons of a dialog in the way that none plainly dismisses, its answers;
 *   clipped: offscreen because it clips itself to nothing, as text for screen readers does;
 *   inFrame: the frame whose page script said so; moving: reachable, but
 *   it kept moving more than a click can follow until the time was up
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
    /** @type {string[] | undefined} a clicked closed select's options */
    this.options = undefined;
    /** @type {boolean | undefined} the page said it is not shown, as the pointer was brought to it */
    this.hidden = undefined;
    // A drag's element moving into its place (a sortable list's drop
    // animation, after which the page takes the new order) is waited for.
    this.ownMoves = false;
    /** @type {number | undefined} how long the page had been still when the watch began */
    this.stillMs = undefined;
    // The tab that opened this one (a sign-in popup's), asked now: once a
    // click closes the popup, Chrome has forgotten it.
    this.opener = popups.openerOf(t.tabId);
  }

  /**
   * @param {string} method
   * @param {Record<string, unknown>} [args]
   * @param {AbortSignal} [signal] the action's own unless given
   */
  call(method, args = {}, signal = this.signal) {
    return pageScript.onRef(this.t, method, args, signal);
  }

  async locate() {
    const loc = await this.call('locate');
    this.label = describeTarget(loc);
    /** @type {string | undefined} the gesture a script listens on it for when a click is not it */
    this.gesture = loc.gesture;
    /** Whether it is in a frame, whose navigation is its input's answer. */
    this.framed = this.t.frameId !== 0 || !!loc.framed;
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
    const { watch, stillMs } = await this.call('watch', { ownMoves: this.ownMoves });
    this.watchId = watch;
    this.stillMs = stillMs;
    this.started = Date.now();
  }

  /**
   * What the watch has seen so far; a page that is gone has navigated,
   * unless it was a frame's and the frame itself is gone (a consent
   * banner's frame its Accept removes). A page held by a dialog, one a
   * timer opened after the input say, runs no script: that is what it did.
   * @param {boolean} [stop]
   * @param {AbortSignal} [signal] the action's own unless given: a later
   *   call's (the answer to the dialog the action opened)
   * @returns {Promise<any>}
   */
  async report(stop = false, signal = this.signal) {
    try {
      return await this.call('changes', { watch: this.watchId, stop }, signal);
    } catch (err) {
      if (err instanceof pageScript.DialogOpened || dialogs.current(this.t.tabId)) return { dialogOpen: true };
      if (err instanceof ActionError && err.code === 'stale_ref') {
        const { tabId, frameId } = this.t;
        const frame = frameId === 0 ? true : await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
        return frame ? { navigated: true } : { frameGone: true };
      }
      throw err;
    }
  }

  /**
   * Runs input, then reports whether it took effect and what changed. A
   * dialog the input opens ends the wait at once, and so does the tab
   * closing (a sign-in popup's button). late: the input is a click or a
   * key a page may answer on a timer; when nothing happened, it watches
   * a second longer before it says so (input-effects.js lateSecond).
   * @param {() => Promise<unknown>} fn
   * @param {{ late?: boolean }} [opts]
   * @returns {Promise<Attempt>}
   */
  async attempt(fn, { late = false } = {}) {
    /** @type {Attempt} */
    const closed = { closed: true, navigated: false, opened: [], report: {} };
    return unlessClosed(this.t.tabId, async () => {
      const start = Date.now();
      const a = await this.effects(fn);
      if (late && idle(a)) return this.lateAnswer(start, a);
      // A control that says it is at work ("Signing in…", turned off until
      // done) is watched the second too, for what comes of it then: a
      // redirect once signed in, a dialog, a tab. What it drew so far is
      // the answer otherwise.
      if (late && a.report?.busy && !a.navigated && !a.dialog && !a.closed &&
        await lateSecond(this.t.tabId, start, this.stillMs, this.signal) === 'stirred') return this.settled(start);
      return a;
    }, closed);
  }

  /**
   * What an input sent at start that did nothing at once (a) did, once the
   * second after it is over (input-effects.js lateSecond): what it started,
   * settled; what the page drew meanwhile, when it had been still before;
   * else what the watch saw before that second.
   * @param {number} start
   * @param {Attempt} a
   * @returns {Promise<Attempt>}
   */
  async lateAnswer(start, a) {
    switch (await lateSecond(this.t.tabId, start, this.stillMs, this.signal)) {
      case 'stirred':
        return this.settled(start);
      case 'drawn':
        return { ...a, report: await this.report() };
      default:
        return { ...a, quietReport: a.report };
    }
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
    } catch (err) {
      // A stale_ref means nothing reached the page, and a query may be
      // looked up again; here the document went while the action was sent,
      // so it may have reached it.
      if (err instanceof ActionError && err.code === 'stale_ref') {
        throw new ActionError('conflict', `the page changed as the action on ${this.label} was sent: it may have reached it`,
          'call read_page to see where the page is before acting again');
      }
      throw err;
    } finally {
      next.cancel();
    }
    return this.settled(start);
  }

  /**
   * What the input sent at start did, once the page has settled: the
   * requests it started ended, a navigation it started followed.
   * @param {number} start
   * @returns {Promise<Attempt>}
   */
  async settled(start) {
    const running = await settleRequests(this.t.tabId, start, this.signal);
    const open = dialogs.current(this.t.tabId);
    if (open) return { dialog: open, navigated: false, opened: [], report: {} };
    let navigated = await navigation.settleNavigation(this.t.tabId, start, NAVIGATION_MS, this.signal);
    let report = navigated ? { navigated: true } : await this.report();
    if (!navigated && this.framed) {
      // A link or a form in a frame: the frame's old document, torn down
      // or gone, is not what the input did; where the frame went is.
      const leaving = report.navigated || report.leaving;
      const went = await frameNavigation.navigatedSince(this.t.tabId, start, {
        frameId: this.t.frameId || undefined, beginMs: leaving ? LEAVING_MS : 0, endMs: NAVIGATION_MS, signal: this.signal,
      });
      const frame = went.at(-1);
      if (frame) {
        const opened = await popups.openedSince(this.t.tabId, start);
        return { navigated: false, frameNavigated: frame.url, opened, running, report: {} };
      }
    }
    // A navigation the browser told of too late for settleNavigation.
    if (!report.navigated && this.t.frameId === 0 && await followLeaving(this.t.tabId, start, report, this.signal)) {
      navigated = true;
      report = { navigated: true };
    }
    const opened = await popups.openedSince(this.t.tabId, start);
    const started = await downloads.startedSince(this.t.tabId, start);
    const chooser = fileChooser.openedSince(this.t.tabId, start);
    const refused = policy.refusedSince(this.t.tabId, start);
    // What the input set sliding or fading is said once it has, up to a
    // point: its end is drawn a frame or two after its time is up.
    for (let waited = 0; report.settling > 0 && waited < TRANSITION_MS;) {
      const ms = Math.min(report.settling + FRAMES_MS, TRANSITION_MS - waited);
      await sleep(ms, this.signal);
      waited += ms;
      report = await this.report();
    }
    if (report.urlChanged && !report.navigated && !navigated) {
      report = await routeDrawn(this.t.tabId, start, () => this.report(), report, this.signal);
    }
    const navigating = navigated ? navigation.goingTo(this.t.tabId, start) : undefined;
    const refusedWith = navigated ? navigation.refusedWith(this.t.tabId, start) : undefined;
    return { navigated: navigated || !!report.navigated, navigating, refusedWith, opened, downloads: started, chooser, refused, running, report };
  }

  /**
   * Waits, until deadline, until a person's click could reach the element,
   * and says where; or says why it cannot, when the time is up.
   * @param {number} [deadline] ms since the epoch; ACTIONABLE_MS from now if not given
   * @returns {Promise<Reach>}
   */
  async reach(deadline = Date.now() + ACTIONABLE_MS) {
    const start = Date.now();
    /** @type {Reach | undefined} */
    let prev;
    let steadyBefore = false;
    /** @type {Map<string, Reach['dismiss']>} the dismiss controls found in a covering frame, by its ref */
    const framed = new Map();
    let movedAway = false;
    for (;;) {
      /** @type {Reach} */
      let r;
      try {
        r = await pageScript.onRefHanding(this.t, 'actionable', {}, this.signal);
      } catch (err) {
        // Gone while it was waited for: what it was waited out of says why
        // nothing was sent (a disabled button a page draws anew each second).
        if (err instanceof ActionError && err.code === 'stale_ref' && prev && prev.state !== 'ok') {
          throw new ActionError('stale_ref', `${err.message}; it was ${prev.state} till then`, err.hint);
        }
        throw err;
      }
      r.inFrame = this.t.frameId;
      // Steady over two spells running, so a slide caught as it turns
      // back (the same place twice) is not taken for a pause.
      const steadyNow = prev?.state === 'ok' && steady(prev.box, r.box, r.point);
      const still = !r.animating || (steadyNow && steadyBefore);
      steadyBefore = steadyNow;
      if (r.state === 'ok' && still && r.point) {
        const around = await this.throughFrames(r.point);
        if (!around) return r;
        r = around;
      }
      if (r.state === 'covered' && r.away && !movedAway) {
        // What covers it may be open because the pointer rests on it (a
        // menu an earlier hover opened): moved off it once, as a person
        // moves the mouse, and looked at again.
        movedAway = true;
        await input.move(this.t.tabId, this.tabPoint(r.away), this.signal);
        continue;
      }
      if (r.state === 'covered' && !r.dismiss?.length && r.frame) {
        // A banner drawn in a cross-origin frame: its controls are that frame's.
        const key = `${r.inFrame}:${r.frame.ref}`;
        if (!framed.has(key)) framed.set(key, await this.dismissInFrame(r.inFrame ?? 0, r.frame));
        r.dismiss = framed.get(key);
      }
      const now = Date.now();
      if (now >= deadline) return r.state === 'ok' ? { ...r, state: 'moving' } : r;
      // Clipped to nothing on purpose: waiting shows it no sooner.
      if (r.state === 'offscreen' && r.clipped) return r;
      // A banner with its own dismiss buttons, or a dialog that asks, waits
      // for the person or the agent, not for time: say so sooner.
      if (r.state === 'covered' && (r.dismiss?.length || r.asks?.length) && now - start >= BANNER_MS) return r;
      prev = r;
      await sleep(r.state === 'ok' ? 50 : 100, this.signal);
    }
  }

  /**
   * The controls that would dismiss a cross-origin frame covering the
   * element: its banner's close, accept or reject buttons, with refs.
   * @param {number} parentFrameId the frame the iframe element is in
   * @param {{ ref: number, url: string, path?: number[] }} frame the iframe element
   * @returns {Promise<Array<{ ref: number, name: string }>>}
   */
  async dismissInFrame(parentFrameId, frame) {
    try {
      const frameId = await pageScript.frameAt(this.t.tabId, parentFrameId, frame.ref, frame, this.signal);
      if (frameId === undefined) return [];
      const res = await pageScript.callHandingIn({ tabId: this.t.tabId, frameId }, 'dismissers', {}, this.signal);
      return res.dismiss ?? [];
    } catch (err) {
      if (this.signal.aborted) throw err;
      return []; // a frame that cannot be read: the blocker is still named
    }
  }

  /**
   * Whether a click at p, a point of the element's frame, gets through the
   * cross-origin frames around it: in each, the point must hit the iframe
   * that holds the element. A frame's page script sees only its own
   * document, so a banner of the page over the frame is found here. A frame
   * around whose viewport the point lies outside is scrolled to the iframe,
   * and the offset taken again.
   * @param {Point} p
   * @returns {Promise<Reach | undefined>} undefined when it gets through;
   *   else covered (by what, in the frame around), or offscreen after a scroll
   */
  async throughFrames(p) {
    const { tabId } = this.t;
    const at = this.tabPoint(p);
    for (let frameId = this.t.frameId; frameId !== 0;) {
      const place = pageScript.placeOf(tabId, frameId);
      if (!place) return undefined; // the top's own, or walked in place
      const around = await pageScript.frameOffset(tabId, place.parentFrameId, this.signal);
      const iframe = await pageScript.resolve(tabId, place.iframeRef);
      /** @type {Reach & { scrolled?: boolean }} */
      const r = await pageScript.onRefHanding(iframe, 'reaches', { x: at.x - around.x, y: at.y - around.y }, this.signal);
      r.inFrame = place.parentFrameId;
      if (r.scrolled) {
        this.offset = await pageScript.frameOffset(tabId, this.t.frameId, this.signal);
        return { state: 'offscreen' };
      }
      if (r.state !== 'ok') return r;
      frameId = place.parentFrameId;
    }
    return undefined;
  }

  /**
   * Brings the pointer over the element, ready to press: the point, once
   * the hit test there still gives the element after the move.
   * @param {string} action
   * @returns {Promise<Point>}
   */
  async pointAt(action) {
    const deadline = Date.now() + ACTIONABLE_MS;
    for (let tries = 0; ; tries++) {
      const r = await this.reach(deadline);
      if (r.state !== 'ok' || !r.point) throw this.unreachable(action, r);
      // Watched from here: what changed while it was waited for (a spinner
      // going) is not the action's doing; what the pointer's arrival does is.
      if (this.watchId === undefined) await this.watch();
      // A click's press follows, a hover's does not: in a tab the person's
      // own hides, the page gets a move only with the next input that is
      // not one, or a frame, which Chrome does not draw (trusted-input.js).
      // (A drop of files carries its point, as a press does.)
      const pressFollows = ['click', 'double_click', 'right_click', 'drop files on'].includes(action);
      this.hidden = !!r.hidden;
      await input.move(this.t.tabId, this.tabPoint(r.point), this.signal, { pressFollows, hidden: this.hidden });
      // The pointer's arrival may move it (a button that dodges) or cover it.
      const again = await pageScript.onRefHanding(this.t, 'actionable', { at: r.point }, this.signal);
      if (again.state === 'ok' && again.point && (again.via === r.via) &&
        Math.abs(again.point.x - r.point.x) < 1 && Math.abs(again.point.y - r.point.y) < 1) {
        return r.point;
      }
      if (tries === 2 || Date.now() >= deadline) throw this.unreachable(action, again.state === 'ok' ? { state: 'moving' } : again);
    }
  }

  /**
   * Runs click, the trusted input of a click, with the page script's guard
   * standing (page/dom.js): what of it would reach anything but the
   * element is stopped before the page hears it. Says what was stopped and
   * whether anything reached the element; a guard a dialog keeps from
   * answering says nothing, and the click counts as delivered.
   * @param {'click' | 'double_click' | 'right_click'} action
   * @param {() => Promise<unknown>} click
   * @returns {Promise<{ a: Attempt, stopped?: string, reached?: boolean }>}
   */
  async guarded(action, click) {
    const last = action === 'double_click' ? 'dblclick' : action === 'right_click' ? 'auxclick' : 'click';
    /** @type {{ stopped?: string, reached: boolean } | undefined} */
    let seen;
    const a = await this.attempt(async () => {
      const g = await this.call('guard', { last });
      try {
        await click();
      } finally {
        seen = await this.call('unguard', g).catch(() => undefined);
      }
    }, { late: true });
    return { a, stopped: seen?.stopped, reached: seen?.reached };
  }

  /**
   * click, double_click, right_click: once, at a point a person's click
   * would reach.
   * @param {'click' | 'double_click' | 'right_click'} action
   * @param {{ offers?: boolean }} [opts] offers: say what a list the click
   *   opened offers (pick looks at the list itself)
   */
  async click(action, { offers = true } = {}) {
    const opts = {
      button: /** @type {input.Button} */ (action === 'right_click' ? 'right' : 'left'),
      count: action === 'double_click' ? 2 : 1,
    };
    const loc = await this.locate();
    if (loc.app && action !== 'right_click') throw opensApp(this.label, loc.app, 'clicked');
    // A closed select opens the browser's own list, which no call can see
    // or click: the answer says what it offers, for interact select.
    if (Array.isArray(loc.options)) this.options = loc.options;
    /** @type {Attempt} */
    let a;
    for (let tries = 0; ; tries++) {
      /** @type {Point} */
      let p;
      try {
        p = await this.pointAt(action);
      } catch (err) {
        if (err instanceof Unreachable && err.reach.state === 'offscreen' && action === 'click') {
          // No pointer can reach it, so none has: the DOM's click is the only one.
          await this.watch();
          const dom = await this.attempt(() => this.call('dom', { op: 'click' }), { late: true });
          return this.done(action, 'dom', dom);
        }
        if (err instanceof Unreachable && err.reach.state === 'covered') return this.blocked(action, err.reach);
        throw err instanceof Unreachable ? err.error : err;
      }
      const guarded = await this.guarded(action, () => input.click(this.t.tabId, this.tabPoint(p), { ...opts, hidden: this.hidden }, this.signal));
      a = guarded.a;
      // Something else came under the point as the click went: the guard
      // stopped it there, and nothing of it reached the page's listeners.
      const missed = guarded.stopped && !guarded.reached && !a.navigated && !a.dialog && !a.closed && !a.opened.length;
      if (!missed) break;
      if (tries === 1) {
        throw new ActionError('conflict', `${this.label} moved as it was clicked: ${guarded.stopped} came under the pointer, ` +
          'and the click was stopped there: nothing was clicked', 'wait_for the page to settle, then try again');
      }
    }
    const out = await this.done(action, 'pointer', a);
    const opened = (action === 'click' && opensList(loc)) || (action !== 'double_click' && a.report?.listShown);
    if (offers && opened && !out.navigated && !out.dialog && !out.closed) {
      // A dropdown or menu it opened (a context menu too, and one of a
      // button that does not say it opens one), with refs: the next click,
      // without a read_page between.
      const r = await pageScript.onRefHanding(this.t, 'listOptions', { value: '' }, this.signal).catch(() => undefined);
      if (r?.listed && r.offered.length) {
        out.offers = offersOf(r.offered);
        if (r.more) out.moreOffers = r.more;
      }
    }
    return out;
  }

  /**
   * Why the element cannot be acted on, as an error to throw.
   * @param {string} action
   * @param {Reach | { state: 'moving' }} r
   * @returns {Unreachable}
   */
  unreachable(action, r) {
    const what = action.replace('_', ' ');
    switch (r.state) {
      case 'disabled':
        return new Unreachable(r, new ActionError('bad_request', `${this.label} is disabled`,
          'wait_for it with state "enabled", or do what enables it first'));
      case 'hidden':
        return new Unreachable(r, new ActionError('bad_request', `${this.label} is not visible`,
          'open or hover what contains it first; read_page shows what is visible now'));
      case 'offscreen':
        return new Unreachable(r, new ActionError('bad_request', `${this.label} cannot be brought into view to ${what} it`,
          'scroll what contains it, or call oc_handoff_start with reason manual_recovery'));
      case 'covered':
        if (r.passThrough) {
          return new Unreachable(r, new ActionError('conflict', `${this.label} takes no clicks (the page turned them off)`,
            'do what readies it first, or call oc_handoff_start with reason manual_recovery'));
        }
        return new Unreachable(r, new ActionError('conflict', `${this.label} is covered by ${r.blocker?.name ?? 'something else'}`,
          'dismiss what covers it first'));
      default:
        return new Unreachable(r, new ActionError('conflict', `${this.label} kept moving: nothing was done`,
          'wait_for the page to settle, then try again; if it never stops (an endless animation), take a screenshot and use computer left_click at its point'));
    }
  }

  /**
   * pointAt, or when something covers the element, blocked's answer:
   * nothing was sent. Any other reason it cannot be reached is thrown.
   * @param {string} action as pointAt says it ("drop files on")
   * @param {string} [name] as the answer says it ("upload")
   * @returns {Promise<{ point: Point, covered?: undefined } | { covered: Record<string, unknown> }>}
   */
  async pointOrCovered(action, name = action) {
    try {
      return { point: await this.pointAt(action) };
    } catch (err) {
      if (err instanceof Unreachable && err.reach.state === 'covered') return { covered: await this.blocked(name, err.reach) };
      throw err instanceof Unreachable ? err.error : err;
    }
  }

  /**
   * The result for an element something covers: nothing was clicked; what
   * covers it, and the controls that would dismiss that.
   * @param {string} action
   * @param {Reach} r
   */
  async blocked(action, r) {
    if (this.watchId !== undefined) await this.report(true).catch(() => {});
    const by = r.blocker ? { ref: `e${r.blocker.ref}`, name: r.blocker.name } : undefined;
    return {
      action,
      ref: `e${this.t.ref}`,
      target: this.label,
      ok: false,
      delivered: false,
      blocked: {
        by,
        // Its own pointer-events let clicks through to what holds it.
        passThrough: r.passThrough || undefined,
        // A modal <dialog>, which Escape closes whatever its buttons do.
        escapes: r.escapes || undefined,
        // The page's own header or footer, fixed over it: nothing closes it.
        pinned: r.pinned || undefined,
        // It draws nothing: a transparent layer over the page.
        unseen: r.unseen || undefined,
        dismiss: (r.dismiss ?? []).map((d) => ({ ref: `e${d.ref}`, name: d.name })),
        asks: r.asks?.map((d) => ({ ref: `e${d.ref}`, name: d.name })),
      },
      hitl: {
        required: true,
        reason: r.passThrough ? `${this.label} takes no clicks` : `${this.label} is covered by ${by?.name ?? 'something else'}`,
        suggested_call: { tool: 'oc_handoff_start', args: { reason: 'manual_recovery', tabId: this.t.tabId } },
      },
    };
  }

  /**
   * The result of an action that took effect.
   * @param {string} action
   * @param {string | undefined} strategy
   * @param {Attempt} a
   */
  async done(action, strategy, a) {
    /** @type {Record<string, unknown>} */
    const out = { action, ref: `e${this.t.ref}`, target: this.label, delivered: true };
    // Input that puts the caret somewhere: the next type there goes on from it.
    if (PLACES_CARET.has(action)) caretPlaced.set(this.t.tabId, this.t.ref);
    if (strategy) out.strategy = strategy;
    // A click on what only a double or right click reaches: the engine says
    // which, when the click changed nothing.
    if (action === 'click' && this.gesture) out.gesture = this.gesture;
    if (a.closed) {
      out.closed = true; // the page closed its own tab
      if (this.opener !== undefined) out.opener = this.opener;
      return out;
    }
    const tab = await chrome.tabs.get(this.t.tabId);
    out.navigated = a.navigated;
    if (a.navigating) out.navigating = a.navigating;
    if (a.refusedWith) out.status = a.refusedWith;
    out.url = tab.url;
    out.title = tab.title;
    if (a.opened.length) out.opened = a.opened;
    if (a.downloads?.length) out.downloads = a.downloads;
    if (a.refused) {
      // The navigation it started was stopped before it left the browser.
      out.navigationBlocked = policy.said(a.refused);
    }
    if (a.chooser) {
      // Playwright MCP's modal state: the next call answers it.
      out.fileChooser = { multiple: a.chooser.multiple, next: 'upload_file with the paths, without ref' };
    }
    if (this.options && !a.navigated) out.options = this.options;
    const thrown = evidence.exceptionsSince(this.t.tabId, this.started ?? Date.now());
    if (thrown.length) out.pageErrors = thrown;
    const failed = evidence.requestsOf(this.t.tabId).failedSince(this.started ?? Date.now());
    if (failed.length) out.failedRequests = failed;
    if (a.frameNavigated) {
      out.frameNavigated = a.frameNavigated;
      if (this.watchId !== undefined) await this.report(true).catch(() => {}); // it watched the old document
    } else if (!a.navigated && !a.dialog) {
      const last = await this.report(true);
      const r = a.quietReport && !last.dialogOpen ? a.quietReport : last;
      if (!r.dialogOpen) {
        if (a.running) r.requestsRunning = a.running;
        // The value fill, type, clear and select set is their answer's own.
        if (WRITES.has(action)) delete r.newValue;
        if (r.anew && this.watchId !== undefined) {
          // The control the page drew in its place: its ref, to act on next.
          const h = await pageScript.onRefHanding(this.t, 'successor', { watch: this.watchId }, this.signal).catch(() => undefined);
          if (h?.offered.length) r.anewRef = `e${h.offered[0].ref}`;
        }
        out.changes = summarize(r, a.downloads);
        if (r.value !== undefined) out.value = r.value;
        if (r.checked !== undefined) out.checked = r.checked;
      }
    }
    // Looked at last: a dialog may open while the rest is.
    const dialog = a.dialog ?? dialogs.current(this.t.tabId);
    if (dialog) {
      out.dialog = dialogs.describe(dialog);
      // The page does what the input was for once the dialog is answered
      // (a confirmed Delete): the answer says it, from this watch.
      if (this.watchId !== undefined) dialogs.holdWatch(this.t.tabId, (stop, signal) => this.report(stop, signal));
    }
    return out;
  }

  /**
   * Drags the element onto the element behind targetRef, or to a point of
   * the viewport: one press, the moves, one release (sw/trusted-input.js
   * says how an HTML5 drag gets its drop).
   * @param {unknown} targetRef
   * @param {unknown} to [x, y] in CSS pixels of the viewport
   */
  async drag(targetRef, to) {
    await this.locate();
    await input.showForDrag(this.t.tabId);
    /** @type {() => Promise<Point>} the drop point, brought into view */
    let where;
    /** @type {() => Promise<Point>} where the drop point lies now, without scrolling */
    let toward;
    let onto;
    if (targetRef !== undefined) {
      const dest = new Target(await pageScript.resolve(this.t.tabId, targetRef),
        { x: 0, y: 0 }, this.signal);
      await dest.locate();
      // Looked at before the press, so a drop target that cannot take it
      // fails the call with nothing pressed; and again once the drag is
      // under way, when it is brought into view (the page may have
      // scrolled to what is dragged).
      where = async () => {
        const r = await dest.reach();
        // A drop target may lie under what is dragged over it: its box is enough.
        if ((r.state !== 'ok' && r.state !== 'covered' && r.state !== 'moving') || !r.box) {
          throw dest.unreachable('drag onto', r).error;
        }
        dest.offset = await pageScript.frameOffset(this.t.tabId, dest.t.frameId, this.signal);
        return dest.tabPoint(r.point ?? Target.centre(r.box));
      };
      toward = async () => {
        dest.offset = await pageScript.frameOffset(this.t.tabId, dest.t.frameId, this.signal);
        return dest.tabPoint(Target.centre((await dest.locate()).box));
      };
      await where();
      onto = dest.label;
    } else if (Array.isArray(to) && to.length === 2 && to.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      const b = { x: to[0], y: to[1] };
      where = toward = async () => b;
    } else {
      throw new ActionError('bad_request', 'drag needs target (the ref to drop on) or to ([x, y] in the viewport)');
    }
    this.ownMoves = true;
    const at = await this.pointOrCovered('drag');
    if (at.covered) return at.covered;
    const from = this.tabPoint(at.point);
    const aim = await toward();
    /** @type {{ html5?: boolean }} */
    let how = {};
    const a = await this.attempt(async () => { how = await input.drag(this.t.tabId, from, aim, where, this.signal); });
    const out = await this.done('drag', how.html5 ? 'html5' : 'pointer', a);
    if (onto) out.to = onto;
    return out;
  }

  /**
   * Drops files on the element (a drop zone with no file input), as a
   * person drags them in: once, and only when the page takes them.
   * @param {string[]} files absolute paths
   */
  async dropFiles(files) {
    await this.locate();
    const on = await this.pointOrCovered('drop files on', 'upload');
    if (on.covered) return on.covered;
    const at = this.tabPoint(on.point);
    let dropped = false;
    await this.call('dom', { op: 'dropWatch' });
    const taken = () => this.call('dom', { op: 'dropTaken' }).then((r) => !!r.taken);
    const a = await this.attempt(async () => { dropped = await input.dropFiles(this.t.tabId, at, files, taken, this.signal); });
    if (!dropped) {
      throw new ActionError('bad_request', `${this.label} does not take dropped files: nothing was dropped`,
        'pass the ref of a file input or of the drop zone the page shows; or click what opens the file chooser, then call upload_file without ref');
    }
    return this.done('upload', 'drop', a);
  }

  async hover() {
    await this.locate();
    const at = await this.pointOrCovered('hover');
    if (at.covered) return at.covered;
    // pointAt's move was the hover: this only looks at what it did.
    let a = await this.attempt(() => Promise.resolve());
    // Only hid something (the menu an earlier hover held open): it may show
    // its own yet.
    if (!a.dialog && !a.closed && !a.navigated && !a.opened.length && !a.report?.shown && !a.report?.listShown) {
      a = await this.restedOn(a);
    }
    const out = await this.done('hover', 'pointer', a);
    if (this.watchId !== undefined && !out.navigated && !out.dialog && (a.report?.shown || a.report?.added)) {
      // What the hover showed (a menu that opens under the pointer), with
      // refs: the next click, without a read_page between.
      const r = await pageScript.onRefHanding(this.t, 'shownControls', { watch: this.watchId }, this.signal).catch(() => undefined);
      if (r?.offered.length) {
        out.offers = offersOf(r.offered);
        if (r.more) out.moreOffers = r.more;
      }
    }
    return out;
  }

  /**
   * What a hover that showed nothing at once shows once the pointer has
   * rested on the element (a menu that opens after a moment, so that one
   * passing over does not open it): looked at until something shows near
   * it or a list comes up, LATE_MS at most.
   * @param {Attempt} a
   * @returns {Promise<Attempt>}
   */
  async restedOn(a) {
    for (const deadline = Date.now() + LATE_MS; Date.now() < deadline;) {
      await sleep(LATE_POLL_MS, this.signal);
      const r = await this.report();
      if (r.dialogOpen || r.navigated || r.frameGone || r.lost) return a;
      if (r.shown || r.listShown) return { ...a, report: r, quietReport: undefined };
    }
    return a;
  }

  /**
   * Whether something in the tab's page still has the focus, as typing
   * goes on: not when it fell to the page itself (the field it went to was
   * drawn anew), unless the page is edited as a whole (designMode). A
   * frame, or a shadow root's host, holding it counts: the element may be
   * in there.
   * @returns {Promise<boolean>}
   */
  async focusHeld() {
    const r = await cdp.send(this.t.tabId, 'Runtime.evaluate', { expression: FOCUS_HELD, returnByValue: true }, { signal: this.signal });
    return r?.result?.value !== false;
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
   * @param {{ offers?: boolean, pick?: boolean }} [opts] offers: say what a
   *   combobox's list shows for the text (false when select picks from it
   *   next); pick: a combobox that draws its own list takes the option
   *   named text, as select does (form_input gives a field its value)
   */
  async write(action, text, { offers = true, pick = false } = {}) {
    const loc = await this.locate();
    if (loc.type === 'file') {
      throw new ActionError('bad_request', `${this.label} is a file input: it takes files, not text`,
        'call upload_file with its ref and the paths');
    }
    // A select, as a dropdown or as a list shown whole, takes its option.
    if (loc.tag === 'select') return this.select(text);
    if (pick && action === 'fill' && picksFrom(loc)) return this.pick(loc, [text]);
    if (loc.type === 'checkbox' || loc.type === 'radio' || CHECKABLE.has(loc.role)) {
      const on = truthy(text, loc.name, loc.formValue);
      if (on === undefined) {
        throw new ActionError('bad_request', `${this.label} is a ${loc.role || loc.type}: it takes true or false, not ${JSON.stringify(text.slice(0, 40))}`,
          'pass true to check it (or its name or value), false to uncheck it; was the value meant for another field?');
      }
      return this.check(on);
    }
    if (loc.disabled) throw new ActionError('bad_request', `${this.label} is disabled`);
    if (loc.readonly) {
      throw new ActionError('bad_request', `${this.label} is read-only: nothing was written`,
        'the page sets its value itself; look for the control that changes it');
    }
    // Inputs with their own editing UI (date, time, range, color) take no
    // typed text; their value is set through the DOM.
    const direct = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(loc.type ?? '');
    if (action === 'fill' && (loc.role === 'slider' || loc.role === 'spinbutton') && loc.range) return this.slide(loc.range, text);
    if (!loc.editable && !direct) {
      throw new ActionError('bad_request', `${this.label} does not take text`,
        'fill textboxes, searchboxes, spinbuttons, sliders, date inputs and contenteditable elements');
    }
    if (action === 'fill' && loc.type === 'number' && text !== '' && !NUMBER.test(text.trim())) {
      // The browser would drop it and leave the box empty.
      throw new ActionError('bad_request', `${this.label} cannot take ${loc.secret ? 'that value' : `"${text}"`}: nothing was written`,
        'it takes a number, like 42, -3.5 or 1e3');
    }
    await this.watch();
    // One write, never two: the keyboard when the caret is in the control;
    // the DOM (as a framework sees it) only when no key could reach it.
    const keep = caretPlaced.get(this.t.tabId) === this.t.ref;
    const { focused, atEnd = true } = direct ? { focused: false } :
      await this.call('dom', { op: action === 'fill' ? 'selectText' : 'caretAtEnd', value: keep ? 'keep' : '' });
    const start = Date.now();
    const strategy = focused ? 'keyboard' : 'dom';
    if (!focused && action === 'type') {
      throw new ActionError('bad_request', `${this.label} does not take the caret: nothing was typed`,
        'use fill, which sets the value, or click it first');
    }
    // Typed text follows what the control holds; End takes the caret there
    // in a one-line box that no script can place it in.
    if (action === 'type' && !atEnd) await input.press(this.t.tabId, 'End', this.signal);
    // A code editor's text is not its textarea's: its own key for select
    // all selects it, as a person's does, and the text replaces it.
    if (action === 'fill' && focused && loc.editor) await input.press(this.t.tabId, selectAllChord(navigator.platform), this.signal);
    // A dialog the page opens on a key ends the typing there: the page waits
    // for it, and the rest of the text is not the page's any more.
    const next = dialogs.next(this.t.tabId);
    const stop = new AbortController();
    let typed = 0;
    let focusHeld = true;
    /** @type {dialogs.Dialog | undefined} */
    let dialog;
    try {
      const writing = !focused ? this.call('dom', { op: 'setValue', value: text }) :
        action === 'type' ? input.type(this.t.tabId, text, this.signal, {
          stop: stop.signal, pressed: () => typed++, goOn: async () => (focusHeld = await this.focusHeld()),
        }) :
        text === '' ? input.press(this.t.tabId, 'Delete', this.signal) :
        input.insert(this.t.tabId, text, this.signal);
      dialog = await Promise.race([
        writing.then(() => undefined, (err) => {
          if (err instanceof pageScript.DialogOpened) return err.dialog;
          throw err;
        }),
        next.opened,
      ]);
    } finally {
      stop.abort();
      next.cancel();
    }
    if (dialog) {
      const out = await this.done(action, strategy, { dialog, navigated: false, opened: [], report: {} });
      const all = [...text].length;
      if (action === 'type' && typed < all && !loc.secret) out.typed = typedUntilDialog(typed, all);
      return out;
    }
    // Suggestions a search box fetches as it is typed in.
    const running = await settleRequests(this.t.tabId, start, this.signal, WRITE_SETTLE_MS);
    // The text went in: a page that reloads or leaves now does not undo it.
    const now = await this.locate().catch(() => undefined);
    const want = action === 'fill' ? text : undefined;
    const report = await this.report();
    /** @type {Attempt} */
    let wrote = { navigated: !!report.navigated, opened: [], running, report };
    // The value the box now holds is what was written, not the page's doing.
    if (loc.searches && text !== '' && !loc.secret && idle({ ...wrote, report: { ...report, newValue: undefined } })) {
      // A search or filter box answers after a pause (a debounced search,
      // an index it loads on the first key): watched a second longer, as a
      // click is.
      wrote = await this.lateAnswer(start, wrote);
    }
    const out = await this.done(action, strategy, wrote);
    // The page drew the field anew under the caret (an app that renders
    // on each key): the rest of the text would have gone to the page
    // itself, where a key may be a shortcut, so it was not sent.
    if (!focusHeld) out.typed = typedUntilFocusLost(typed, [...text].length);
    if (loc.secret) {
      delete out.value;
      out.value_set = true; // never echo what went into a secret field
    } else if (want !== undefined && now && !loc.editor) {
      const k = kept(want, now.held ?? now.value, loc.maxLength);
      out.verified = k.kept;
      if (k.formatted) out.formatted = true;
      if (k.why) out.unkept = k.why;
    }
    if (offers && text !== '' && loc.role === 'combobox' && !loc.secret && !out.navigated && !out.dialog) {
      // The suggestions a search box shows for what was typed, with refs:
      // the next click, without a read_page between.
      const r = await this.listShown(text);
      if (r?.listed && r.offered.length) {
        out.offers = offersOf(r.offered);
        if (r.more) out.moreOffers = r.more;
      }
    }
    return out;
  }

  /**
   * What a combobox's list shows for text, once it shows anything: a list
   * that fills as it is typed in is often drawn after a pause (a debounced
   * fetch). A combobox that does not say it suggests is not waited for.
   * @param {string} text
   * @returns {Promise<{ listed: boolean, suggests: boolean, offered: Offered[], more: number } | undefined>}
   */
  async listShown(text) {
    const deadline = Date.now() + OFFERS_MS;
    for (;;) {
      const r = await pageScript.onRefHanding(this.t, 'listOptions', { value: text }, this.signal).catch(() => undefined);
      if (!r || r.offered.length || !r.suggests || Date.now() >= deadline) return r;
      await sleep(LATE_POLL_MS, this.signal);
    }
  }

  /**
   * Sets a slider or spin button the page draws (aria-valuenow, no input
   * behind it) as a person does with the keyboard: focused, then Home or End
   * for its ends, else one key at a time, reading where it stands after
   * each: PageUp or PageDown while a page's step still falls short of the
   * value (when it has both ends), then the arrows (Up and Down, or Right
   * and Left when Up moved nothing). Each key is sent once; the keys stop
   * at the value, at the step nearest it, at the first key after those
   * that moves nothing, or at SLIDE_KEYS.
   * @param {{ now: number, min?: number, max?: number }} range
   * @param {string} text
   */
  async slide(range, text) {
    const want = Number(text.trim());
    const { min = -Infinity, max = Infinity } = range;
    const span = range.min !== undefined && range.max !== undefined ? `a number from ${min} to ${max}`
      : range.min !== undefined ? `a number of at least ${min}`
        : range.max !== undefined ? `a number of at most ${max}` : 'a number';
    if (text.trim() === '' || !Number.isFinite(want)) {
      throw new ActionError('bad_request', `${this.label} cannot take "${text}": nothing was changed`, `it takes ${span}`);
    }
    if (want < min || want > max) {
      throw new ActionError('bad_request', `${this.label} cannot take ${want}: nothing was changed`, `it takes ${span}`);
    }
    const { focused } = await this.call('dom', { op: 'focus' });
    if (!focused) {
      throw new ActionError('bad_request', `${this.label} takes no focus, so no key reaches it: nothing was changed`,
        'drag it with interact drag and a point (to), or click where the value lies on its track');
    }
    await this.watch();
    let now = range.now;
    let keys = 0;
    /** @type {string | undefined} */
    let stuck;
    /** @type {number | undefined} the arrows' step, once one moved it */
    let step;
    let lost = false;
    const press = async (/** @type {string} */ key) => {
      await input.press(this.t.tabId, key, this.signal);
      keys++;
      const before = now;
      try {
        now = (await this.locate()).range?.now ?? now;
      } catch {
        lost = true; // drawn anew or gone: no more keys to where it was
      }
      return now - before;
    };
    const a = await this.attempt(async () => {
      if (now === want) return;
      if (want === min || want === max) {
        await press(want === min ? 'Home' : 'End');
        if (lost) stuck = 'it was drawn anew as it moved';
        if (now === want || lost) return;
      }
      // Up raises the value on every slider ARIA describes; a page that
      // turns it round is followed after the first key, and one that
      // hears only the arrows of its own axis (Right and Left along a
      // track drawn across) after the first key that moves nothing.
      let up = true;
      let flipped = false;
      let across = false;
      let paging = Math.abs(want - now) > (max - min) / 10; // never without both ends
      /** @type {number | undefined} */
      let pageStep;
      for (;;) {
        const left = Math.abs(want - now);
        if (now === want || keys >= SLIDE_KEYS) return;
        if (paging && pageStep !== undefined && pageStep > left) paging = false;
        // The step nearest the value is reached: the next would pass it by more.
        if (!paging && step !== undefined && left < step / 2) return;
        const rising = want > now;
        const arrows = across ? ['ArrowRight', 'ArrowLeft'] : ['ArrowUp', 'ArrowDown'];
        const key = (rising === up) ? (paging ? 'PageUp' : arrows[0]) : (paging ? 'PageDown' : arrows[1]);
        const moved = await press(key);
        if (lost) {
          stuck = 'it was drawn anew as it moved';
          return;
        }
        if (moved === 0) {
          if (paging) {
            paging = false; // a slider without page keys
            continue;
          }
          if (!across && step === undefined) {
            across = true;
            continue;
          }
          stuck = `it did not move on ${key}`;
          return;
        }
        if ((moved > 0) !== rising) {
          if (flipped) {
            stuck = 'its keys move it away from the value';
            return;
          }
          flipped = true;
          up = !up;
          continue;
        }
        if (paging) {
          pageStep = Math.abs(moved);
          continue;
        }
        step = Math.abs(moved);
        if ((want > now) !== rising) return; // just past it, by less than a step
      }
    }, { late: true });
    const out = await this.done('fill', 'keyboard', a);
    out.keys = keys;
    out.verified = now === want;
    if (now !== want) {
      out.unkept = stuck ? `${stuck}: it stands at ${now}`
        : keys >= SLIDE_KEYS ? `it stands at ${now} after ${keys} keys`
          : `it moves in steps of ${step ?? '?'}: ${now} is the nearest it takes`;
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
    const loc = await this.locate();
    if (loc.disabled) throw new ActionError('bad_request', `${this.label} is disabled: nothing was selected`);
    if (loc.type === 'checkbox' || loc.type === 'radio' || CHECKABLE.has(loc.role)) {
      throw new ActionError('bad_request', `${this.label} is checked or not, not picked from: nothing was selected`,
        'check or uncheck it (form_input: true or false), one field for each box');
    }
    if (loc.tag !== 'select') return this.pick(loc, list);
    await this.watch();
    const a = await this.attempt(() => this.call('dom', { op: 'select', values: list }));
    return this.done('select', 'dom', a);
  }

  /**
   * Picks an option from a list the page draws (an autocomplete, a styled
   * dropdown), as a person does: types the value into a combobox that takes
   * text, or clicks one that does not to open its list, then clicks the
   * option named so. Each is one input, never repeated; the answer says what
   * was delivered, and what the list offers when it has no such option.
   * @param {Record<string, any>} loc
   * @param {string[]} list
   */
  async pick(loc, list) {
    if (!picksFrom(loc)) {
      throw new ActionError('bad_request', `${this.label} is not a select or a list to pick from`,
        'click what opens the list, then click the option by its name');
    }
    if (list.length > 1) {
      throw new ActionError('bad_request', `${this.label} draws its own list: it takes one value at a time, not ${list.length}`);
    }
    const [value] = list;
    /** @type {Record<string, any>} */
    let out;
    if (loc.role === 'listbox') {
      out = { action: 'select', ref: `e${this.t.ref}`, target: this.label, delivered: false };
    } else {
      out = /** @type {Record<string, any>} */ (loc.editable ? await this.write('fill', value, { offers: false }) : await this.click('click', { offers: false }));
      if (out.delivered !== true || out.navigated || out.dialog || out.closed) return { ...out, action: 'select' };
    }
    out.action = 'select';
    const deadline = Date.now() + PICK_MS;
    /** @type {{ match?: number, listed: boolean, suggests: boolean, offered: Offered[], more: number }} */
    let r;
    for (;;) {
      r = await pageScript.onRefHanding(this.t, 'listOptions', { value }, this.signal);
      if (r.match !== undefined || Date.now() >= deadline) break;
      // A box that takes any text and neither shows nor names a list (a
      // datalist's is the browser's own): no list is coming.
      if (loc.editable && !r.listed && !r.suggests) break;
      await sleep(100, this.signal);
    }
    if (r.match === undefined) {
      // A combobox that takes any text and shows no list for it (a search
      // box without suggestions): the typed value is its value.
      if (loc.editable && !r.listed) return out;
      const names = r.offered.map((o) => JSON.stringify(o.name)).join(', ');
      out.offers = offersOf(r.offered);
      out.unpicked = !r.listed ? `no list of options showed for ${JSON.stringify(value)}`
        : r.offered.length ? `its list has no option named ${JSON.stringify(value)}; it shows ${names}${r.more ? ` and ${r.more} more` : ''}`
        : `its list shows no option for ${JSON.stringify(value)}`;
      return out;
    }
    const option = new Target({ ...this.t, ref: r.match }, this.offset, this.signal);
    const picked = /** @type {Record<string, any>} */ (await option.click('click'));
    if (picked.delivered !== true) {
      // Something covers the option: nothing was picked, and what covers it is named.
      return { ...picked, action: 'select', ref: `e${this.t.ref}`, target: this.label, opened: out.opened };
    }
    const after = picked.navigated ? undefined : await this.locate().catch(() => undefined);
    const also = typeof picked.changes === 'string' && !picked.changes.startsWith('no visible change') ? `; ${picked.changes}` : '';
    return {
      ...picked,
      changes: picked.navigated ? picked.changes : `picked ${option.label}${also}`,
      action: 'select',
      ref: `e${this.t.ref}`,
      target: this.label,
      picked: { ref: `e${r.match}`, name: option.label },
      value: after?.value ?? picked.value,
      opened: [...(out.opened ?? []), ...(picked.opened ?? [])],
    };
  }

  /**
   * Checks or unchecks a checkbox, radio or switch, clicking through the
   * element once when its state differs, and verifies the new state.
   * @param {boolean} want
   */
  async check(want) {
    const loc = await this.locate();
    if (loc.checked === undefined && !CHECKABLE.has(loc.role)) {
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
    if (out.blocked) return out;
    out.action = action;
    // A page a dialog holds says nothing of the box until it is answered.
    if (out.dialog) return out;
    const now = await this.locate().catch(() => undefined);
    out.checked = now?.checked;
    out.verified = now?.checked === want;
    return out;
  }

  /** @param {string} key */
  async press(key) {
    const loc = await this.locate();
    refuseChord(key, loc.app, this.label);
    await this.call('dom', { op: 'focus' });
    await this.watch();
    const a = await this.attempt(() => input.press(this.t.tabId, key, this.signal), { late: true });
    const out = await this.done('press', undefined, a);
    out.key = key;
    if (!a.navigated && !a.closed && !out.dialog) {
      // Tab, an arrow in a menu: where the keys go next.
      const now = await pageScript.onRefHanding(this.t, 'focused', {}, this.signal).catch(() => undefined);
      const moved = focusMoved(this.t.ref, now);
      if (moved) out.focused = moved;
    }
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
    const r = await this.reach();
    if (r.state !== 'ok' || !r.point) throw this.unreachable('scroll', r).error;
    await this.watch();
    const point = r.point;
    return wheelSaid(await this.wheeled(loc, point, r.box), async (before) => {
      // A pane at its end passes the wheel on to the page around it: the
      // agent asked for the pane, so nothing is sent.
      if (before?.pane && before.room && !before.room[/** @type {'up' | 'down' | 'left' | 'right'} */ (direction)]) {
        await this.report(true);
        return { action: 'scroll', ref: `e${this.t.ref}`, target: this.label, delivered: false, changes: scrolled(before, before, true) };
      }
      const a = await this.attempt(() => input.wheel(this.t.tabId, this.tabPoint(point), dx, dy, this.signal));
      return this.done('scroll', undefined, a);
    }, true, { down: dy > 0, signal: this.signal });
  }

  /**
   * How to ask where what a wheel at point moves is: a pane's ref scrolls
   * that pane, an element's the pane it is in, or the page. A cross-origin
   * frame's document is its own page script's to read, at the same point
   * in the frame.
   * @param {Record<string, any>} loc the element located before it was reached
   * @param {Point} point where the wheel turns, in the element's frame
   * @param {Reach['box']} box the element's box once reached
   * @returns {Promise<() => Promise<ScrollState>>}
   */
  async wheeled(loc, point, box) {
    const frameId = loc.crossFrame && box && loc.content
      ? await pageScript.frameAt(this.t.tabId, this.t.frameId, this.t.ref, loc.crossFrame, this.signal)
      : undefined;
    if (frameId === undefined || !box) return scrollStateAt({ tabId: this.t.tabId, frameId: this.t.frameId }, point, this.signal);
    // Past the iframe's border and padding, from where it is now (reaching
    // it may have scrolled it).
    const inner = {
      x: Math.round(point.x - box.x - (loc.content.x - loc.box.x)),
      y: Math.round(point.y - box.y - (loc.content.y - loc.box.y)),
    };
    const where = scrollStateAt({ tabId: this.t.tabId, frameId }, inner, this.signal);
    return () => where().then((s) => ({ ...s, pane: s.pane ?? this.label }));
  }

  async scrollIntoView() {
    await this.locate();
    await this.call('dom', { op: 'scrollIntoView' });
    const loc = await this.locate();
    return { action: 'scroll_into_view', ref: `e${this.t.ref}`, target: this.label, inViewport: loc.inViewport, box: roundBox(loc.box) };
  }
}

/**
 * The actions that leave the caret where the agent put it: the next type
 * in that element goes on from there.
 */
const PLACES_CARET = new Set(['click', 'double_click', 'press', 'type', 'fill', 'clear']);

/**
 * The element, by ref, the agent's last input put the caret in, by tab. A
 * caret the page put (autofocus puts it before a field's text) is not it.
 * @type {Map<number, number>}
 */
const caretPlaced = new Map();

/**
 * The options a list offers, as results name them.
 * @param {Offered[]} offered
 */
function offersOf(offered) {
  return offered.map((o) => ({ ref: `e${o.ref}`, name: `${o.role || 'option'} ${JSON.stringify(o.name)}` }));
}

/**
 * Whether the element located as loc takes a value picked from a list the
 * page draws: a combobox, a list box, or a button that opens one (Headless
 * UI's Listbox).
 * @param {Record<string, any>} loc
 */
function picksFrom(loc) {
  return loc.role === 'combobox' || loc.role === 'listbox' || (loc.role === 'button' && loc.popup === 'listbox');
}

/**
 * Whether clicking the element located as loc opens a list to pick from:
 * a combobox, or a button that says it has a popup menu or list.
 * @param {Record<string, any>} loc
 */
function opensList(loc) {
  return loc.role === 'combobox' || (!!loc.popup && loc.popup !== 'false' && loc.popup !== 'dialog');
}

/**
 * Where a key moved the focus, from the element with ref from: the page
 * script's focused answer, as results say it; undefined when it stayed.
 * @param {number | undefined} from
 * @param {{ ref?: number, name?: string } | undefined} now
 */
export function focusMoved(from, now) {
  return now?.ref !== undefined && now.ref !== from ? { ref: `e${now.ref}`, name: now.name } : undefined;
}

/**
 * Whether an attempt saw nothing happen.
 * @param {Attempt} a
 */
function idle(a) {
  return !a.dialog && !a.closed && !a.navigated && !a.frameNavigated && !a.opened.length && !a.downloads?.length && !a.chooser && !a.refused &&
    !a.running && quiet(a.report);
}

/** An element no action can reach now, and the error that says why. */
class Unreachable extends Error {
  /**
   * @param {Reach | { state: 'moving' }} reach
   * @param {ActionError} error
   */
  constructor(reach, error) {
    super(error.message);
    this.reach = /** @type {Reach} */ (reach);
    this.error = error;
  }
}
