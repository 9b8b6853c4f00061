// @ts-check
// download.*: the downloads the agent's tabs started (sw/downloads.js); the
// person's own are never listed.

import { intParam, tabIdParam } from '../../lib/params.js';
import { action } from '../../lib/router.js';
import * as downloads from '../downloads.js';

/** @typedef {import('../../lib/router.js').Action} Action */

/**
 * download.list: the downloads of tabId, or of every agent tab; with
 * waitMs, once there is one and none is in progress, or when waitMs is up.
 * Not a tab action: the tab that started a download may be gone (a link
 * that opened a tab to download in).
 * @type {Action}
 */
async function list(params, { signal }) {
  const tabId = params.tabId === undefined ? undefined : tabIdParam(params);
  const waitMs = intParam(params, 'waitMs', 0, 600_000) ?? 0;
  return downloads.waitFor(tabId, waitMs, signal);
}

export const ACTIONS = [
  action('download.list', list),
];
