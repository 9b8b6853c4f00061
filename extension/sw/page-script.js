// @ts-check
// The page script's service-worker half: injects the page/*.js files
// (lib/page-files.js) into frames and calls them, keeps each tab's refs
// (lib/refs.js) and merges cross-origin frames into one tree. Every call
// into a page goes through here.

import { raceSignal } from '../lib/abort.js';
import { ActionError } from '../lib/errors.js';
import { PAGE_FILES, PAGE_VERSION } from '../lib/page-files.js';
import { scriptingError } from '../lib/scripting.js';
import { RefBook, parseRef } from '../lib/refs.js';
import * as cdp from './cdp.js';
import * as clickables from './clickables.js';
import * as dialogs from './dialogs.js';
import * as navigation from './navigation.js';
import { isAgentTab } from './tab-group.js';

const STORAGE_KEY = 'refs';

/** @typedef {{ tabId: number, frameId: number, documentId: string, ref: number }} RefTarget */

/**
 * Where a cross-origin frame sits: the iframe element that holds it, by its
 * ref in the parent frame.
 * @typedef {{ parentFrameId: number, iframeRef: number }} FramePlace
 */

/** @type {RefBook} */
let book = new RefBook();
/** Restores the book a previous worker saved; every use awaits it. */
const restored = chrome.storage.session.get(STORAGE_KEY).then(
  (stored) => {
    book = RefBook.from(stored[STORAGE_KEY]);
  },
  () => {},
);
/** @type {Map<number, Map<number, FramePlace>>} tab -> frame -> place */
const places = new Map();
/**
 * The frames of tabId whose page script the last read put there (the top
 * frame has its own from the start).
 * @param {number} tabId
 * @returns {number[]}
 */
export function framesRead(tabId) {
  return [...(places.get(tabId)?.keys() ?? [])];
}

/** Per-tab chain serializing calls that hand out refs. @type {Map<number, Promise<unknown>>} */
const chains = new Map();

// An agent tab's new document gets the page script as soon as it commits,
// while the page is still loading: the read that usually follows a
// navigation then pays neither the injection nor its compile.
navigation.onCommit((tabId) => {
  isAgentTab(tabId).then((ours) => {
    if (!ours) return;
    inject({ tabId, frameIds: [0] })
      .catch(() => {}); // a page the extension cannot script: the read says so
  });
});

/**
 * Each tab's marking of its new document's clickables, begun when the agent's
 * navigation of it loaded (markAhead); a read waits for it rather than ask
 * the debugger again.
 * @type {Map<number, Promise<void>>}
 */
const markingAhead = new Map();

/** How long marking ahead may take before it gives up. */
const MARK_AHEAD_MS = 5000;

/**
 * Begins marking the clickables of the document the agent's navigation of
 * tabId just loaded. Marking takes a few round trips to the DOM debugger,
 * and a read usually follows such a load: marked now, while the
 * navigation's answer travels to the agent and the read travels back, the
 * marks are fresh when the read comes (page/tree.js marksFresh) and it
 * walks at once.
 * @param {number} tabId
 */
export function markAhead(tabId) {
  // A dialog the page opens holds the debugger's questions until answered;
  // the read that waits on this one is refused at once instead.
  const stop = new AbortController();
  const dialog = dialogs.next(tabId);
  dialog.opened.then(() => stop.abort());
  const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(MARK_AHEAD_MS)]);
  const ahead = clickables.mark(tabId, signal).then(() => {}, () => {});
  markingAhead.set(tabId, ahead);
  ahead.finally(() => {
    dialog.cancel();
    if (markingAhead.get(tabId) === ahead) markingAhead.delete(tabId);
  });
}

/**
 * Injects the page script's files, together and in order, into target's
 * isolated world. A frame that has them already keeps its own (and its
 * refs).
 * @param {chrome.scripting.InjectionTarget} target
 */
function inject(target) {
  return chrome.scripting.executeScript({
    target, world: 'ISOLATED', files: [...PAGE_FILES], injectImmediately: true,
  });
}

