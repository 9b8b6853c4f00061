// @ts-check
// Trusted input through CDP's Input domain: what the page receives is what a
// user's mouse and keyboard would send (isTrusted events, hover, focus
// changes, default actions). Coordinates are CSS pixels of the tab's
// viewport. Each entry point shows the tab first when it may
// (sw/tab-group.js showForInput); a page still hidden (pageShown) gets
// mouse moves and wheels another way, as each says.

import { raceSignal, sleep } from '../lib/abort.js';
import { ActionError } from '../lib/errors.js';
import { charKey, chordEvents, parseChord } from '../lib/keys.js';
import * as cdp from './cdp.js';
import { showForInput } from './tab-group.js';

/** @typedef {{ x: number, y: number }} Point */
/** @typedef {'left' | 'right' | 'middle'} Button */

const BUTTON_BITS = { left: 1, right: 2, middle: 4 };

/**
 * Shows tabId for input when it may (tab-group.js showForInput) and reports
 * whether its page is shown now. It is not when the window shows the
 * person's own tab, nor when the window is minimized or other windows cover
 * it (the person works in another app): Chrome then draws no frame of it,
 * and its document says hidden. A tab just brought to the front is given a
 * moment to say it is shown. hidden: what the page said of itself just
 * before, when it was asked (page/dom.js actionable), which saves a look.
 * @param {number} tabId
 * @param {boolean} [hidden]
 * @returns {Promise<boolean>}
 */
async function pageShown(tabId, hidden) {
  // The page said so a moment ago; a tab just brought to the front may
  // have been shown since, and then a move not waited for does no harm.
  if (hidden !== undefined) return (await showForInput(tabId)) && !hidden;
  const wasActive = (await chrome.tabs.get(tabId)).active;
  if (!(await showForInput(tabId))) return false;
  for (let waited = 0; ; waited += SHOWN_POLL_MS) {
    const [r] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      world: 'ISOLATED',
      injectImmediately: true,
      func: () => document.visibilityState,
    }).catch(() => []);
    if (r?.result !== 'hidden') return true; // shown, or not a page a script may read
    if (wasActive || waited >= SHOWN_MS) return false;
    await sleep(SHOWN_POLL_MS);
  }
}

/** How long a tab brought to the front is given to say it is shown. */
const SHOWN_MS = 500;
const SHOWN_POLL_MS = 50;

/**
 * Moves the mouse to p. pressFollows: a press comes next, at p, which in a
 * hidden tab brings the move along (see click): it is not waited for.
 * @param {number} tabId
 * @param {Point} p
 * @param {AbortSignal} signal
 * @param {{ pressFollows?: boolean, hidden?: boolean }} [opts] hidden: as
 *   the page said just before (pageShown)
 */
export async function move(tabId, p, signal, { pressFollows = false, hidden } = {}) {
  const shown = await pageShown(tabId, hidden);
  await moveTo(tabId, p, signal, !shown && pressFollows);
}

/**
 * Sends the mouse to p. unwaited: the page is hidden and the input that
 * comes next brings the move along (a press, which a hidden page gets at
 * once, or a drop, whose events carry their point), so the move, which
 * Chrome answers only with a frame it does not draw, is not waited for;
 * its error is the next input's too.
 * @param {number} tabId @param {Point} p @param {AbortSignal} signal @param {boolean} [unwaited]
 */
async function moveTo(tabId, p, signal, unwaited = false) {
  const moved = cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: p.x, y: p.y, button: 'none' }, { signal });
  if (unwaited) moved.catch(() => {});
  else await moved;
}

/**
 * Clicks at p: move, then press and release, count times (2 for a double
 * click, the second pair with clickCount 2 as a real double click sends).
 * @param {number} tabId
 * @param {Point} p
 * @param {{ button?: Button, count?: number, modifiers?: number, hidden?: boolean }} opts
 *   hidden: as the page said just before (pageShown)
 * @param {AbortSignal} signal
 */
