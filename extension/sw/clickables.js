// @ts-check
// Elements a person can click that no role announces: a heading a script
// renames on a double click, a div made into a button. The page script
// cannot see event listeners; the DOM debugger lists those of a document's
// whole tree, and the elements with click-like listeners are handed to the
// page script (in its own world, by the context CDP reports for it), which
// gives them refs in the tree. The debugger is asked for each document and
// each shadow root one by one, each in its page's own world (it reports
// only the listeners of the world it is asked in; a closed root is found in
// ours, which may open it, and handed over by its node): asking it to pierce
// shadow roots and frames itself makes Chrome's next script injection into
// the tab fail ("Frame with ID 0 was removed"). A document, or a window,
// that listens is handed over too, and so is an element that listens for
// so many kinds of event that a framework hears its whole tree there
// (React's root): a framework that delegates (React, jQuery's document)
// hears the clicks of elements that have no listener of their own, and the
// page script then marks those the page gives a hand cursor. Such a root is
// not itself something to click. A cross-origin frame's page script is
// marked the same way, in its own worlds: through the tab's session when
// the frame shares the page's process, through a child session
// (Target.setAutoAttach, flat) when it is out of it.

import * as cdp from './cdp.js';
import { CLICKS, classify } from '../lib/listeners.js';

/**
 * The open shadow roots of a document, evaluated in its page's own world:
 * the parts of its tree a listener query without pierce does not reach.
 * Asked only when the roots pass found some.
 */
const SHADOW_ROOTS = `(() => {
  const roots = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { roots.push(el.shadowRoot); walk(el.shadowRoot); }
  };
  walk(document);
  return roots;
})()`;

/**
 * The roots pass, evaluated in our world, which sees every shadow root
 * (chrome.dom): [n, ...hidden], where n counts the open roots the page's
 * world reaches and hidden are those it cannot (closed ones, and any inside
 * them). With fresh, null instead when the page script's marks still stand.
 * The page script keeps what it finds for the read that follows, which
 * asks the same of every element.
 * @param {boolean} fresh
 */
const rootsPass = (fresh) => `(() => {
  const oc = globalThis.__openchrome;
  ${fresh ? 'if (oc?.tree?.marksFresh?.() === true) return null;' : ''}
  oc?.roles?.keepShadows?.();
  // The page script's, where it is (a same-origin frame's may have none).
  const shadowOf = oc?.roles?.shadowOf ?? ((el) => chrome.dom.openOrClosedShadowRoot(el));
  const found = [0];
  const walk = (root, hidden) => {
    for (const el of root.querySelectorAll('*')) {
      const s = shadowOf(el);
      if (!s) continue;
      const h = hidden || !el.shadowRoot;
      if (h) found.push(s);
      else found[0]++;
      walk(s, h);
    }
  };
  walk(document, false);
  return found;
})()`;

/** The most elements of a frame that listen for the pointer and are marked. */
const HOVERS_MAX = 40;
const GROUP = 'openchrome-clickables';

/** tabId -> CDP frame id -> the execution context of our world in it. @type {Map<number, Map<string, number>>} */
const worlds = new Map();
/** tabId -> CDP frame id -> the page's own (main world) context in it, and its origin. @type {Map<number, Map<string, { id: number, origin: string }>>} */
const pageWorlds = new Map();
/** tabId -> the CDP id of the main frame. @type {Map<number, string>} */
const mainFrames = new Map();
/**
 * tabId -> child session -> an out-of-process frame: its CDP id (its
 * target's), and the page's and our world in it once reported.
 * @type {Map<number, Map<string, { frame: string, page?: number, ours?: number }>>}
 */
const children = new Map();
/** Tabs whose out-of-process frames attach as child sessions. @type {Set<number>} */
const autoAttached = new Set();
/** Out-of-process frames attach as flat child sessions, running on. */
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true };