// Registered at the top level (see service-worker.js).
chrome.tabs.onRemoved.addListener((tabId) => {
  book.forget(tabId);
  places.delete(tabId);
  chains.delete(tabId);
  markingAhead.delete(tabId);
  save();
});

let saving = false;
function save() {
  if (saving) return;
  saving = true;
  queueMicrotask(() => {
    saving = false;
    chrome.storage.session.set({ [STORAGE_KEY]: book.toJSON() }).catch(() => {});
  });
}

/**
 * Runs fn alone among tabId's ref-handing calls: two frames must not hand
 * out the same numbers.
 * @template T
 * @param {number} tabId
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
function serialized(tabId, fn) {
  const prev = chains.get(tabId) ?? Promise.resolve();
  const run = prev.catch(() => {}).then(fn);
  chains.set(tabId, run.catch(() => {}));
  return run;
}

/**
 * Fails fast when the page cannot run script: a JavaScript dialog is open,
 * or the user stopped our debugger on the tab.
 * @param {number} tabId
 */
function ready(tabId) {
  dialogs.refuseWhileOpen(tabId);
  if (cdp.dismissedByUser(tabId)) {
    cdp.attach(tabId).catch(() => {}); // the retry finds it attached again
    throw new ActionError('conflict',
      'the user stopped OpenChrome debugging this tab (the "started debugging" bar was dismissed)',
      'retry to attach again, or ask the user');
  }
}

/**
 * Calls method on the page script of one frame or document, injecting the
 * script first when the frame has none, or one of another version.
 * @param {{ tabId: number, frameId?: number, documentId?: string }} where
 * @param {string} method
 * @param {unknown} args
 * @param {AbortSignal} signal
 * @returns {Promise<{ data: any, frameId: number, documentId: string }>}
 */
export async function call(where, method, args, signal) {
  await restored;
  ready(where.tabId);
  // Attached, so that a dialog the call opens is seen (Page events).
  await cdp.attach(where.tabId, signal);
  /** @type {chrome.scripting.InjectionTarget} */
  const target = where.documentId
    ? { tabId: where.tabId, documentIds: [where.documentId] }
    : { tabId: where.tabId, frameIds: [where.frameId ?? 0] };
  // injectImmediately: without it Chrome holds the call until the document
  // is "idle", which can be a while after the load the action just waited for.
  const run = () => chrome.scripting.executeScript({
    target,
    world: 'ISOLATED',
    injectImmediately: true,
    // Runs in the page: self-contained, no closure.
    func: (/** @type {string} */ m, /** @type {unknown} */ a, /** @type {number} */ version) => {
      const oc = globalThis.__openchrome;
      return oc?.version === version && oc.call ? oc.call(m, a) : { missing: true };
    },
    args: [method, args, PAGE_VERSION],
  });
  const dialog = dialogs.next(where.tabId);
  try {
    let [res] = await raceDialog(run(), dialog.opened, signal);
    if (/** @type {{ missing?: boolean } | undefined} */ (res?.result)?.missing) {
      await inject(target);
      [res] = await raceDialog(run(), dialog.opened, signal);
    }
    // One JSON string (page/entry.js), read here.
    /** @type {PageResult} */
    const out = typeof res?.result === 'string' ? JSON.parse(res.result) : { ok: undefined };
    if (out.error) throw new ActionError(/** @type {import("../lib/errors.js").Code} */ (out.error.code), out.error.message, out.error.hint);
    return { data: out.ok, frameId: res.frameId, documentId: /** @type {string} */ (res.documentId) };
  } catch (err) {
    throw callError(err, where);
  } finally {
    dialog.cancel();
  }
}

/**
 * A call's answer, unless a dialog opens first: its page then runs nothing
 * until the dialog is answered.
 * @template T
 * @param {Promise<T>} p
 * @param {Promise<dialogs.Dialog>} opened
 * @param {AbortSignal} signal
 * @returns {Promise<T>}
 */
