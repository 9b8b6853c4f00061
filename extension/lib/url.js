// @ts-check
// Which URLs tab.navigate and tab.create accept (docs/wire.md): http, https,
// file and about:blank. Everything else (javascript:, data:, chrome:, ...)
// is bad_request; the host checks the same before it sends the command.

import { ActionError } from './errors.js';

const SCHEMES = new Set(['http:', 'https:', 'file:']);

/**
 * Returns url, parsed and serialized, when an agent may open it.
 * @param {unknown} url
 * @returns {string}
 * @throws {ActionError} bad_request otherwise
 */
export function checkUrl(url) {
  if (typeof url !== 'string' || url === '') {
    throw new ActionError('bad_request', 'url must be a non-empty string');
  }
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new ActionError(
      'bad_request',
      'url is not an absolute URL',
      'pass a full URL such as https://example.com/',
    );
  }
  if (parsed.href === 'about:blank' || SCHEMES.has(parsed.protocol)) {
    return parsed.href;
  }
  throw new ActionError(
    'bad_request',
    `cannot open ${parsed.protocol} URLs: only http, https, file and about:blank`,
  );
}

/**
 * Reports whether url matches pattern: a glob when it has *, else a
 * substring.
 * @param {string} url
 * @param {string} pattern
 * @returns {boolean}
 */
export function urlMatches(url, pattern) {
  if (!pattern.includes('*')) return url.includes(pattern);
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(url);
}
