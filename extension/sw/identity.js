// @ts-check
// Who this extension is, for the hello and browser.health: the manifest's
// version, the browser's name and a stable random id for the profile.

import { browserName } from '../lib/browser-name.js';

const PROFILE_KEY = 'profileId';

/**
 * @typedef {{ version: string, browser: string, profile: string }} Identity
 */

/**
 * userAgentData is not in TypeScript's DOM library yet.
 * @typedef {Navigator & { userAgentData?: {
 *   brands?: import('../lib/browser-name.js').Brand[] } }} NavigatorWithBrands
 */

/** @type {Promise<string> | undefined} */
let profile;

/**
 * Returns the profile's id: made once, kept in chrome.storage.local, so the
 * daemon knows a browser again after a restart. The id says nothing about the
 * user; it only tells profiles apart.
 * @returns {Promise<string>}
 */
function profileId() {
  profile ??= (async () => {
    const stored = await chrome.storage.local.get(PROFILE_KEY);
    const id = stored[PROFILE_KEY];
    if (typeof id === 'string' && id) return id;
    const made = crypto.randomUUID();
    await chrome.storage.local.set({ [PROFILE_KEY]: made });
    return made;
  })();
  profile.catch(() => {
    profile = undefined; // try storage again next time
  });
  return profile;
}

/**
 * @returns {Promise<Identity>}
 */
export async function identity() {
  const nav = /** @type {NavigatorWithBrands} */ (navigator);
  return {
    version: chrome.runtime.getManifest().version,
    browser: browserName({
      brands: nav.userAgentData?.brands,
      userAgent: nav.userAgent,
    }),
    profile: await profileId(),
  };
}
