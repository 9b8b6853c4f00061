// @ts-check
// page.*: reading a page as a whole (its tree, text, content for a crawl,
// HTML), its screenshot, script in it, and waiting for a condition. What is
// not the action itself lives beside sw/page-script.js: sw/evaluate.js,
// sw/page-html.js, sw/wait.js.

import { raceSignal } from '../../lib/abort.js';
import { ActionError } from '../../lib/errors.js';
import { boolParam, enumParam, intParam, stringParam } from '../../lib/params.js';
import { MAX_SIDE_PX, MIN_SCALE, devicePixelRatio, shotScale } from '../../lib/shot-scale.js';
import { tabAction } from '../../lib/router.js';
import * as pageScript from '../page-script.js';
import * as cdp from '../cdp.js';
import * as dialogs from '../dialogs.js';
import { evaluate as evaluateIn } from '../evaluate.js';
import { sanitizedDom } from '../page-html.js';
import { siteSecrets } from '../secrets.js';
import { showForInput } from '../tab-group.js';
import { waitFor } from '../wait.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

const FORMATS = /** @type {const} */ (['png', 'jpeg']);

// Results travel to the host as one native message, at most 64 MiB of JSON.
const MAX_IMAGE_CHARS = 60 * 1024 * 1024;

/**
 * How long the capture of a tab its window does not show is waited for:
 * Chrome draws no new frame of a hidden tab, and a capture waits for one.
 */
const HIDDEN_MS = 2000;

/**
 * page.screenshot: the tab's viewport, with fullPage its whole document,
 * with clip a rectangle of the viewport ({x, y, width, height} in CSS
 * pixels), or with ref one element, scrolled into view and clipped to its
 * box; as base64 PNG or JPEG. An image longer than MAX_SIDE_PX either way
 * is shrunk to fit (scale says how far), and refused below MIN_SCALE. A tab its window does not show is shown
 * first when the window shows another of the agent's tabs, as before input;
 * with background (a recording's frames) what a window shows never changes.
 * A tab left hidden (the person's own tab is shown) is captured if Chrome
 * still has a frame of it, and is a conflict after HIDDEN_MS if not.
 * @type {TabAction}
 */
async function screenshot(params, { tabId, signal }) {
  // Chrome draws no frame of a page a JavaScript dialog holds.
  dialogs.refuseWhileOpen(tabId);
  if (!boolParam(params, 'background', false)) await showForInput(tabId);
  const format = enumParam(params, 'format', FORMATS) ?? 'png';
  const quality = intParam(params, 'quality', 0, 100);
  const fullPage = boolParam(params, 'fullPage', false);
  if (quality !== undefined && format !== 'jpeg') {
    throw new ActionError('bad_request', 'quality applies to jpeg only');
  }
  let area = rectParam(params, 'clip');
  if ([fullPage, area !== undefined, params.ref !== undefined].filter(Boolean).length > 1) {
    throw new ActionError('bad_request', 'pass one of fullPage, clip and ref');
  }
  if (params.ref !== undefined) area = await elementBox(tabId, params.ref, signal);

  /** @type {Record<string, unknown>} */
  const shotParams = { format };
  if (quality !== undefined) shotParams.quality = quality;
  // Every picture is in CSS pixels, the ones computer's coordinates and a
  // clip are in: on a screen of 2 device pixels to one (a Mac's), Chrome
  // would draw it twice as large, and a click read off it would land twice
  // as far.
  const metrics = await cdp.send(tabId, 'Page.getLayoutMetrics', {}, { signal });
  const vp = metrics.cssVisualViewport ?? metrics.visualViewport ?? { pageX: 0, pageY: 0, clientWidth: 0, clientHeight: 0 };
  const dpr = devicePixelRatio(metrics);
  /** @type {{ x: number, y: number, width: number, height: number } | undefined} */
  let clip;
  if (fullPage) {
    const size = metrics.cssContentSize ?? metrics.contentSize;
    shotParams.captureBeyondViewport = true;
    clip = { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height) };
  } else if (area) {
    // CDP clips in document coordinates: the viewport's, plus its scroll.
    clip = { x: area.x + vp.pageX, y: area.y + vp.pageY, width: area.width, height: area.height };
  } else if (dpr !== 1) {
    clip = { x: vp.pageX, y: vp.pageY, width: vp.clientWidth, height: vp.clientHeight };
  }
  // A long page's picture is shrunk to an image a model takes, or, when
  // that would leave it unreadable, refused with the parts to take.
  const scale = clip ? shotScale(clip.width, clip.height) : 1;
  if (clip && scale < MIN_SCALE) {
    const what = fullPage ? 'the page' : params.ref !== undefined ? String(params.ref) : 'that rectangle';
    throw new ActionError('too_large',
      `${what} is ${Math.round(clip.width)}x${Math.round(clip.height)} px: an image of it would be shrunk to ` +
      `${Math.round(scale * 100)}% to keep within the ${MAX_SIDE_PX} px an image may have, too small to read`,
      'take a part of it: the ref of a smaller element, or the viewport after interact scroll (read_page reads it all)');
  }
  if (clip) shotParams.clip = { ...clip, scale: scale / dpr };
  const shot = await capture(tabId, shotParams, signal);
  const data = /** @type {string} */ (shot.data);
  if (data.length > MAX_IMAGE_CHARS) {
    throw new ActionError(
      'too_large',
      `the screenshot is ${Math.round(data.length / 1048576)} MiB of base64`,
      'take a jpeg with a lower quality, or without fullPage',
    );
  }
  return { data, mimeType: `image/${format}`, ...(scale < 1 ? { scale } : {}) };
}

