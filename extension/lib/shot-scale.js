// @ts-check
// How far a screenshot is shrunk to be an image a model can read.

/**
 * The longest side an image may have for the models that read it: Claude's
 * API refuses a request with an image larger than 8000 px either way, and a
 * client that sent one may refuse every request after it.
 */
export const MAX_SIDE_PX = 8000;

/**
 * Below this scale a picture of a page is too small to read: a screenshot
 * that would need more is refused, with the parts to take instead.
 */
export const MIN_SCALE = 0.5;

/**
 * The scale (at most 1) that brings an image of width by height pixels
 * within MAX_SIDE_PX, to three decimals, rounded down.
 * @param {number} width
 * @param {number} height
 */
export function shotScale(width, height) {
  const longest = Math.max(width, height);
  if (!(longest > MAX_SIDE_PX)) return 1;
  return Math.floor((MAX_SIDE_PX / longest) * 1000) / 1000;
}

/**
 * The ratio of device to CSS pixels, from CDP's Page.getLayoutMetrics:
 * visualViewport is in device pixels, cssVisualViewport in CSS pixels.
 * @param {{ visualViewport?: { clientWidth: number }, cssVisualViewport?: { clientWidth: number } }} metrics
 */
export function devicePixelRatio(metrics) {
  const device = metrics.visualViewport?.clientWidth;
  const css = metrics.cssVisualViewport?.clientWidth;
  return device && css ? device / css : 1;
}
