// @ts-check
// network.*: an agent tab's requests, from the moment it joined the group
// (sw/evidence.js keeps them, lib/network.js shapes them): never a
// request's headers or body; a response's headers, and its body on demand.

import { ActionError } from '../../lib/errors.js';
import { bodyPart, MAX_BODY, networkQuery } from '../../lib/network.js';
import { intParam } from '../../lib/params.js';
import { tabAction } from '../../lib/router.js';
import * as cdp from '../cdp.js';
import * as evidence from '../evidence.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * network.list: the requests after since that pass the filter.
 * @type {TabAction}
 */
async function list(params, { tabId }) {
  return evidence.requestsOf(tabId).list(networkQuery(params));
}

/**
 * network.get: one request, with its response's headers and, for a text
 * body the browser still holds, the body: MAX_BODY characters of it from
 * offset.
 * @type {TabAction}
 */
async function get(params, { tabId, signal }) {
  const id = intParam(params, 'id', 1, Number.MAX_SAFE_INTEGER);
  const offset = intParam(params, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  if (id === undefined) throw new ActionError('bad_request', 'id is required', 'network_requests lists the ids');
  const r = evidence.requestsOf(tabId).get(id);
  if (!r) {
    throw new ActionError('not_found', `no request ${id} in tab ${tabId} (it is older than what the tab keeps, or the tab never made it)`,
      'call network_requests for the ids there are');
  }
  const { requestId, started: _started, responseHeaders, sessionId: _session, ...request } = r;
  /** @type {Record<string, unknown>} */
  const out = { ...request, responseHeaders: responseHeaders ?? {} };
  if (r.state !== 'done' || !textual(r.mimeType)) {
    out.body = { omitted: r.state === 'pending' ? 'the request has not finished' : r.state === 'failed' ? 'the request failed' : `not text (${r.mimeType ?? 'no type'})` };
    return out;
  }
  /** @type {{ body: string, base64Encoded: boolean }} */
  let res;
  try {
    res = await cdp.send(tabId, 'Network.getResponseBody', { requestId }, { signal, sessionId: r.sessionId });
  } catch (err) {
    if (signal.aborted) throw err;
    out.body = { omitted: 'the browser no longer holds the body (the page moved on)' };
    return out;
  }
  const text = res.base64Encoded ? '' : String(res.body ?? '');
  if (res.base64Encoded) out.body = { omitted: 'the body is binary' };
  else if (offset > 0 && offset >= text.length) throw new ActionError('bad_request', `offset ${offset} is past the body's ${text.length} characters`);
  else if (offset > 0 || text.length > MAX_BODY) out.body = bodyPart(text, offset);
  else out.body = { text };
  return out;
}

/**
 * Reports whether a MIME type is text an agent can read.
 * @param {string | undefined} mime
 */
function textual(mime) {
  return !!mime && (/^text\//.test(mime) || /json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql/.test(mime));
}

export const ACTIONS = [
  tabAction('network.list', list),
  tabAction('network.get', get),
];
