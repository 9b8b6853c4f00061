// @ts-check
// page.* actions, through CDP: screenshots and script evaluation.

import { ActionError, oneLine } from '../../lib/errors.js';
import {
  boolParam,
  enumParam,
  intParam,
  stringParam,
  tabIdParam,
} from '../../lib/params.js';
import * as cdp from '../cdp.js';
import { checkTab } from '../tab-group.js';

/** @typedef {import('../../lib/router.js').Action} Action */

const FORMATS = /** @type {const} */ (['png', 'jpeg']);

// Results travel to the host as one native message, at most 64 MiB of JSON.
const MAX_IMAGE_CHARS = 60 * 1024 * 1024;

/**
 * page.screenshot: the tab's viewport, or with fullPage its whole document,
 * as base64 PNG or JPEG.
 * @type {Action}
 */
export async function screenshot(params, { signal }) {
  const tabId = tabIdParam(params);
  const format = enumParam(params, 'format', FORMATS) ?? 'png';
  const quality = intParam(params, 'quality', 0, 100);
  const fullPage = boolParam(params, 'fullPage', false);
  if (quality !== undefined && format !== 'jpeg') {
    throw new ActionError('bad_request', 'quality applies to jpeg only');
  }
  await checkTab(tabId);

  /** @type {Record<string, unknown>} */
  const capture = { format };
  if (quality !== undefined) capture.quality = quality;
  if (fullPage) {
    const metrics = await cdp.send(tabId, 'Page.getLayoutMetrics', {}, { signal });
    const size = metrics.cssContentSize ?? metrics.contentSize;
    capture.captureBeyondViewport = true;
    capture.clip = {
      x: 0,
      y: 0,
      width: Math.ceil(size.width),
      height: Math.ceil(size.height),
      scale: 1,
    };
  }
  const shot = await cdp.send(tabId, 'Page.captureScreenshot', capture, { signal });
  const data = /** @type {string} */ (shot.data);
  if (data.length > MAX_IMAGE_CHARS) {
    throw new ActionError(
      'too_large',
      `the screenshot is ${Math.round(data.length / 1048576)} MiB of base64`,
      'take a jpeg with a lower quality, or without fullPage',
    );
  }
  return { data, mimeType: `image/${format}` };
}

/**
 * page.evaluate: runs expression in the page's main world (top-level await
 * works) and returns its value, awaited when it is a promise, as JSON. On
 * abort the action stops waiting at once and stops the script if it is
 * still running, so a busy loop does not outlive its command.
 * @type {Action}
 */
export async function evaluate(params, { signal, id }) {
  const tabId = tabIdParam(params);
  const expression = stringParam(params, 'expression');
  if (!expression) {
    throw new ActionError('bad_request', 'expression must be a non-empty string');
  }
  await checkTab(tabId);

  const release = await cdp.holdDebugger(tabId, { signal });
  // Our own group, so that a release cannot free a concurrent call's objects.
  const objectGroup = `openchrome-${id}`;
  let stopping = false;
  try {
    // replMode evaluates like the DevTools console: top-level await and
    // declarations work, and awaitPromise awaits the whole evaluation; a
    // promise the expression yields comes back unawaited, so by reference,
    // to be awaited below.
    const res = await cdp.send(tabId, 'Runtime.evaluate', {
      expression,
      objectGroup,
      replMode: true,
      awaitPromise: true,
      returnByValue: false,
      userGesture: true,
    }, { signal });
    return await valueOf(tabId, res, signal);
  } catch (err) {
    if (signal.aborted) {
      stopping = true;
      cdp.interrupt(tabId).catch(() => {}).finally(release);
    }
    throw err;
  } finally {
    if (!stopping) release();
    cdp.send(tabId, 'Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
  }
}

/**
 * Returns an evaluation's result as page.evaluate's data: a promise is
 * awaited, an object fetched by value.
 * @param {number} tabId
 * @param {any} res a CDP EvaluateResult
 * @param {AbortSignal} signal
 * @returns {Promise<{ value?: unknown, type: string }>}
 */
async function valueOf(tabId, res, signal) {
  throwIfThrew(res);
  let result = res.result ?? {};
  try {
    if (result.subtype === 'promise') {
      res = await cdp.send(tabId, 'Runtime.awaitPromise', {
        promiseObjectId: result.objectId,
        returnByValue: true,
      }, { signal });
      throwIfThrew(res);
      result = res.result ?? {};
    } else if (result.objectId) {
      res = await cdp.send(tabId, 'Runtime.callFunctionOn', {
        objectId: result.objectId,
        functionDeclaration: 'function () { return this; }',
        returnByValue: true,
      }, { signal });
      throwIfThrew(res);
      result = res.result ?? {};
    }
  } catch (err) {
    // "Object couldn't be returned by value", "Object reference chain is too
    // long": a cycle, or something JSON cannot hold.
    const text = err instanceof Error ? err.message : '';
    if (/by value|reference chain/i.test(text)) {
      throw new ActionError(
        'bad_request',
        'the result cannot be returned as JSON',
        'return plain data, e.g. JSON.stringify(...)',
      );
    }
    throw err;
  }
  /** @type {{ value?: unknown, type: string }} */
  const out = { type: result.type ?? 'undefined' };
  if ('value' in result) {
    out.value = result.value;
  } else if (result.unserializableValue !== undefined) {
    // NaN, Infinity, -0 and bigints have no JSON form; CDP spells them out.
    out.value = result.unserializableValue;
  }
  return out;
}

/**
 * Throws the page's exception, if the script threw.
 * @param {any} res a CDP result with exceptionDetails when the script threw
 */
function throwIfThrew(res) {
  const d = res?.exceptionDetails;
  if (!d) return;
  const text = d.exception?.description ?? d.exception?.value ?? d.text ?? 'an exception';
  throw new ActionError('bad_request', `script threw: ${oneLine(String(text))}`);
}