async function raceDialog(p, opened, signal) {
  const d = await raceSignal(Promise.race([p, opened.then((dlg) => ({ dialog: dlg }))]), signal);
  if (d && typeof d === 'object' && 'dialog' in d) throw new DialogOpened(/** @type {any} */ (d).dialog);
  return /** @type {T} */ (d);
}

/** A call ended because its page opened a JavaScript dialog. */
export class DialogOpened extends Error {
  /** @param {dialogs.Dialog} dialog */
  constructor(dialog) {
    super(`a JavaScript dialog opened: ${dialogs.describe(dialog)}`);
    this.dialog = dialog;
  }
}

/**
 * A call's failure as an agent can act on it.
 * @param {unknown} err
 * @param {{ documentId?: string }} where
 */
function callError(err, where) {
  return err instanceof DialogOpened ? err : scriptingError(err, where);
}

/**
 * The tab's whole tree: the top frame, same-origin frames in place, and
 * cross-origin frames injected one by one and put where their iframe is.
 * @param {number} tabId
 * @param {AbortSignal} signal
 */
export function snapshot(tabId, signal) {
  return serialized(tabId, async () => {
    // A page under a dialog runs nothing, the debugger's questions included.
    ready(tabId);
    const ahead = markingAhead.get(tabId);
    if (ahead) {
      await raceSignal(ahead, signal);
      ready(tabId);
    }
    // Elements a script listens on get refs: marked before the walk when
    // the page script is there already, else after a first walk that puts
    // it there, and then walked again if that changes the tree.
    const marked = await clickables.mark(tabId, signal).catch(() => 0);
    let top = await snapshotFrame(tabId, 0, signal);
    if (marked < 0 && (await clickables.mark(tabId, signal).catch(() => 0)) > 0) {
      top = await snapshotFrame(tabId, 0, signal);
    }
    // Cross-origin frames likewise: those read before are marked before
    // their walk; one read for the first time, after it, and walked again
    // when that changes its tree.
    await clickables.markFrames(tabId, signal).catch(() => 0);
    let framePlaces = new Map();
    await fillFrames(tabId, 0, top.data.tree, framePlaces, signal, 0);
    if (framePlaces.size && (await clickables.markFrames(tabId, signal).catch(() => 0)) > 0) {
      top = await snapshotFrame(tabId, 0, signal);
      framePlaces = new Map();
      await fillFrames(tabId, 0, top.data.tree, framePlaces, signal, 0);
    }
    places.set(tabId, framePlaces);
    save();
    return top.data;
  });
}

/**
 * @param {number} tabId
 * @param {number} frameId
 * @param {AbortSignal} signal
 */
async function snapshotFrame(tabId, frameId, signal) {
  const { base, skip } = await plan(tabId);
  const res = await call({ tabId, frameId }, 'snapshot', { refBase: base, refSkip: skip }, signal);
  book.record(tabId, res.frameId, res.documentId, res.data.startRef ?? base, res.data.nextRef, skip);
  return res;
}

/**
 * Where the next call into the tab starts handing out refs, and which
 * numbers it passes over: a new top document starts a page of the tab's
 * book (lib/refs.js).
 * @param {number} tabId
 */
async function plan(tabId) {
  const top = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  if (top?.documentId) book.enter(tabId, top.documentId);
  return book.plan(tabId);
}

/**
 * Injects into the cross-origin frames the tree of frameId shows as
 * placeholders, and puts their trees in place.
 * @param {number} tabId
 * @param {number} frameId
 * @param {any[]} tree
 * @param {Map<number, FramePlace>} framePlaces
 * @param {AbortSignal} signal
 * @param {number} depth
 */