cdp.onEvent('Runtime.executionContextCreated', (tabId, { context }) => {
  const frame = String(context?.auxData?.frameId);
  if (context?.auxData?.isDefault) {
    let frames = pageWorlds.get(tabId);
    if (!frames) pageWorlds.set(tabId, (frames = new Map()));
    frames.set(frame, { id: context.id, origin: context.origin });
  } else if (context?.origin === ourOrigin()) {
    let frames = worlds.get(tabId);
    if (!frames) worlds.set(tabId, (frames = new Map()));
    frames.set(frame, context.id);
  }
});
cdp.onEvent('Runtime.executionContextDestroyed', (tabId, { executionContextId }) => {
  const ours = worlds.get(tabId);
  for (const [frame, id] of ours ?? []) if (id === executionContextId) ours?.delete(frame);
  const pages = pageWorlds.get(tabId);
  for (const [frame, c] of pages ?? []) if (c.id === executionContextId) pages?.delete(frame);
});
cdp.onEvent('Runtime.executionContextsCleared', (tabId) => {
  worlds.delete(tabId);
  pageWorlds.delete(tabId);
});
cdp.onEvent('Page.frameNavigated', (tabId, { frame }) => {
  if (frame && !frame.parentId) mainFrames.set(tabId, frame.id);
});
/**
 * An out-of-process frame attached, to the tab's session or, nested, to
 * another frame's.
 * @param {number} tabId
 * @param {{ sessionId?: string, targetInfo?: { type?: string, targetId?: string } }} params
 */
function frameAttached(tabId, { sessionId, targetInfo }) {
  if (targetInfo?.type !== 'iframe' || !sessionId) return;
  let sessions = children.get(tabId);
  if (!sessions) children.set(tabId, (sessions = new Map()));
  sessions.set(sessionId, { frame: String(targetInfo.targetId) });
  // Its contexts are reported from now on, and those it has at once; its
  // own out-of-process frames attach to it in turn.
  cdp.sendInSession(tabId, 'Runtime.enable', {}, { sessionId }).catch(() => {});
  cdp.sendInSession(tabId, 'Target.setAutoAttach', AUTO_ATTACH, { sessionId }).catch(() => {});
}
cdp.onEvent('Target.attachedToTarget', frameAttached);
cdp.onChildEvent('Target.attachedToTarget', frameAttached);
cdp.onEvent('Target.detachedFromTarget', (tabId, { sessionId }) => children.get(tabId)?.delete(sessionId));
cdp.onChildEvent('Target.detachedFromTarget', (tabId, { sessionId }) => children.get(tabId)?.delete(sessionId));
cdp.onChildEvent('Runtime.executionContextCreated', (tabId, { context }, sessionId) => {
  const child = children.get(tabId)?.get(sessionId);
  if (!child || String(context?.auxData?.frameId) !== child.frame) return;
  if (context.auxData.isDefault) child.page = context.id;
  else if (context.origin === ourOrigin()) child.ours = context.id;
});
cdp.onChildEvent('Runtime.executionContextDestroyed', (tabId, { executionContextId }, sessionId) => {
  const child = children.get(tabId)?.get(sessionId);
  if (!child) return;
  if (child.page === executionContextId) child.page = undefined;
  if (child.ours === executionContextId) child.ours = undefined;
});
cdp.onChildEvent('Runtime.executionContextsCleared', (tabId, _, sessionId) => {
  const child = children.get(tabId)?.get(sessionId);
  if (child) child.page = child.ours = undefined;
});
cdp.onEvent('detached', (tabId) => forget(tabId));
chrome.tabs.onRemoved.addListener((tabId) => forget(tabId));

/** The origin of our isolated worlds' contexts. */
function ourOrigin() {
  return `chrome-extension://${chrome.runtime.id}`;
}

/** @param {number} tabId */
function forget(tabId) {
  worlds.delete(tabId);
  pageWorlds.delete(tabId);
  mainFrames.delete(tabId);
  children.delete(tabId);
  autoAttached.delete(tabId);
}

