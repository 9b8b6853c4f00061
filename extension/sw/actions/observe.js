// @ts-check
// observe.*: what a page logged, threw and fetched while observed
// (sw/evidence.js keeps it).

import { raceSignal } from '../../lib/abort.js';
import { ActionError } from '../../lib/errors.js';
import { eventsQuery } from '../../lib/evidence.js';
import { tabAction } from '../../lib/router.js';
import * as evidence from '../evidence.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * observe.set: starts ({on: true}) or stops keeping the tab's console
 * errors, exceptions, requests and navigations. Cancelling stops the wait,
 * not the switch.
 * @type {TabAction}
 */
async function set(params, { tabId, signal }) {
  const { on } = params;
  if (typeof on !== 'boolean') throw new ActionError('bad_request', 'on must be true or false');
  signal.throwIfAborted();
  await raceSignal(on ? evidence.start(tabId) : evidence.stop(tabId), signal);
  return { observing: evidence.isObserving(tabId) };
}

/**
 * observe.events: the tab's kept entries from since on, oldest first.
 * @type {TabAction}
 */
async function events(params, { tabId }) {
  const query = eventsQuery(params);
  const page = evidence.read(tabId, query);
  return { events: page.events, next: page.next, observing: evidence.isObserving(tabId), dropped: page.dropped };
}

export const ACTIONS = [
  tabAction('observe.set', set),
  tabAction('observe.events', events),
];
