// @ts-check
// observe.events: what an agent tab logged, threw, fetched and where it went,
// as one numbered log (sw/evidence.js keeps it from the moment the tab
// joined the group): what recordings and evidence bundles read.

import { eventsQuery } from '../../lib/evidence.js';
import { tabAction } from '../../lib/router.js';
import * as evidence from '../evidence.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * observe.events: the tab's kept entries from since on, oldest first.
 * @type {TabAction}
 */
async function events(params, { tabId }) {
  const query = eventsQuery(params);
  const page = evidence.read(tabId, query);
  return { events: page.events, next: page.next, observing: evidence.isWatched(tabId), dropped: page.dropped };
}

export const ACTIONS = [
  tabAction('observe.events', events),
];
