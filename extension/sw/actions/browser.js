// @ts-check
// browser.* actions.

import { attachedCount } from '../cdp.js';
import { identity } from '../identity.js';
import { listTabs } from '../tab-group.js';

/**
 * browser.health: what the extension knows about itself and its tabs.
 * @type {import('../../lib/router.js').Action}
 */
export async function health() {
  const [who, tabs] = await Promise.all([identity(), listTabs()]);
  return {
    extensionVersion: who.version,
    browser: who.browser,
    profile: who.profile,
    groupTabs: tabs.length,
    attachedTabs: attachedCount(),
  };
}
