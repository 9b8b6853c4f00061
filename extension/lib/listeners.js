// @ts-check
// What the debugger's list of a document's event listeners says a person
// can do with its elements (sw/clickables.js asks, the page script marks):
// which elements a click, a double click or a right click reaches, which
// open as the pointer comes over them, and which are a framework's root,
// listening for their whole tree.

/** The listeners that make an element clickable to a person. */
export const CLICKS = new Set(['click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'contextmenu',
  'auxclick', 'dragstart']);

/**
 * The listeners that make an element one a person acts on by pointing at
 * it: a menu that opens as the pointer comes over it (jQuery's hover()
 * listens for mouseover). An element's own only: a document that listens
 * for them (a tooltip library's) says nothing of what is below it.
 */
export const HOVERS = new Set(['mouseenter', 'mouseover', 'pointerenter', 'pointerover']);

/**
 * How many kinds of event an element listens for when a framework hears
 * all of its tree's there (React's root listens for some eighty): more
 * than any widget of its own asks for (a map or a canvas editor, twenty).
 */
export const ROOT_TYPES = 40;

/**
 * A listener as DOMDebugger.getEventListeners reports it.
 * @typedef {{ type: string, backendNodeId?: number }} Listener
 */

/**
 * Sorts a document's listeners by what they make of their elements:
 * clicks, the elements a click reaches (in the order first listed);
 * gestures[i], the gesture clicks[i] answers (gestureOf); roots, the
 * elements that listen for every kind of event of their tree; hovers, the
 * elements that listen for the pointer coming over them. A root is in
 * neither list: it is nothing to click itself.
 * @param {Listener[]} listeners
 * @returns {{ clicks: number[], gestures: string[], roots: number[], hovers: number[] }}
 */
export function classify(listeners) {
  /** @type {Map<number, Set<string>>} the event types each element listens for */
  const types = new Map();
  for (const l of listeners) {
    if (!l.backendNodeId) continue;
    const t = types.get(l.backendNodeId) ?? new Set();
    t.add(l.type);
    types.set(l.backendNodeId, t);
  }
  const roots = [...types].filter(([, t]) => t.size >= ROOT_TYPES).map(([id]) => id);
  const on = (/** @type {Set<string>} */ kinds) =>
    [...types].filter(([id, t]) => !roots.includes(id) && [...t].some((type) => kinds.has(type))).map(([id]) => id);
  const clicks = on(CLICKS);
  return {
    clicks,
    gestures: clicks.map((id) => gestureOf(types.get(id) ?? new Set())),
    roots,
    hovers: on(HOVERS),
  };
}

/**
 * The one gesture an element answers when a plain click reaches none of
 * its listeners: 'double_click' (a title renamed in place), 'right_click'
 * (a menu of the page's own), or '' for a click.
 * @param {Set<string>} types the event types it listens for
 */
export function gestureOf(types) {
  const clicks = [...types].filter((t) => CLICKS.has(t));
  if (clicks.length && clicks.every((t) => t === 'dblclick')) return 'double_click';
  if (clicks.length && clicks.every((t) => t === 'contextmenu')) return 'right_click';
  return '';
}