/**
 * Hands the page script of tabId's top document the elements with click
 * listeners. Answers how many it did not know of that no role marks as
 * clickable (the tree shows those differently now), or -1 when it cannot
 * yet: no page script in the document, or no session reporting its world.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
export async function mark(tabId, signal) {
  const main = mainFrames.get(tabId) ?? (await mainFrame(tabId, signal));
  if (main === undefined) return -1;
  const ours = worlds.get(tabId)?.get(main);
  if (ours === undefined) return -1;
  await autoAttach(tabId, signal);
  return markWorld(tabId, { page: pageWorlds.get(tabId)?.get(main)?.id, ours, main }, signal);
}

/**
 * Does for the tab's cross-origin frames what mark does for its top
 * document: those in the page's process (same site) and those out of it,
 * through their child sessions. A frame's page script must be there: the
 * first read of a frame injects it, and marks it after. Answers how many
 * elements the frames' trees now show differently.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
export async function markFrames(tabId, signal) {
  const main = mainFrames.get(tabId);
  if (main === undefined) return 0;
  const origin = pageWorlds.get(tabId)?.get(main)?.origin;
  /** @type {FrameWorld[]} */
  const frames = [];
  for (const [frame, c] of pageWorlds.get(tabId) ?? []) {
    const ours = worlds.get(tabId)?.get(frame);
    // The top's own origin's frames are walked in place, with the top.
    if (frame !== main && c.origin !== origin && ours !== undefined) frames.push({ page: c.id, ours });
  }
  for (const [sessionId, child] of children.get(tabId) ?? []) {
    if (child.page !== undefined && child.ours !== undefined) frames.push({ sessionId, page: child.page, ours: child.ours });
  }
  const counts = await Promise.all(frames.map((w) => markWorld(tabId, w, signal).catch(() => 0)));
  return counts.reduce((sum, n) => sum + Math.max(n, 0), 0);
}

/**
 * Where a command goes: the tab's session, or a frame's child session.
 * @typedef {{ signal: AbortSignal, sessionId?: string }} Session
 */

/**
 * A frame's two worlds: the page's, where its listeners are, and ours, where
 * its page script is. sessionId: the child session of an out-of-process
 * frame; main: the top frame's CDP id, whose same-origin frames it walks.
 * @typedef {{ sessionId?: string, page: number | undefined, ours: number, main?: string }} FrameWorld
 */

/**
 * Hands a frame's page script the elements of its document with click
 * listeners, and the document when it or its window listens. Round trips
 * are what it costs on most pages: the questions that do not wait on each
 * other go together.
 * @param {number} tabId
 * @param {FrameWorld} w
 * @param {AbortSignal} signal
 * @returns {Promise<number>} as mark
 */
async function markWorld(tabId, w, signal) {
  const opts = { signal, sessionId: w.sessionId };
  try {
    const top = await documentIn(tabId, w.page, w.ours, true, opts);
    if (top === 'fresh') return 0; // nothing added or removed since
    if (!top) return -1;
    const docs = [top, ...(w.main ? await frameDocuments(tabId, w.main, opts) : [])];
    const found = await Promise.all(docs.map((d) => listenersIn(tabId, d, opts)));
    /** @type {Map<number, string>} what listens for clicks, and the gesture it answers */
    const listening = new Map();
    for (const f of found) f.clicks.forEach((id, i) => listening.set(id, f.gestures[i] ?? ''));
    const ids = [...listening.keys()];
    const roots = [...new Set(found.flatMap((f) => f.roots))];
    const hovering = [...new Set(found.flatMap((f) => f.hovers))].filter((id) => !ids.includes(id));
    // A page's menus open from a few elements; many that listen (every cell
    // of a table that lights up under the pointer) are decoration.
    const hovers = hovering.length <= HOVERS_MAX ? hovering : [];
    if (!ids.length && !roots.length && !hovers.length) return 0;
    /** Each node's object in our world, or undefined when it is gone. */
    const resolve = (/** @type {number[]} */ list) => Promise.all(list.map((backendNodeId) =>
      cdp.send(tabId, 'DOM.resolveNode', { backendNodeId, executionContextId: w.ours, objectGroup: GROUP }, opts)
        .then((n) => (n?.object?.objectId ? { objectId: /** @type {string} */ (n.object.objectId) } : undefined), () => undefined)));
    const present = (/** @type {Array<{ objectId: string } | undefined>} */ objects) => objects.flatMap((o) => (o ? [o] : []));
    const [rootObjects, objects, hoverObjects] = await Promise.all([resolve(roots), resolve(ids), resolve(hovers)]);
    const [rootArgs, args, hoverArgs] = [present(rootObjects), present(objects), present(hoverObjects)];
    const gestures = ids.flatMap((id, i) => (objects[i] ? [listening.get(id) ?? ''] : []));
    const res = await cdp.send(tabId, 'Runtime.callFunctionOn', {
      executionContextId: w.ours,
      functionDeclaration: 'function (gestures, n, m, ...els) { return globalThis.__openchrome?.tree?.markClickable?.(els.slice(n, n + m), els.slice(0, n), els.slice(n + m), gestures) ?? -1; }',
      arguments: [{ value: gestures }, { value: rootArgs.length }, { value: args.length }, ...rootArgs, ...args, ...hoverArgs],
      returnByValue: true,
    }, opts);
    return typeof res.result?.value === 'number' ? res.result.value : -1;
  } finally {
    cdp.undo(tabId, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }, { sessionId: w.sessionId });
  }
}

