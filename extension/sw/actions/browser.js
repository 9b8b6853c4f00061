// @ts-check
// browser.*: what the extension knows about itself, and its half of Stop.

import { action } from '../../lib/router.js';
import { attachedCount } from '../cdp.js';
import { stopLocally } from '../human.js';
import { identity } from '../identity.js';
import { listTabs } from '../tab-group.js';

/** @typedef {import('../../lib/router.js').Action} Action */

/**
 * browser.health: what the extension knows about itself and its tabs.
 * @type {Action}
 */
async function health() {
  const [who, tabs] = await Promise.all([identity(), listTabs()]);
  return {
    extensionVersion: who.version,
    browser: who.browser,
    profile: who.profile,
    groupTabs: tabs.length,
    attachedTabs: attachedCount(),
  };
}

/**
 * browser.stop: cancels every other command in flight, removes every
 * banner, ends every observation and detaches the debugger from every tab
 * (docs/human.md).
 * @type {Action}
 */
async function stop(_params, { id }) {
  return stopLocally(id);
}

export const ACTIONS = [
  action('browser.health', health),
  action('browser.stop', stop),
];
