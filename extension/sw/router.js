// @ts-check
// The extension's command table: every file under sw/actions/ exports the
// table of its wire actions (docs/wire.md), each named for its file
// (tab.navigate is in actions/tab.js). The routing itself (the tab gate,
// timeouts, cancel, one result per id) is lib/router.js, which node tests.

import { ANSWER_MS, Router, joinTables } from '../lib/router.js';
import * as browser from './actions/browser.js';
import * as consoleActions from './actions/console.js';
import * as download from './actions/download.js';
import * as element from './actions/element.js';
import * as feedback from './actions/feedback.js';
import * as handoff from './actions/handoff.js';
import * as input from './actions/input.js';
import * as network from './actions/network.js';
import * as observe from './actions/observe.js';
import * as page from './actions/page.js';
import * as profile from './actions/profile.js';
import * as tab from './actions/tab.js';
import { answers } from './cdp.js';
import { awaitsServer } from './navigation.js';
import { checkTab } from './tab-group.js';

/** @typedef {import('../lib/router.js').ActionEntry} ActionEntry */
/** @typedef {import('../lib/frames.js').BrowserFrame} BrowserFrame */

/**
 * Each action file's table, by file name. sw/router.test.js checks that it
 * holds every file under sw/actions/.
 */
export const TABLES = {
  browser: browser.ACTIONS,
  tab: tab.ACTIONS,
  page: page.ACTIONS,
  element: element.ACTIONS,
  input: input.ACTIONS,
  observe: observe.ACTIONS,
  console: consoleActions.ACTIONS,
  network: network.ACTIONS,
  download: download.ACTIONS,
  profile: profile.ACTIONS,
  handoff: handoff.ACTIONS,
  feedback: feedback.ACTIONS,
};

/**
 * Every wire action. Nothing else can be invoked.
 * @type {readonly ActionEntry[]}
 */
export const ACTIONS = joinTables(TABLES);

/**
 * Returns the router that answers the daemon's commands through send, lets
 * tab actions through sw/tab-group.js's checkTab, hands state frames to
 * onState, and asks a page that holds a command long whether it answers.
 * @param {(frame: BrowserFrame) => void} send
 * @param {(data: unknown) => void} onState
 * @returns {Router}
 */
export function createRouter(send, onState) {
  return new Router({
    actions: ACTIONS,
    checkTab,
    send,
    onState,
    // A page that waits for a server is not stuck, though its debugger
    // holds the look back until the navigation commits.
    answers: async (tabId) => awaitsServer(tabId) || answers(tabId, ANSWER_MS),
  });
}