/**
 * A document to ask the debugger of: its object and its window's in the
 * page's world, where their listeners are (without pierce the debugger
 * reports those of the object's own world), and what the roots pass found
 * in ours.
 * @typedef {{ contextId: number | undefined, ours: number | undefined, doc: string, win?: string, roots?: string }} Scanned
 */

/**
 * The document of a frame's two worlds, asked together; 'fresh' when fresh
 * and the page script's marks still stand, undefined when the page's world
 * has no document to give.
 * @param {number} tabId
 * @param {number | undefined} contextId the page's world
 * @param {number | undefined} ours
 * @param {boolean} fresh
 * @param {Session} opts
 * @returns {Promise<Scanned | 'fresh' | undefined>}
 */
async function documentIn(tabId, contextId, ours, fresh, opts) {
  const evaluate = (/** @type {string} */ expression, /** @type {number | undefined} */ ctx) =>
    cdp.send(tabId, 'Runtime.evaluate', { expression, contextId: ctx, objectGroup: GROUP }, opts).catch(() => undefined);
  const [roots, doc, win] = await Promise.all([
    ours === undefined ? undefined : evaluate(rootsPass(fresh), ours),
    evaluate('document', contextId),
    evaluate('window', contextId),
  ]);
  if (fresh && roots?.result?.subtype === 'null') return 'fresh';
  if (!doc?.result?.objectId) return undefined;
  return { contextId, ours, doc: doc.result.objectId, win: win?.result?.objectId, roots: roots?.result?.objectId };
}

/**
 * The backend node ids of what listens for clicks in a document (clicks):
 * its elements, those in its shadow roots, and the document itself when
 * its window listens (a framework's, jQuery's: they hear every click of
 * it); and of the elements a framework listens for every event on (roots:
 * React's root, which hears its tree's clicks as a document does); and of
 * the elements that listen for the pointer coming over them (hovers).
 * gestures[i]: the gesture clicks[i] answers (gestureOf).
 * @param {number} tabId
 * @param {Scanned} d
 * @param {Session} opts
 * @returns {Promise<{ clicks: number[], gestures: string[], roots: number[], hovers: number[] }>}
 */
async function listenersIn(tabId, d, opts) {
  const [own, win, shadows] = await Promise.all([
    listenersOf(tabId, d.doc, -1, opts),
    windowHears(tabId, d, opts),
    shadowRootsOf(tabId, d, opts),
  ]);
  const inShadows = await Promise.all(shadows.map((objectId) => listenersOf(tabId, objectId, -1, opts)));
  const { clicks, gestures, roots, hovers } = classify([own, ...inShadows].flat());
  // The window's clicks are its document's: gestureOf's '' for it.
  return { clicks: [...clicks, ...(win ? [win] : [])], gestures, roots, hovers };
}

/**
 * Has the tab's out-of-process frames attach as child sessions, once a
 * session: their listeners are out of the tab's own session's reach, and
 * so are their console and requests (sw/evidence.js asks as it watches).
 * @param {number} tabId
 * @param {AbortSignal} [signal]
 */
export async function autoAttach(tabId, signal) {
  if (autoAttached.has(tabId)) return;
  autoAttached.add(tabId);
  await cdp.sendInSession(tabId, 'Target.setAutoAttach', AUTO_ATTACH, { signal })
    .catch(() => autoAttached.delete(tabId));
}

/**
 * The object ids, in the page's world, of a document's shadow roots (none
 * on most pages, and then no question more): the open ones as that world
 * lists them, and those it cannot walk to (closed ones: a person clicks in
 * them all the same) handed across by their nodes from ours.
 * @param {number} tabId
 * @param {Scanned} d
 * @param {Session} opts
 * @returns {Promise<string[]>}
 */
