// @ts-check
// console.read: an agent tab's console messages, of every level, and its
// uncaught exceptions with their stack, from the moment the tab joined the
// group (sw/evidence.js keeps them).

import { consoleQuery } from '../../lib/evidence.js';
import { tabAction } from '../../lib/router.js';
import * as evidence from '../evidence.js';

/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * console.read: the messages after since that pass the levels and pattern,
 * oldest first; next reads on, dropped counts what the tab's buffer lost.
 * @type {TabAction}
 */
async function read(params, { tabId }) {
  const { since, limit, match } = consoleQuery(params);
  const page = evidence.read(tabId, { since, limit, match });
  return { messages: page.events, next: page.next, dropped: page.dropped };
}

export const ACTIONS = [
  tabAction('console.read', read),
];
