// @ts-check
// Elements a person can click that no role announces: a heading a script
// renames on a double click, a div made into a button. The page script
// cannot see event listeners; the DOM debugger lists those of a document's
// whole tree, and the elements with click-like listeners are handed to the
// page script (in its own world, by the context CDP reports for it), which
// gives them refs in the tree. The top document's light tree only, and the
// page's own listeners: asking the debugger to pierce shadow roots and
// frames makes Chrome's next script injection into the tab fail ("Frame
// with ID 0 was removed").

import * as cdp from './cdp.js';

/** The listeners that make an element clickable to a person. */
const CLICKS = new Set(['click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'contextmenu',
  'auxclick', 'dragstart']);
const GROUP = 'openchrome-clickables';

/** tabId -> CDP frame id -> the execution context of our world in it. @type {Map<number, Map<string, number>>} */
const worlds = new Map();
/** tabId -> the CDP id of the main frame. @type {Map<number, string>} */
const mainFrames = new Map();

cdp.onEvent('Runtime.executionContextCreated', (tabId, { context }) => {
  if (context?.origin !== `chrome-extension://${chrome.runtime.id}` || context.auxData?.isDefault) return;
  let frames = worlds.get(tabId);
  if (!frames) worlds.set(tabId, (frames = new Map()));
  frames.set(String(context.auxData?.frameId), context.id);
});
cdp.onEvent('Runtime.executionContextDestroyed', (tabId, { executionContextId }) => {
  const frames = worlds.get(tabId);
  for (const [frame, id] of frames ?? []) if (id === executionContextId) frames?.delete(frame);
});
cdp.onEvent('Runtime.executionContextsCleared', (tabId) => worlds.delete(tabId));
cdp.onEvent('Page.frameNavigated', (tabId, { frame }) => {
  if (frame && !frame.parentId) mainFrames.set(tabId, frame.id);
});
cdp.onEvent('detached', (tabId) => {
  worlds.delete(tabId);
  mainFrames.delete(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  worlds.delete(tabId);
  mainFrames.delete(tabId);
});

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
  const contextId = main === undefined ? undefined : worlds.get(tabId)?.get(main);
  if (contextId === undefined) return -1;
  try {
    const fresh = await cdp.send(tabId, 'Runtime.evaluate',
      { expression: 'globalThis.__openchrome?.tree?.marksFresh?.() === true', contextId, returnByValue: true }, { signal });
    if (fresh.result?.value === true) return 0; // nothing added or removed since
    // The page's document: without pierce the debugger reports the
    // listeners of the object's own world, and the page's are in its main.
    const doc = await cdp.send(tabId, 'Runtime.evaluate', { expression: 'document', objectGroup: GROUP }, { signal });
    if (!doc.result?.objectId) return -1;
    const { listeners } = await cdp.send(tabId, 'DOMDebugger.getEventListeners',
      { objectId: doc.result.objectId, depth: -1, pierce: false }, { signal });
    const ids = [...new Set((listeners ?? [])
      .filter((/** @type {any} */ l) => CLICKS.has(l.type) && l.backendNodeId)
      .map((/** @type {any} */ l) => /** @type {number} */ (l.backendNodeId)))];
    if (!ids.length) return 0;
    const nodes = await Promise.all(ids.map((backendNodeId) =>
      cdp.send(tabId, 'DOM.resolveNode', { backendNodeId, executionContextId: contextId, objectGroup: GROUP }, { signal })
        .catch(() => undefined)));
    const args = nodes.flatMap((n) => (n?.object?.objectId ? [{ objectId: n.object.objectId }] : []));
    const res = await cdp.send(tabId, 'Runtime.callFunctionOn', {
      executionContextId: contextId,
      functionDeclaration: 'function (...els) { return globalThis.__openchrome?.tree?.markClickable?.(els) ?? -1; }',
      arguments: args,
      returnByValue: true,
    }, { signal });
    return typeof res.result?.value === 'number' ? res.result.value : -1;
  } finally {
    cdp.send(tabId, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
  }
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
