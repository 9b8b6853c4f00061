// @ts-check
// The pure parts of element.act: which actions it takes, and how it reads
// the page script's locate and watch reports (what an element is called,
// the one line that says what changed).

/**
 * element.act's actions, in the order of host/engine/interact.go's
 * interactActions; lib/act.test.js checks both against
 * protocol/testdata/interact-actions.json.
 */
export const ACT_ACTIONS = /** @type {const} */ ([
  'click', 'double_click', 'right_click', 'drag', 'hover', 'focus', 'type', 'fill', 'clear', 'select',
  'check', 'uncheck', 'press', 'scroll', 'scroll_into_view', 'accept_dialog', 'dismiss_dialog',
]);

/** @typedef {typeof ACT_ACTIONS[number]} ActAction */

/** Where scroll turns the wheel. */
export const DIRECTIONS = /** @type {const} */ (['up', 'down', 'left', 'right']);

/**
 * @typedef {{ x: number, y: number, width: number, height: number }} Box
 */

/**
 * role "name", for results and errors.
 * @param {{ role?: string, tag?: string, name?: string }} loc a locate report
 * @returns {string}
 */
export function describeTarget(loc) {
  const role = loc.role || loc.tag || '';
  return loc.name ? `${role} "${loc.name}"` : role;
}

/**
 * A short line saying what changed on the page, and the downloads the
 * action started.
 * @param {Record<string, any>} r a watch report
 * @param {Array<{ name: string }>} [downloads]
 * @returns {string}
 */
export function summarize(r, downloads = []) {
  const parts = downloads.map((d) => `download started: ${d.name}`);
  if (r.dialogs?.length) parts.push(`dialog opened: ${r.dialogs.join(', ')}`);
  if (r.added) parts.push(`${r.added} element${r.added === 1 ? '' : 's'} added`);
  if (r.removed) parts.push(`${r.removed} removed`);
  if (r.shown && !r.added) parts.push(`${r.shown} element${r.shown === 1 ? '' : 's'} shown`);
  if (r.hidden && !r.removed) parts.push(`${r.hidden} hidden`);
  if (r.texts && !r.added && !r.removed) parts.push('text changed');
  if (r.attributes && !r.added && !r.removed) parts.push('attributes changed');
  if (r.urlChanged) parts.push('URL changed (same document)');
  if (r.titleChanged) parts.push('title changed');
  if (r.elementGone) parts.push('the element itself is gone');
  if (r.frameGone) parts.push('the frame it was in is gone');
  return parts.length ? parts.join(', ') : 'no visible change';
}

/**
 * A value as fill compares it: line endings and outer white space aside.
 * @param {unknown} v
 */
export function normalize(v) {
  return typeof v === 'string' ? v.replace(/\r\n/g, '\n').trim() : v;
}

/**
 * Whether fill's text for a checkbox or radio means checked.
 * @param {string} s
 */
export function truthy(s) {
  return !/^(false|no|off|0|unchecked|)$/i.test(s.trim());
}

/**
 * @param {Box} b
 * @returns {Box}
 */
export function roundBox(b) {
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

/**
 * The part of CDP's Page.getLayoutMetrics a page scroll reads.
 * @typedef {{ cssVisualViewport: { pageX: number, pageY: number }, cssContentSize: { height: number } }} LayoutMetrics
 */

/**
 * What a page scroll did, from the layout metrics before and after it:
 * where the view is now, and how much the page grew (a feed loading more).
 * @param {LayoutMetrics} before
 * @param {LayoutMetrics} after
 */
export function scrolled(before, after) {
  const y0 = Math.round(before.cssVisualViewport.pageY);
  const y1 = Math.round(after.cssVisualViewport.pageY);
  const x0 = Math.round(before.cssVisualViewport.pageX);
  const x1 = Math.round(after.cssVisualViewport.pageX);
  const height = Math.round(after.cssContentSize.height);
  const grew = height - Math.round(before.cssContentSize.height);
  const parts = [];
  if (y1 !== y0 || x1 !== x0) parts.push(`scrolled to ${x1 ? `x ${x1}, ` : ''}y ${y1} of a ${height} px page`);
  if (grew > 0) parts.push(`the page grew ${grew} px`);
  return parts.length ? parts.join(', ') : 'no visible change';
}