async function fillFrames(tabId, frameId, tree, framePlaces, signal, depth) {
  /** @type {any[]} */
  const holes = [];
  const visit = (/** @type {any[]} */ nodes) => {
    for (const n of nodes) {
      if (n.frame?.crossOrigin) holes.push(n);
      if (n.kids) visit(n.kids);
    }
  };
  visit(tree);
  if (!holes.length || depth > 3) return;
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const used = new Set();
  for (const hole of holes) {
    const { noScroll, path } = hole.frame;
    // The page script's words to us, not the tree's.
    delete hole.frame.noScroll;
    delete hole.frame.path;
    const f = await matchFrame(tabId, frames, frameId, { url: hole.frame.url, path }, used, signal);
    if (!f) continue;
    used.add(f.frameId);
    try {
      const sub = await snapshotFrame(tabId, f.frameId, signal);
      framePlaces.set(f.frameId, { parentFrameId: frameId, iframeRef: hole.ref });
      // A cross-origin frame's document says whether it scrolls, as a
      // same-origin one's is read in place.
      if (sub.data.scrolls && !noScroll) hole.scrollable = true;
      hole.frame = { url: sub.data.url };
      if (sub.data.tree.length) hole.kids = sub.data.tree;
      await fillFrames(tabId, f.frameId, sub.data.tree, framePlaces, signal, depth + 1);
    } catch (err) {
      if (signal.aborted) throw err;
      hole.frame.unreadable = true; // the tree still says where it is
    }
  }
}

/**
 * The frame that an iframe of frame parentFrameId's document shows. It is
 * one of the frames below parentFrameId not yet used (a grandchild, when
 * the iframe is in a same-origin frame read in place), at its URL, else at
 * its origin (a frame may have navigated on). A child frame alone at its
 * URL is it. Otherwise (several alike, a deeper one, or about:srcdoc and
 * about:blank, which a sandboxed frame shares with the same-origin frames
 * read in place) each says its path from the top window, and the one at
 * the iframe's path is it.
 * @param {number} tabId
 * @param {chrome.webNavigation.GetAllFrameResultDetails[]} frames the tab's
 * @param {number} parentFrameId
 * @param {{ url: string, path?: number[] }} source the iframe's src and path
 * @param {Set<number>} used
 * @param {AbortSignal} signal
 */
async function matchFrame(tabId, frames, parentFrameId, { url, path }, used, signal) {
  const below = descendants(frames, parentFrameId).filter((f) => !used.has(f.frameId));
  const atUrl = below.filter((f) => f.url === url);
  const alike = atUrl.length ? atUrl : below.filter((f) => sameOrigin(f.url, url));
  const child = alike.find((f) => f.parentFrameId === parentFrameId);
  if (!path) return child ?? alike[0];
  if (alike.length === 1 && child && !url.startsWith('about:')) return child;
  for (const f of alike) {
    const at = await framePath(tabId, f.frameId, signal);
    if (at && at.length === path.length && at.every((i, k) => i === path[k])) return f;
  }
  return undefined;
}

/**
 * The frames below frameId, children first.
 * @param {chrome.webNavigation.GetAllFrameResultDetails[]} frames
 * @param {number} frameId
 */
function descendants(frames, frameId) {
  const out = frames.filter((f) => f.parentFrameId === frameId);
  for (let i = 0; i < out.length; i++) out.push(...frames.filter((f) => f.parentFrameId === out[i].frameId));
  return out;
}

/**
 * A frame's path from the top window, as its own script sees it; undefined
 * when no script may run there. It repeats roles.framePath, because
 * executeScript takes a self-contained function, and runs without the page
 * script: a same-origin frame the top's script reads in place must not get
 * a page script of its own (sw/clickables.js would hand it the frame's
 * listeners).
 * @param {number} tabId
 * @param {number} frameId
 * @param {AbortSignal} signal
 * @returns {Promise<number[] | undefined>}
 */
