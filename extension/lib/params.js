// @ts-check
// Reading an action's params: each reader returns the value or throws
// bad_request naming the param, so actions start with a few plain lines.

import { ActionError } from './errors.js';

/**
 * @param {Record<string, unknown>} params
 * @returns {number} params.tabId, an integer
 */
export function tabIdParam(params) {
  const { tabId } = params;
  if (!Number.isInteger(tabId)) {
    throw new ActionError(
      'bad_request',
      'tabId must be an integer tab id',
      "call tabs_context for the agent's tabs",
    );
  }
  return /** @type {number} */ (tabId);
}

/**
 * @param {Record<string, unknown>} params
 * @param {string} name
 * @param {boolean} fallback when the param is absent
 * @returns {boolean}
 */
export function boolParam(params, name, fallback) {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') {
    throw new ActionError('bad_request', `${name} must be true or false`);
  }
  return value;
}

/**
 * @param {Record<string, unknown>} params
 * @param {string} name
 * @returns {string | undefined} undefined when the param is absent
 */
export function stringParam(params, name) {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new ActionError('bad_request', `${name} must be a string`);
  }
  return value;
}

/**
 * @template {string} T
 * @param {Record<string, unknown>} params
 * @param {string} name
 * @param {readonly T[]} allowed
 * @returns {T | undefined} undefined when the param is absent
 */
export function enumParam(params, name, allowed) {
  const value = stringParam(params, name);
  if (value === undefined) return undefined;
  if (!allowed.includes(/** @type {T} */ (value))) {
    throw new ActionError('bad_request', `${name} must be one of ${allowed.join(', ')}`);
  }
  return /** @type {T} */ (value);
}

/**
 * @param {Record<string, unknown>} params
 * @param {string} name
 * @param {number} min
 * @param {number} max
 * @returns {number | undefined} undefined when the param is absent
 */
export function intParam(params, name, min, max) {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || /** @type {number} */ (value) < min
      || /** @type {number} */ (value) > max) {
    throw new ActionError(
      'bad_request',
      `${name} must be an integer from ${min} to ${max}`,
    );
  }
  return /** @type {number} */ (value);
}
