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
// that listens is handed over too: a framework that delegates (React's root,
// jQuery's document) hears the clicks of elements that have no listener of
// their own, and the page script then marks those the page gives a hand
// cursor. A cross-origin frame's page script is marked the same way, in its
// own worlds: through the tab's session when the frame shares the page's
// process, through a child session (Target.setAutoAttach, flat) when it is
// out of it.

import * as cdp from './cdp.js';

/**
 * The open shadow roots of a document, evaluated in its page's own world:
 * the parts of its tree a listener query without pierce does not reach.
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
 * The shadow roots the page's world cannot walk to, evaluated in our world,
 * which can (chrome.dom): closed ones, and any inside them.
 */
const HIDDEN_ROOTS = `(() => {
  // The page script's, where it is (a same-origin frame's may have none).
  const shadowOf = globalThis.__openchrome?.roles?.shadowOf ?? ((el) => chrome.dom.openOrClosedShadowRoot(el));
  const roots = [];
  const walk = (root, hidden) => {
    for (const el of root.querySelectorAll('*')) {
      const s = shadowOf(el);
      if (!s) continue;
      const h = hidden || !el.shadowRoot;
      if (h) roots.push(s);
      walk(s, h);
    }
  };
  walk(document, false);
  return roots;
})()`;

/** The listeners that make an element clickable to a person. */
const CLICKS = new Set(['click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'contextmenu',
  'auxclick', 'dragstart']);
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
  cdp.send(tabId, 'Runtime.enable', {}, { sessionId }).catch(() => {});
  cdp.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH, { sessionId }).catch(() => {});
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
 * listeners, and the document when it or its window listens.
 * @param {number} tabId
 * @param {FrameWorld} w
 * @param {AbortSignal} signal
 * @returns {Promise<number>} as mark
 */
async function markWorld(tabId, w, signal) {
  const opts = { signal, sessionId: w.sessionId };
  try {
    const fresh = await cdp.send(tabId, 'Runtime.evaluate',
      { expression: 'globalThis.__openchrome?.tree?.marksFresh?.() === true', contextId: w.ours, returnByValue: true }, opts);
    if (fresh.result?.value === true) return 0; // nothing added or removed since
    // The page's document: without pierce the debugger reports the
    // listeners of the object's own world, and the page's are in its main.
    const doc = await cdp.send(tabId, 'Runtime.evaluate', { expression: 'document', contextId: w.page, objectGroup: GROUP }, opts);
    if (!doc.result?.objectId) return -1;
    const docs = [{ objectId: doc.result.objectId, contextId: w.page, ours: w.ours },
      ...(w.main ? await frameDocuments(tabId, w.main, signal) : [])];
    const roots = [...docs.map((d) => d.objectId), ...(await Promise.all(docs.flatMap((d) => [
      shadowRoots(tabId, d.contextId, opts).catch(() => []),
      hiddenRoots(tabId, d, opts).catch(() => []),
    ]))).flat()];
    const [found, windows] = await Promise.all([
      Promise.all(roots.map((objectId) => listenersOf(tabId, objectId, -1, opts))),
      // A window's listeners (jQuery's, a framework's) hear every click of its document.
      Promise.all(docs.map((d) => windowHears(tabId, d, opts))),
    ]);
    const ids = [...new Set([
      ...found.flat().filter((l) => CLICKS.has(l.type) && l.backendNodeId).map((l) => /** @type {number} */ (l.backendNodeId)),
      ...windows.flatMap((id) => (id ? [id] : [])),
    ])];
    if (!ids.length) return 0;
    const nodes = await Promise.all(ids.map((backendNodeId) =>
      cdp.send(tabId, 'DOM.resolveNode', { backendNodeId, executionContextId: w.ours, objectGroup: GROUP }, opts)
        .catch(() => undefined)));
    const args = nodes.flatMap((n) => (n?.object?.objectId ? [{ objectId: n.object.objectId }] : []));
    const res = await cdp.send(tabId, 'Runtime.callFunctionOn', {
      executionContextId: w.ours,
      functionDeclaration: 'function (...els) { return globalThis.__openchrome?.tree?.markClickable?.(els) ?? -1; }',
      arguments: args,
      returnByValue: true,
    }, opts);
    return typeof res.result?.value === 'number' ? res.result.value : -1;
  } finally {
    cdp.send(tabId, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }, { sessionId: w.sessionId }).catch(() => {});
  }
}