export async function click(tabId, p, { button = 'left', count = 1, modifiers = 0, hidden }, signal) {
  const shown = await pageShown(tabId, hidden);
  // A hidden page gets a move with its next frame, which Chrome does not
  // draw: the press behind it, which the page gets at once, brings it
  // along, in order.
  await moveTo(tabId, p, signal, !shown);
  for (let i = 1; i <= count; i++) {
    const base = { x: p.x, y: p.y, button, clickCount: i, modifiers };
    await cdp.send(tabId, 'Input.dispatchMouseEvent', { ...base, type: 'mousePressed', buttons: BUTTON_BITS[button] }, { signal });
    try {
      await cdp.send(tabId, 'Input.dispatchMouseEvent', { ...base, type: 'mouseReleased', buttons: 0 }, { signal });
    } catch (err) {
      // The click went through and handed the page to another app (a
      // mailto: or tel: link): Chrome drops our session as it does, and
      // the release's answer with it. The click has happened.
      if (!/detached while handling/i.test(err instanceof Error ? err.message : String(err))) throw err;
      return;
    }
  }
}

/**
 * Shows tabId for a drag, or, when its page stays hidden (pageShown), says
 * that nothing can be dragged: a drag is moves, which a hidden page gets
 * only with a frame Chrome does not draw, and the page answers each before
 * the next (a drag begins, a list makes room). Nothing is sent.
 * @param {number} tabId
 */
export async function showForDrag(tabId) {
  if (await pageShown(tabId)) return;
  throw new ActionError('conflict',
    'nothing was dragged: the tab is hidden (behind the person\'s own tab, or its window is minimized or covered), ' +
    'and a drag needs the frames Chrome draws only for a page that is shown',
    'ask the person to show the tab (browser_request_feedback), then drag again');
}

/**
 * Drags from a with the left button, in steps, as a hand would: press,
 * hold still a moment, a first few pixels toward where it goes (so the page knows a drag has
 * begun: an HTML5 drag, a list's activation distance), then where(), which
 * may scroll the page while the button is held, as a person's page
 * scrolls under a drag, and answers the drop point; then the moves there
 * and the release. A page that starts an HTML5 drag (draggable, dragstart)
 * gets it through CDP's drag interception, as mouse moves alone never
 * deliver one: dragenter, dragover and drop at the point with the drag's
 * data. A page that follows the mouse itself (a sortable list) gets the
 * moves and the release. Should where() fail, the drag is let go where it
 * began.
 * @param {number} tabId
 * @param {Point} a
 * @param {Point} toward a point in the direction it goes
 * @param {() => Promise<Point>} where the drop point, once the drag is under way
 * @param {AbortSignal} signal
 * @returns {Promise<{ html5: boolean }>}
 */
export async function drag(tabId, a, toward, where, signal) {
  await showForDrag(tabId);
  /** @type {unknown} */
  let data;
  const stop = onDragIntercepted(tabId, (d) => { data = d; });
  await cdp.send(tabId, 'Input.setInterceptDrags', { enabled: true }, { signal });
  /** @param {Point} p */
  const held = (p) => cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: p.x, y: p.y, button: 'left', buttons: 1 }, { signal });
  /** @param {Point} p */
  const release = (p) => cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseReleased', x: p.x, y: p.y, button: 'left', buttons: 0, clickCount: 1 }, { signal });
  try {
    await moveTo(tabId, a, signal);
    await cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mousePressed', x: a.x, y: a.y, button: 'left', buttons: 1, clickCount: 1 }, { signal });
    // Held a moment before it moves, as a hand does: a list that starts a
    // drag only after a press held still (dnd-kit's delay, a touch-friendly
    // sortable's) takes an early move for a click or a scroll.
    await sleep(HOLD_MS, signal);
    const d = Math.hypot(toward.x - a.x, toward.y - a.y);
    const unit = d > 0 ? { x: (toward.x - a.x) / d, y: (toward.y - a.y) / d } : { x: 0, y: 1 };
    let at = a;
    for (const px of [START_PX / 2, START_PX]) {
      at = { x: a.x + unit.x * Math.min(px, d || px), y: a.y + unit.y * Math.min(px, d || px) };
      await held(at);
    }
    /** @type {Point} */
    let b;
    try {
      b = await where();
    } catch (err) {
      if (data !== undefined) await cdp.undo(tabId, 'Input.dispatchDragEvent', { type: 'dragCancel', x: a.x, y: a.y, data });
      await held(a).catch(() => {});
      await release(a).catch(() => {});
      throw err;
    }
    const from = at;
    for (let i = 1; i <= STEPS; i++) {
      await held({ x: from.x + ((b.x - from.x) * i) / STEPS, y: from.y + ((b.y - from.y) * i) / STEPS });
    }
    if (data !== undefined) {
      for (const type of ['dragEnter', 'dragOver', 'drop']) {
        await cdp.send(tabId, 'Input.dispatchDragEvent', { type, x: b.x, y: b.y, data }, { signal });
      }
    }
    await release(b);
    return { html5: data !== undefined };
  } finally {
    stop();
    cdp.undo(tabId, 'Input.setInterceptDrags', { enabled: false });
  }
}

