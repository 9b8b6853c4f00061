// @ts-check
// profile.*: what of the person's profile the engine must not let out. The
// values go to the daemon only, which masks them in the result of the call
// that asked (lib/secrets.js says which values).

import { tabAction } from '../../lib/router.js';
import { siteSecrets } from '../secrets.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * profile.secrets: the values of the tab's site's cookies and of its web
 * storage entries that are credentials, what its secret fields hold
 * (sw/secrets.js), and the tab's URL (for the call's audit entry).
 * @type {TabAction}
 */
async function secrets(_params, { tabId, tab }) {
  const url = tab.url ?? '';
  return { ...await siteSecrets(tabId, url), url };
}

export const ACTIONS = [
  tabAction('profile.secrets', secrets),
];
