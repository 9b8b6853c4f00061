// @ts-check
/// <reference types="node" />
// Runs the page script for node's tests: its real files, in the order of
// lib/page-files.js, in a jsdom window (a DOM without layout) or in a bare
// node:vm context. Tests only.

import { readFileSync } from 'node:fs';
import vm from 'node:vm';

import { JSDOM } from 'jsdom';

import { PAGE_FILES } from '../lib/page-files.js';

/**
 * The page script's files as source text, in injection order.
 * @returns {Array<{ file: string, source: string }>}
 */
export function pageSources() {
  return PAGE_FILES.map((file) => ({
    file,
    source: readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'),
  }));
}

/** What every page has that the page script uses as it loads: a clock, and an observer (of a document that never changes, here). */
const PAGE_GLOBALS = {
  performance,
  MutationObserver: class {
    observe() {}
    disconnect() {}
  },
};

/**
 * Runs every file of the page script in a node:vm context, as
 * chrome.scripting would run them in an isolated world.
 * @param {object} globals what the context holds (document, localStorage)
 * @returns {any} the context, whose __openchrome the files made (any: each
 *   test reads what it set up)
 */
export function runInVm(globals) {
  const context = vm.createContext({ ...PAGE_GLOBALS, ...globals });
  for (const { file, source } of pageSources()) vm.runInContext(source, context, { filename: file });
  return context;
}

/**
 * A box in CSS pixels of the viewport.
 * @typedef {{ x: number, y: number, width: number, height: number }} Box
 */

/**
 * A page in jsdom with the page script injected. jsdom computes no layout,
 * so the page gets what the script asks of it: checkVisibility from the
 * computed display and visibility, innerText as textContent, a
 * scrollIntoView that moves what the test's onScroll places, and boxes only
 * for the elements a test places (place), which elementFromPoint then hits,
 * the last placed on top. An element's clientWidth and clientHeight are 0
 * unless the test sets them.
 */
export class TestPage {
  /**
   * @param {string} body the HTML of the body
   * @param {{ url?: string, title?: string, before?: (window: any) => void }} [options] before: sets up the
   *   window before the page script runs (any: a test adds what the browser would, chrome.dom)
   */
  constructor(body, { url = 'http://127.0.0.1:8080/page.html', title = 'Test page', before } = {}) {
    const dom = new JSDOM(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`, {
      url,
      runScripts: 'outside-only',
    });
    this.window = dom.window;
    this.document = dom.window.document;
    /** @type {Array<{ el: Element, box: Box }>} */
    this.placed = [];
    /** Elements scrollIntoView was called on. @type {Element[]} */
    this.scrolled = [];
    /**
     * What a scroll moves: a test places the elements anew.
     * @type {((el: Element) => void) | undefined}
     */
    this.onScroll = undefined;
    this.stubLayout();
    before?.(this.window);
    this.inject();
  }

  stubLayout() {
    const w = this.window;
    const page = this;
    w.Element.prototype.checkVisibility = function checkVisibility(/** @type {any} */ opts) {
      if ((opts?.visibilityProperty || opts?.checkVisibilityCSS) && w.getComputedStyle(this).visibility === 'hidden') return false;
      for (let e = /** @type {Element | null} */ (this); e; e = e.parentElement) {
        const cs = w.getComputedStyle(e);
        if (cs.display === 'none' || (opts?.opacityProperty && cs.opacity === '0')) return false;
      }
      return true;
    };
    Object.defineProperty(w.HTMLElement.prototype, 'innerText', {
      configurable: true,
      get() {
        return /** @type {HTMLElement} */ (this).textContent ?? '';
      },
    });
    w.Element.prototype.scrollIntoView = function scrollIntoView() {
      page.scrolled.push(this);
      page.onScroll?.(this);
    };
    // Nothing moves in a page without layout.
    w.document.getAnimations = () => [];
    w.document.elementFromPoint = (x, y) => {
      for (let i = page.placed.length - 1; i >= 0; i--) {
        const { el, box } = page.placed[i];
        if (x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height) return el;
      }
      return null;
    };
  }

  /** Injects the page script's files, as chrome.scripting does. */
  inject() {
    for (const { source } of pageSources()) this.window.eval(source);
  }

  /**
   * Gives the element matching selector (or the element) a box, on top of
   * those placed before; an element placed again moves there.
   * @param {string | Element} selector
   * @param {Box} box
   */
  place(selector, box) {
    const el = typeof selector === 'string' ? this.$(selector) : selector;
    el.getBoundingClientRect = () => /** @type {DOMRect} */ ({ ...box, top: box.y, left: box.x, right: box.x + box.width, bottom: box.y + box.height });
    this.placed = this.placed.filter((p) => p.el !== el);
    this.placed.push({ el, box });
    return el;
  }

  /**
   * The element matching selector; the test fails without one.
   * @param {string} selector
   * @returns {HTMLElement}
   */
  $(selector) {
    const el = this.document.querySelector(selector);
    if (!el) throw new Error(`no element matches ${selector}`);
    return /** @type {HTMLElement} */ (el);
  }

  /** The namespace the files made. */
  get ns() {
    const ns = /** @type {{ __openchrome?: PageNamespace }} */ (/** @type {unknown} */ (this.window)).__openchrome;
    if (!ns) throw new Error('the page script made no namespace');
    return ns;
  }

  /**
   * Calls method as the service worker does, and returns its answer as
   * plain JSON (out of the window's realm, as chrome.scripting returns it).
   * @param {string} method
   * @param {unknown} [args]
   * @returns {any} the method's answer (any: each test knows its shape)
   */
  call(method, args = {}) {
    const call = this.ns.call;
    if (!call) throw new Error('the page script has no call: entry.js did not run');
    return JSON.parse(call(method, args));
  }

  /**
   * Calls method and returns what it answered, failing on an error.
   * @param {string} method
   * @param {unknown} [args]
   * @returns {any} see call
   */
  ok(method, args = {}) {
    const out = this.call(method, args);
    if (out.error) throw new Error(`${method}: ${out.error.code}: ${out.error.message}`);
    return out.ok;
  }
}
