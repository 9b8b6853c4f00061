// @ts-check
// The extension's command table: which action answers which wire action
// (docs/wire.md). The routing itself (timeouts, cancel, one result per id) is
// lib/router.js, which node tests.

import { Router } from '../lib/router.js';
import * as browser from './actions/browser.js';
import * as element from './actions/element.js';
import * as evidence from './actions/evidence.js';
import * as page from './actions/page.js';
import * as pointer from './actions/pointer.js';
import * as read from './actions/read.js';
import * as tab from './actions/tab.js';

/** @typedef {import('../lib/router.js').Action} Action */
/** @typedef {import('../lib/frames.js').BrowserFrame} BrowserFrame */

/**
 * Wire action -> action. Nothing else can be invoked.
 * @type {ReadonlyMap<string, Action>}
 */
export const ACTIONS = new Map([
  ['browser.health', browser.health],
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
  ['element.act', element.act],
  ['element.locate', element.locate],
  ['input.click', pointer.click],
  ['input.move', pointer.move],
  ['input.drag', pointer.drag],
  ['input.type', pointer.type],
  ['input.key', pointer.key],
  ['input.scroll', pointer.scroll],
  ['input.viewport', pointer.viewport],
]);

/**
 * Returns the router that answers the daemon's commands through send.
 * @param {(frame: BrowserFrame) => void} send
 * @returns {Router}
 */
export function createRouter(send) {
  return new Router({ actions: ACTIONS, send });
}