async function shadowRootsOf(tabId, d, opts) {
  if (!d.roots) return [];
  const { result } = await cdp.send(tabId, 'Runtime.getProperties', { objectId: d.roots, ownProperties: true }, opts)
    .catch(() => ({ result: [] }));
  /** @type {any[]} */
  const items = (result ?? []).filter((/** @type {any} */ p) => /^\d+$/.test(p.name));
  const open = items.find((p) => p.name === '0')?.value?.value ?? 0;
  const hidden = items.flatMap((p) => (p.name !== '0' && p.value?.objectId ? [/** @type {string} */ (p.value.objectId)] : []));
  const [listed, handed] = await Promise.all([
    open > 0 ? objectsOf(tabId, SHADOW_ROOTS, d.contextId, opts).catch(() => []) : [],
    Promise.all(hidden.map(async (objectId) => {
      const { node } = await cdp.send(tabId, 'DOM.describeNode', { objectId }, opts);
      const { object } = await cdp.send(tabId, 'DOM.resolveNode',
        { backendNodeId: node?.backendNodeId, executionContextId: d.contextId, objectGroup: GROUP }, opts);
      return object?.objectId ? [/** @type {string} */ (object.objectId)] : [];
    }).map((p) => p.catch(() => []))),
  ]);
  return [...listed, ...handed.flat()];
}

/**
 * The object ids of the items of the array expression evaluates to in
 * contextId.
 * @param {number} tabId
 * @param {string} expression
 * @param {number | undefined} contextId
 * @param {Session} opts
 * @returns {Promise<string[]>}
 */
async function objectsOf(tabId, expression, contextId, opts) {
  const list = await cdp.send(tabId, 'Runtime.evaluate', { expression, contextId, objectGroup: GROUP }, opts);
  const id = list.result?.objectId;
  if (!id || list.result?.description === 'Array(0)') return [];
  const { result } = await cdp.send(tabId, 'Runtime.getProperties', { objectId: id, ownProperties: true }, opts);
  return (result ?? []).flatMap((/** @type {any} */ p) =>
    (/^\d+$/.test(p.name) && p.value?.objectId ? [/** @type {string} */ (p.value.objectId)] : []));
}

/**
 * The documents of the tab's other frames of the top document's origin:
 * the page script walks those in place. A cross-origin frame's elements
 * are out of the top world's reach.
 * @param {number} tabId
 * @param {string} main the main frame's CDP id
 * @param {Session} opts
 * @returns {Promise<Scanned[]>}
 */
async function frameDocuments(tabId, main, opts) {
  const pages = pageWorlds.get(tabId);
  const origin = pages?.get(main)?.origin;
  const frames = [...(pages ?? [])].filter(([frame, c]) => frame !== main && c.origin === origin);
  const docs = await Promise.all(frames.map(([frame, { id }]) => documentIn(tabId, id, worlds.get(tabId)?.get(frame), false, opts)));
  return docs.flatMap((d) => (d && d !== 'fresh' ? [d] : []));
}

/**
 * The listeners on an object of the page's world and, to depth, below it.
 * @param {number} tabId
 * @param {string} objectId
 * @param {number} depth
 * @param {Session} opts
 * @returns {Promise<Array<{ type: string, backendNodeId?: number }>>}
 */
function listenersOf(tabId, objectId, depth, opts) {
  return cdp.send(tabId, 'DOMDebugger.getEventListeners', { objectId, depth, pierce: false }, opts)
    .then((r) => r.listeners ?? [], () => []);
}

/**
 * The backend node id of d's document when its window listens for clicks,
 * which the page script then counts as its document's.
 * @param {number} tabId
 * @param {Scanned} d
 * @param {Session} opts
 * @returns {Promise<number | undefined>}
 */
async function windowHears(tabId, d, opts) {
  if (!d.win) return undefined;
  const [listeners, node] = await Promise.all([
    listenersOf(tabId, d.win, 0, opts),
    cdp.send(tabId, 'DOM.describeNode', { objectId: d.doc }, opts).catch(() => undefined),
  ]);
  return listeners.some((l) => CLICKS.has(l.type)) ? node?.node?.backendNodeId : undefined;
}

/**
 * The CDP id of tabId's main frame, asked when no navigation said it.
 * @param {number} tabId
 * @param {AbortSignal} signal
 * @returns {Promise<string | undefined>}
 */
async function mainFrame(tabId, signal) {
  const tree = await cdp.send(tabId, 'Page.getFrameTree', {}, { signal }).catch(() => undefined);
  const id = tree?.frameTree?.frame?.id;
  if (id) mainFrames.set(tabId, id);
  return id;
}