/**
 * Drops files on p, as a person drags them in from their desktop: the
 * pointer comes over, dragenter and dragover carry the files; taken() then
 * says whether the page cancelled the dragover, as a page that takes files
 * does. Only then do they drop: a page that does not take them would have
 * the browser open them in the tab. Answers whether they dropped.
 * @param {number} tabId
 * @param {Point} p
 * @param {string[]} files absolute paths
 * @param {() => Promise<boolean>} taken
 * @param {AbortSignal} signal
 */
export async function dropFiles(tabId, p, files, taken, signal) {
  await moveTo(tabId, p, signal, !(await pageShown(tabId)));
  const data = { items: [], files, dragOperationsMask: 1 }; // copy
  for (const type of ['dragEnter', 'dragOver']) {
    await cdp.send(tabId, 'Input.dispatchDragEvent', { type, x: p.x, y: p.y, data }, { signal });
  }
  if (!(await taken())) {
    await cdp.undo(tabId, 'Input.dispatchDragEvent', { type: 'dragCancel', x: p.x, y: p.y, data });
    return false;
  }
  await cdp.send(tabId, 'Input.dispatchDragEvent', { type: 'drop', x: p.x, y: p.y, data }, { signal });
  return true;
}

/** How long a drag's press is held still before it moves: past the 250 ms such lists wait. */
const HOLD_MS = 300;
/** How far a drag goes before its drop point is looked up: past the few pixels pages wait for. */
const START_PX = 12;
/** The moves from there to the drop point. */
const STEPS = 8;

/** Waiting drags by tab. @type {Map<number, (data: unknown) => void>} */
const dragWaiters = new Map();
cdp.onEvent('Input.dragIntercepted', (tabId, params) => dragWaiters.get(tabId)?.(params.data));

/**
 * Calls fn with the data of an HTML5 drag tabId starts, until stopped.
 * @param {number} tabId
 * @param {(data: unknown) => void} fn
 */
function onDragIntercepted(tabId, fn) {
  dragWaiters.set(tabId, fn);
  return () => {
    if (dragWaiters.get(tabId) === fn) dragWaiters.delete(tabId);
  };
}

/**
 * Scrolls the wheel by dx, dy CSS pixels with the mouse at p.
 * @param {number} tabId
 * @param {Point} p
 * @param {number} dx
 * @param {number} dy
 * @param {AbortSignal} signal
 */
export async function wheel(tabId, p, dx, dy, signal) {
  if (!(await pageShown(tabId))) return scrollHidden(tabId, p, dx, dy, signal);
  await cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseWheel', x: p.x, y: p.y, deltaX: dx, deltaY: dy }, { signal });
}

/**
 * Scrolls, in a hidden page (pageShown), what a wheel at p would: Chrome
 * answers a wheel only with a frame, which it does not draw for a hidden
 * page, and scrolls nothing. The DOM scrolls it instead: the first pane
 * under p (in the page, a same-origin frame or an open shadow root) with
 * room that way, else the document it is in, as a wheel's scroll goes on
 * from a pane at its end. No wheel event reaches the page.
 * @param {number} tabId
 * @param {Point} p
 * @param {number} dx
 * @param {number} dy
 * @param {AbortSignal} signal
 */