/**
 * Page.captureScreenshot, bounded by HIDDEN_MS when the tab is hidden.
 * @param {number} tabId
 * @param {Record<string, unknown>} params
 * @param {AbortSignal} signal
 */
async function capture(tabId, params, signal) {
  const shooting = cdp.send(tabId, 'Page.captureScreenshot', params, { signal });
  if ((await chrome.tabs.get(tabId)).active) return shooting;
  try {
    return await raceSignal(shooting, AbortSignal.any([signal, AbortSignal.timeout(HIDDEN_MS)]));
  } catch (err) {
    if (signal.aborted) throw err;
    if (!(err instanceof DOMException && err.name === 'TimeoutError')) throw err;
    throw new ActionError('conflict', 'the tab is hidden: its window shows the person\'s own tab, and Chrome draws nothing of a hidden tab',
      'read_page reads a hidden tab; for a screenshot, ask the person to show the tab (browser_request_feedback), then try again');
  }
}

/**
 * A rectangle param: {x, y, width, height} in CSS pixels, of some size.
 * @param {Record<string, unknown>} params
 * @param {string} name
 * @returns {{ x: number, y: number, width: number, height: number } | undefined}
 */
function rectParam(params, name) {
  const r = /** @type {Record<string, unknown> | undefined} */ (params[name]);
  if (r === undefined || r === null) return undefined;
  const ok = typeof r === 'object' && ['x', 'y', 'width', 'height'].every((k) => Number.isFinite(r[k]));
  if (!ok || /** @type {number} */ (r.width) <= 0 || /** @type {number} */ (r.height) <= 0) {
    throw new ActionError('bad_request', `${name} must be {x, y, width, height} in CSS pixels, of some size`);
  }
  return { x: Number(r.x), y: Number(r.y), width: Number(r.width), height: Number(r.height) };
}

/**
 * The box of ref's element in the tab's viewport, once it is scrolled into
 * view.
 * @param {number} tabId
 * @param {unknown} ref
 * @param {AbortSignal} signal
 */
async function elementBox(tabId, ref, signal) {
  const t = await pageScript.resolve(tabId, ref);
  await pageScript.onRef(t, 'dom', { op: 'scrollIntoView' }, signal);
  const offset = await pageScript.frameOffset(tabId, t.frameId, signal);
  const loc = await pageScript.onRef(t, 'locate', {}, signal);
  if (!loc.box.width || !loc.box.height) {
    throw new ActionError('bad_request', `e${t.ref} has no size to shoot (it is hidden)`, 'read_page shows what is visible');
  }
  return { x: loc.box.x + offset.x, y: loc.box.y + offset.y, width: loc.box.width, height: loc.box.height };
}

/**
 * page.pdf: the page printed to PDF (CDP Page.printToPDF), base64.
 * @type {TabAction}
 */
