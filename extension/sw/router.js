// @ts-check
// The extension's command table: which action answers which wire action
// (docs/wire.md). The routing itself (timeouts, cancel, one result per id) is
// lib/router.js, which node tests.

import { Router, action } from '../lib/router.js';
import * as browser from './actions/browser.js';
import * as element from './actions/element.js';
import * as evidence from './actions/evidence.js';
import * as human from './actions/human.js';
import * as page from './actions/page.js';
import * as pointer from './actions/pointer.js';
import * as read from './actions/read.js';
import * as tab from './actions/tab.js';

/** @typedef {import('../lib/router.js').ActionEntry} ActionEntry */
/** @typedef {import('../lib/frames.js').BrowserFrame} BrowserFrame */

/**
 * Every wire action. Nothing else can be invoked.
 * @type {readonly ActionEntry[]}
 */
export const ACTIONS = [...new Map([
  ['browser.health', browser.health],
  ['browser.stop', human.stop],
  ['tabs.list', tab.list],
  ['tab.create', tab.create],
  ['tab.close', tab.close],
  ['tab.navigate', tab.navigate],
  ['page.screenshot', page.screenshot],
  ['page.evaluate', page.evaluate],
  ['page.snapshot', read.snapshot],
  ['page.text', read.text],
  ['page.crawl', read.crawl],
  ['page.find', read.find],
  ['page.field', read.field],
  ['page.wait', read.wait],
  ['page.observe', evidence.observePage],
  ['page.events', evidence.events],
  ['page.dom', evidence.dom],
  ['page.handoffState', human.handoffState],
  ['element.act', element.act],
  ['element.locate', element.locate],
  ['input.click', pointer.click],
  ['input.move', pointer.move],
  ['input.drag', pointer.drag],
  ['input.type', pointer.type],
  ['input.key', pointer.key],
  ['input.scroll', pointer.scroll],
  ['input.viewport', pointer.viewport],
])].map(([name, run]) => action(name, run));

/**
 * Returns the router that answers the daemon's commands through send and
 * hands state frames to onState.
 * @param {(frame: BrowserFrame) => void} send
 * @param {(data: unknown) => void} onState
 * @returns {Router}
 */
export function createRouter(send, onState) {
  return new Router({ actions: ACTIONS, send, onState });
}