/**
 * Has the tab's out-of-process frames attach as child sessions, once a
 * session: their listeners are out of the tab's own session's reach.
 * @param {number} tabId
 * @param {AbortSignal} signal
 */
async function autoAttach(tabId, signal) {
  if (autoAttached.has(tabId)) return;
  autoAttached.add(tabId);
  await cdp.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH, { signal })
    .catch(() => autoAttached.delete(tabId));
}

/**
 * The object ids of a document's open shadow roots (none on most pages: one
 * evaluation, no more).
 * @param {number} tabId
 * @param {number | undefined} contextId the document's page world; the top one's if undefined
 * @param {Session} opts
 * @returns {Promise<string[]>}
 */
function shadowRoots(tabId, contextId, opts) {
  return objectsOf(tabId, SHADOW_ROOTS, contextId, opts);
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
 * The object ids, in the page's world, of a document's shadow roots that
 * world cannot walk to (closed ones: a person clicks in them all the same),
 * found in our world and handed across by their nodes.
 * @param {number} tabId
 * @param {{ contextId: number | undefined, ours: number | undefined }} doc the document's page world and ours
 * @param {Session} opts
 * @returns {Promise<string[]>}
 */
async function hiddenRoots(tabId, { contextId, ours }, opts) {
  if (ours === undefined) return [];
  const found = await objectsOf(tabId, HIDDEN_ROOTS, ours, opts);
  const ids = await Promise.all(found.map(async (objectId) => {
    const { node } = await cdp.send(tabId, 'DOM.describeNode', { objectId }, opts);
    const { object } = await cdp.send(tabId, 'DOM.resolveNode',
      { backendNodeId: node?.backendNodeId, executionContextId: contextId, objectGroup: GROUP }, opts);
    return object?.objectId ? [/** @type {string} */ (object.objectId)] : [];
  }).map((p) => p.catch(() => [])));
  return ids.flat();
}

/**
 * The documents of the tab's other frames of the top document's origin,
 * each in its page's own world, where its listeners are: the page script
 * walks those in place. A cross-origin frame's elements are out of the top
 * world's reach.
 * @param {number} tabId
 * @param {string} main the main frame's CDP id
 * @param {AbortSignal} signal
 * @returns {Promise<Array<{ objectId: string, contextId: number, ours: number | undefined }>>}
 */
async function frameDocuments(tabId, main, signal) {
  const pages = pageWorlds.get(tabId);
  const origin = pages?.get(main)?.origin;
  const frames = [...(pages ?? [])].filter(([frame, c]) => frame !== main && c.origin === origin);
  const docs = await Promise.all(frames.map(async ([frame, { id: contextId }]) => {
    const doc = await cdp.send(tabId, 'Runtime.evaluate', { expression: 'document', contextId, objectGroup: GROUP }, { signal })
      .catch(() => undefined);
    const objectId = doc?.result?.objectId;
    return objectId ? [{ objectId, contextId, ours: worlds.get(tabId)?.get(frame) }] : [];
  }));
  return docs.flat();
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
 * The backend node id of doc when its window listens for clicks, which the
 * page script then counts as its document's.
 * @param {number} tabId
 * @param {{ objectId: string, contextId: number | undefined }} doc
 * @param {Session} opts
 * @returns {Promise<number | undefined>}
 */
async function windowHears(tabId, doc, opts) {
  const win = await cdp.send(tabId, 'Runtime.evaluate', { expression: 'window', contextId: doc.contextId, objectGroup: GROUP },
    opts).catch(() => undefined);
  if (!win?.result?.objectId) return undefined;
  const listeners = await listenersOf(tabId, win.result.objectId, 0, opts);
  if (!listeners.some((l) => CLICKS.has(l.type))) return undefined;
  const node = await cdp.send(tabId, 'DOM.describeNode', { objectId: doc.objectId }, opts).catch(() => undefined);
  return node?.node?.backendNodeId;
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