async function pdf(params, { tabId, signal }) {
  dialogs.refuseWhileOpen(tabId);
  const landscape = boolParam(params, 'landscape', false);
  const printBackground = boolParam(params, 'printBackground', false);
  let out;
  try {
    out = await cdp.send(tabId, 'Page.printToPDF', { landscape, printBackground }, { signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ActionError('conflict', `the browser could not print this page (${err instanceof Error ? err.message : String(err)})`,
      'page_screenshot with fullPage shows the whole page instead');
  }
  const data = /** @type {string} */ (out.data);
  if (data.length > MAX_IMAGE_CHARS) {
    throw new ActionError('too_large', `the PDF is ${Math.round(data.length / 1048576)} MiB of base64`);
  }
  return { data, mimeType: 'application/pdf' };
}

/**
 * page.evaluate: runs expression in the page's main world and returns its
 * value as JSON (sw/evaluate.js). A dialog open on the page runs no script,
 * so the call is refused at once; one the script opens stops it until it
 * is answered, so the call says so instead of waiting out its timeout.
 * @type {TabAction}
 */
async function evaluate(params, { tabId, signal, id }) {
  const expression = stringParam(params, 'expression');
  if (!expression) {
    throw new ActionError('bad_request', 'expression must be a non-empty string');
  }
  dialogs.refuseWhileOpen(tabId);
  const next = dialogs.next(tabId);
  try {
    const ran = evaluateIn(tabId, expression, { signal, id });
    const done = await Promise.race([ran.then((value) => ({ value })), next.opened.then((dialog) => ({ dialog }))]);
    if ('dialog' in done) {
      ran.catch(() => {}); // it ends, or fails, once the dialog is answered: no one is waiting
      throw new ActionError('conflict',
        `the script opened a JavaScript dialog, ${dialogs.describe(done.dialog)}, and waits for its answer`,
        'call interact with action accept_dialog or dismiss_dialog; the rest of the script then runs');
    }
    return done.value;
  } finally {
    next.cancel();
  }
}

/**
 * page.snapshot: the tab's tree (docs/wire.md), cross-origin frames in place;
 * with secrets, and the site's secrets read after it (sw/secrets.js), for
 * the engine to mask it with.
 * @type {TabAction}
 */
async function snapshot(params, { tabId, signal }) {
  const tree = await pageScript.snapshot(tabId, signal);
  if (boolParam(params, 'secrets', false)) Object.assign(tree, await siteSecrets(tabId, tree.url));
  return tree;
}

/**
 * page.text: the main content as Markdown.
 * @type {TabAction}
 */
async function text(_params, { tabId, signal }) {
  return (await pageScript.call({ tabId, frameId: 0 }, 'text', {}, signal)).data;
}

const OUTPUTS = /** @type {const} */ (['markdown', 'text', 'links']);

/**
 * page.crawl: a page's content, as a crawl keeps it, and its links.
 * @type {TabAction}
 */
async function crawl(params, { tabId, signal }) {
  const output = enumParam(params, 'output', OUTPUTS) ?? 'markdown';
  return (await pageScript.call({ tabId, frameId: 0 }, 'crawl', { output }, signal)).data;
}

/**
 * page.dom: the top document's HTML from a sanitized copy.
 * @type {TabAction}
 */
async function dom(_params, { tabId, signal }) {
  return sanitizedDom(tabId, signal);
}

/**
 * page.wait: returns as soon as the condition holds; on timeout the error
 * says what the page showed last.
 * @type {TabAction}
 */
async function wait(params, { tabId, signal }) {
  const timeoutMs = intParam(params, 'waitMs', 0, 600000) ?? 5000;
  const cond = /** @type {Record<string, unknown>} */ (params.condition ?? {});
  return waitFor(tabId, cond, timeoutMs, signal);
}

export const ACTIONS = [
  tabAction('page.screenshot', screenshot),
  tabAction('page.pdf', pdf),
  // Its own script is what may keep the page busy: it stops it on timeout.
  tabAction('page.evaluate', evaluate, { unwatched: true }),
  tabAction('page.snapshot', snapshot),
  tabAction('page.text', text),
  tabAction('page.crawl', crawl),
  tabAction('page.dom', dom),
  tabAction('page.wait', wait),
];