async function framePath(tabId, frameId, signal) {
  const [r] = await raceSignal(chrome.scripting.executeScript({
    target: { tabId, frameIds: [frameId] },
    world: 'ISOLATED',
    injectImmediately: true,
    func: () => {
      const path = [];
      for (let w = /** @type {Window} */ (window); w !== w.parent; w = w.parent) {
        const up = w.parent;
        let i = 0;
        while (i < up.frames.length && up.frames[i] !== w) i++;
        if (i === up.frames.length) return undefined;
        path.unshift(i);
      }
      return path;
    },
  }).catch(() => []), signal);
  return Array.isArray(r?.result) ? r.result : undefined;
}

/**
 * @param {string} a
 * @param {string} b
 */
function sameOrigin(a, b) {
  try {
    const origin = new URL(a).origin;
    return origin !== 'null' && origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/**
 * Calls a ref-handing method (find) in the top frame.
 * @param {number} tabId
 * @param {string} method
 * @param {Record<string, unknown>} args
 * @param {AbortSignal} signal
 */
export function callHanding(tabId, method, args, signal) {
  return callHandingIn({ tabId, frameId: 0 }, method, args, signal);
}

/**
 * callHanding in one frame of the tab.
 * @param {{ tabId: number, frameId: number }} where
 * @param {string} method
 * @param {Record<string, unknown>} args
 * @param {AbortSignal} signal
 */
export function callHandingIn({ tabId, frameId }, method, args, signal) {
  return serialized(tabId, async () => {
    const { base, skip } = await plan(tabId);
    const res = await call({ tabId, frameId }, method, { ...args, refBase: base, refSkip: skip }, signal);
    book.record(tabId, res.frameId, res.documentId, res.data.startRef ?? base, res.data.nextRef, skip);
    save();
    return res.data;
  });
}

/**
 * Where ref lives: its frame and document.
 * @param {number} tabId
 * @param {unknown} rawRef "e12", "12" or 12
 * @returns {Promise<RefTarget>}
 */
export async function resolve(tabId, rawRef) {
  await restored;
  const ref = parseRef(rawRef);
  if (ref === undefined) {
    throw new ActionError('bad_request', `"${String(rawRef)}" is not a ref`, 'refs look like e12; call read_page or find');
  }
  const range = book.lookup(tabId, ref);
  if (range) {
    // A document the tab has left may live on in the back-forward cache,
    // where a call would still reach it: only the frame's current one counts.
    const frame = await chrome.webNavigation.getFrame({ tabId, frameId: range.frameId }).catch(() => null);
    if (!frame || (frame.documentId && frame.documentId !== range.documentId)) {
      throw new ActionError('stale_ref', `ref e${ref} is from a page this tab has left (it navigated or reloaded)`,
        'call read_page for fresh refs');
    }
  }
  if (!range) {
    if (book.handedOut(tabId, ref)) {
      throw new ActionError('stale_ref', `ref e${ref} is from a page this tab has left`, 'call read_page for fresh refs');
    }
    throw new ActionError('bad_request', `there is no ref e${ref} in tab ${tabId}`,
      'call read_page or find for refs of this tab');
  }
  return { tabId, frameId: range.frameId, documentId: range.documentId, ref };
}

/**
 * Calls method on the document ref lives in, with ref among its args.
 * @param {RefTarget} t
 * @param {string} method
 * @param {Record<string, unknown>} args
 * @param {AbortSignal} signal
 */
export async function onRef(t, method, args, signal) {
  const res = await call({ tabId: t.tabId, documentId: t.documentId }, method, { ref: t.ref, ...args }, signal);
  return res.data;
}

/**
 * onRef for a method that may hand out refs (actionable names what covers
 * an element): the refs it hands out are booked to ref's document.
 * @param {RefTarget} t
 * @param {string} method
 * @param {Record<string, unknown>} args
 * @param {AbortSignal} signal
 */
export function onRefHanding(t, method, args, signal) {
  return serialized(t.tabId, async () => {
    const { base, skip } = await plan(t.tabId);
    const res = await call({ tabId: t.tabId, documentId: t.documentId }, method,
      { ref: t.ref, ...args, refBase: base, refSkip: skip }, signal);
    book.record(t.tabId, res.frameId, res.documentId, res.data.startRef ?? base, res.data.nextRef, skip);
    save();
    return res.data;
  });
}

/**
 * Where a cross-origin frame sits in the frame around it: that frame's id
 * and the ref of the iframe element there; undefined for the top frame and
 * a frame the last read did not place.
 * @param {number} tabId
 * @param {number} frameId
 * @returns {FramePlace | undefined}
 */
export function placeOf(tabId, frameId) {
  return places.get(tabId)?.get(frameId);
}

/**
 * The frame that the iframe element iframeRef of frame parentFrameId shows:
 * the one the last read placed there, else the one matchFrame finds, which
 * is then placed there, so that refs handed out in it can be acted on.
 * @param {number} tabId
 * @param {number} parentFrameId
 * @param {number} iframeRef
 * @param {{ url: string, path?: number[] }} source the iframe's src, and
 *   its path from the top window
 * @param {AbortSignal} signal
 * @returns {Promise<number | undefined>}
 */
export async function frameAt(tabId, parentFrameId, iframeRef, source, signal) {
  const known = places.get(tabId) ?? new Map();
  /** @type {Set<number>} frames placed at another iframe */
  const used = new Set();
  for (const [frameId, p] of known) {
    if (p.parentFrameId !== parentFrameId) continue;
    if (p.iframeRef === iframeRef) return frameId;
    used.add(frameId);
  }
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const f = await matchFrame(tabId, frames, parentFrameId, source, used, signal);
  if (!f) return undefined;
  known.set(f.frameId, { parentFrameId, iframeRef });
  places.set(tabId, known);
  return f.frameId;
}

/** The most cross-origin frames a search goes into. */
const MAX_SEARCHED_FRAMES = 10;

/**
 * The tab's cross-origin frames that the top frame's page script cannot
 * walk, shown ones only, each placed at its iframe (so refs found in it can
 * be acted on), parents before their children; none when the tab has no
 * frame of another origin, which costs one webNavigation call.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @returns {Promise<number[]>}
 */
export async function crossFrames(tabId, signal) {
  const all = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const byId = new Map(all.map((f) => [f.frameId, f]));
  if (!all.some((f) => f.frameId !== 0 && !sameOrigin(f.url, byId.get(f.parentFrameId)?.url ?? ''))) return [];
  /** @type {number[]} */
  const out = [];
  /** @param {number} frameId @param {number} depth */
  const visit = async (frameId, depth) => {
    if (depth > 3) return;
    const { frames } = await callHandingIn({ tabId, frameId }, 'crossFrames', {}, signal);
    for (const f of frames) {
      if (out.length >= MAX_SEARCHED_FRAMES) return;
      const child = await frameAt(tabId, frameId, f.ref, f, signal);
      if (child === undefined || out.includes(child)) continue;
      out.push(child);
      await visit(child, depth + 1).catch((err) => {
        if (signal.aborted) throw err; // a frame that cannot be read is searched no further
      });
    }
  };
  await visit(0, 0);
  return out;
}

/**
 * Where a frame's viewport sits in the tab's, in CSS pixels: 0,0 for the top
 * frame and for same-origin frames (the page script walks those from the
 * top).
 * @param {number} tabId
 * @param {number} frameId
 * @param {AbortSignal} signal
 * @returns {Promise<{ x: number, y: number }>}
 */
export async function frameOffset(tabId, frameId, signal) {
  if (frameId === 0) return { x: 0, y: 0 };
  const place = places.get(tabId)?.get(frameId);
  if (!place) {
    throw new ActionError('not_found', 'the frame of that ref is no longer on the page', 'call read_page');
  }
  const parent = await frameOffset(tabId, place.parentFrameId, signal);
  const loc = await call({ tabId, frameId: place.parentFrameId }, 'locate', { ref: place.iframeRef }, signal);
  const c = loc.data.content ?? loc.data.box;
  return { x: parent.x + c.x, y: parent.y + c.y };
}
