// @ts-check
// Who this extension is, for the hello and browser.health: the build that
// runs, the browser's name and a stable random id for the profile.

import { browserName } from '../lib/browser-name.js';

const PROFILE_KEY = 'profileId';

/**
 * The build this worker's code is, as `openchrome install` wrote it at the
 * end of service-worker.js; undefined when the extension was loaded from
 * its source folder, which has none.
 * @type {string | undefined}
 */
let running;

/**
 * Says which build this worker is: called at the end of service-worker.js,
 * by the line `openchrome install` adds. Chrome may go on running an older
 * worker after the files were replaced (it registers the worker again only
 * for a new version, and installs it only when the worker's own script
 * differs); the daemon compares the build with the one on disk and says to
 * reload the extension. The worker does not reload itself: in a profile
 * without developer mode, Chrome disables an unpacked extension that
 * reloads, and a worker cannot tell which profile it is in.
 * @param {string} build
 */
export function started(build) {
  running = build;
}

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
  // After the await: the worker's first hello starts while its script is
  // still running, before the line that says its build.
  const profile = await profileId();
  return {
    version: running ?? chrome.runtime.getManifest().version,
    browser: browserName({
      brands: nav.userAgentData?.brands,
      userAgent: nav.userAgent,
    }),
    profile,
  };
}
