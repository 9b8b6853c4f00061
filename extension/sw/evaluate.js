// @ts-check
// page.evaluate's evaluation through CDP: a script in the page's main world,
// its value as JSON, and a script that outlives its command stopped.

import { ActionError, oneLine } from '../lib/errors.js';
import * as cdp from './cdp.js';

/**
 * Runs expression in the tab's main world (top-level await works) and
 * returns its value, awaited when it is a promise, as JSON. On abort it
 * stops waiting at once and stops the script if it is still running, so a
 * busy loop does not outlive its command.
 * @param {number} tabId
 * @param {string} expression
 * @param {{ signal: AbortSignal, id: string }} ctx id names the command,
 *   for the evaluation's object group
 * @returns {Promise<{ value?: unknown, type: string }>}
 */
export async function evaluate(tabId, expression, { signal, id }) {
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
      cdp.interrupt(tabId).catch(() => {}).finally(() => release(true));
    }
    throw err;
  } finally {
    if (!stopping) release();
    cdp.undo(tabId, 'Runtime.releaseObjectGroup', { objectGroup });
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
        functionDeclaration: PLAIN.toString(),
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
 * Runs in the page, on the value a script returned (this), before it is sent
 * as JSON: what JSON would turn into {} says what it is instead. An element
 * is its outer HTML (clipped), a list of nodes a list of them, an error its
 * message, a date its ISO time, a Map an object, a Set an array, a function
 * its name.
 * @this {any}
 */
function PLAIN() {
  const node = (/** @type {Node} */ n) => {
    const html = n instanceof Element ? n.outerHTML : `${n.nodeName} ${n.textContent ?? ''}`;
    return html.length > 300 ? `${html.slice(0, 300)}…` : html;
  };
  if (this instanceof Node) return node(this);
  if ((this instanceof NodeList || this instanceof HTMLCollection || Array.isArray(this)) &&
      this.length > 0 && [...this].every((x) => x instanceof Node)) {
    return [...this].map(node);
  }
  if (this instanceof Error) return String(this);
  if (this instanceof Date) return Number.isNaN(this.valueOf()) ? 'Invalid Date' : this.toISOString();
  if (this instanceof Map) return Object.fromEntries(this);
  if (this instanceof Set) return [...this];
  if (typeof this === 'function') return `function ${this.name || '(anonymous)'}`;
  return this;
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