async function scrollHidden(tabId, p, dx, dy, signal) {
  await raceSignal(chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    world: 'ISOLATED',
    injectImmediately: true,
    // Runs in the page: self-contained.
    func: (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ dx, /** @type {number} */ dy) => {
      /** @param {Element} el */
      const hasRoom = (el) => (dy > 0 && el.scrollTop + el.clientHeight < el.scrollHeight - 1) || (dy < 0 && el.scrollTop > 0) ||
        (dx > 0 && el.scrollLeft + el.clientWidth < el.scrollWidth - 1) || (dx < 0 && el.scrollLeft > 0);
      // The innermost element under the point: into open shadow roots and
      // same-origin frames.
      /** @type {Document} */
      let doc = document;
      let at = { x, y };
      /** @type {Element | null} */
      let el = null;
      for (let depth = 0; depth < 4; depth++) {
        el = doc.elementFromPoint(at.x, at.y);
        while (el?.shadowRoot) {
          const inner = el.shadowRoot.elementFromPoint(at.x, at.y);
          if (!inner || inner === el) break;
          el = inner;
        }
        /** @type {Document | null} */
        let inner = null;
        try {
          inner = el?.tagName === 'IFRAME' ? /** @type {HTMLIFrameElement} */ (el).contentDocument : null;
        } catch {
          // cross-origin: its pane is the frame's own
        }
        if (!inner || !el) break;
        const box = el.getBoundingClientRect();
        at = { x: at.x - box.x - el.clientLeft, y: at.y - box.y - el.clientTop };
        doc = inner;
      }
      // Outward from it: the panes, and each document's own scroller, the
      // frame's before the page's.
      for (let e = el; e;) {
        const d = e.ownerDocument;
        if (e === d.body || e === d.documentElement) {
          const root = d.scrollingElement ?? d.documentElement;
          if (hasRoom(root)) {
            root.scrollBy({ left: dx, top: dy, behavior: 'instant' });
            return;
          }
          e = d.defaultView?.frameElement ?? null;
          continue;
        }
        const cs = getComputedStyle(e);
        if (/(auto|scroll|overlay)/.test(`${cs.overflowX} ${cs.overflowY}`) && hasRoom(e)) {
          e.scrollBy({ left: dx, top: dy, behavior: 'instant' });
          return;
        }
        e = e.parentElement ?? /** @type {ShadowRoot | null} */ (e.parentNode)?.host ?? d.body;
      }
      scrollBy({ left: dx, top: dy, behavior: 'instant' });
    },
    args: [p.x, p.y, dx, dy],
  }), signal);
}

/**
 * Presses a key or chord: "Enter", "ctrl+a".
 * @param {number} tabId
 * @param {string} chord
 * @param {AbortSignal} signal
 */
export async function press(tabId, chord, signal) {
  await showForInput(tabId);
  await pressChord(tabId, chord, signal);
}

/** @param {number} tabId @param {string} chord @param {AbortSignal} signal */
async function pressChord(tabId, chord, signal) {
  for (const e of chordEvents(parseChord(chord))) {
    await cdp.send(tabId, 'Input.dispatchKeyEvent', /** @type {Record<string, unknown>} */ (e), { signal });
  }
}

/**
 * Types text key by key, so the page sees keydown, keypress, input and keyup
 * for each character; characters no key types (é, emoji) are inserted as
 * text input. stop ends it between two characters (a key pressed is also
 * released): a page that opened a dialog on one gets no more. goOn, asked
 * between two characters, ends it too when it says no.
 * @param {number} tabId
 * @param {string} text
 * @param {AbortSignal} signal
 * @param {{ stop?: AbortSignal, pressed?: () => void, goOn?: () => Promise<boolean> }} [opts]
 *   pressed is told of each character as it goes
 */
export async function type(tabId, text, signal, { stop, pressed, goOn } = {}) {
  await showForInput(tabId);
  let first = true;
  for (const ch of text) {
    if (stop?.aborted) return;
    if (!first && goOn && !(await goOn())) return;
    first = false;
    pressed?.();
    // The keys a person presses for them: Enter for a line break (a new
    // line in a textarea, a submit in a form), Tab to the next field.
    if (ch === '\n' || ch === '\t') {
      await pressChord(tabId, ch === '\n' ? 'Enter' : 'Tab', signal);
      continue;
    }
    if (ch === '\r') continue; // of a \r\n: its \n is the Enter
    const k = charKey(ch);
    if (!k) {
      await cdp.send(tabId, 'Input.insertText', { text: ch }, { signal });
      continue;
    }
    await pressChord(tabId, k.shift ? `shift+${ch}` : ch === ' ' ? 'Space' : ch, signal);
  }
}

/**
 * Inserts text at the caret in one input event, as an IME or paste would:
 * fast, and seen by frameworks as the user's input.
 * @param {number} tabId
 * @param {string} text
 * @param {AbortSignal} signal
 */
export async function insert(tabId, text, signal) {
  await showForInput(tabId);
  await cdp.send(tabId, 'Input.insertText', { text }, { signal });
}
