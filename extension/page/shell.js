// @ts-check
// What the handoff banner (page/banner.js) and the feedback overlay
// (page/overlay.js) are made of: an <openchrome-banner> element whose
// closed shadow root the page can neither read nor restyle, kept last under
// <html> for as long as it is pinned. sw/banner.js and sw/feedback.js inject
// this file before them, into the same isolated world. Injecting it twice is
// harmless.
//
// A classic script, not a module, for the reasons page/namespace.js gives.

(() => {
  const g = /** @type {{ __openchromeShell?: OpenChromeShell }} */ (globalThis);
  if (g.__openchromeShell) return;

  /**
   * @typedef {{
   *   make: (css: string) => { host: HTMLElement, root: ShadowRoot },
   *   pin: (host: HTMLElement) => () => void,
   *   el: (tag: string, cls: string, text?: string) => HTMLElement,
   * }} OpenChromeShell
   */

  /**
   * The host's armour against the page's CSS; where it sits on the screen
   * is the caller's (a later :host rule).
   */
  const ARMOUR = `
    :host {
      all: initial !important;
      display: block !important;
      position: fixed !important;
      z-index: 2147483647 !important;
      pointer-events: none !important;
      visibility: visible !important;
      opacity: 1 !important;
      transform: none !important;
    }
    * { box-sizing: border-box; }
  `;

  /** How many times a second a host is put back before waiting a second. */
  const BUDGET = 5;

  /**
   * An <openchrome-banner> with a closed shadow root styled by css.
   * @param {string} css
   */
  function make(css) {
    const host = document.createElement('openchrome-banner');
    const root = host.attachShadow({ mode: 'closed' });
    try {
      // A constructed sheet is not a <style> the page's CSP could refuse.
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(ARMOUR + css);
      root.adoptedStyleSheets = [sheet];
    } catch {
      const style = document.createElement('style');
      style.textContent = ARMOUR + css;
      root.append(style);
    }
    return { host, root };
  }

  /**
   * An element with a class and text (set as text: it may come from an agent).
   * @param {string} tag
   * @param {string} cls
   * @param {string} [text]
   */
  function el(tag, cls, text = '') {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    e.textContent = text;
    return e;
  }

  /**
   * Puts host last under <html> and keeps it there: a page that takes it
   * out, or replaces <html>, sees it put back, at most five times a second,
   * so a page fighting it does not make us spin.
   * @param {HTMLElement} host
   * @returns {() => void} unpins; the host stays where it is
   */
  function pin(host) {
    let pinned = true;
    let putBack = { count: 0, since: 0 };
    /** @type {ReturnType<typeof setTimeout> | undefined} a later try, when over budget */
    let retry;
    const observer = new MutationObserver(keep);

    function attach() {
      const root = document.documentElement;
      if (root && host.parentNode !== root) root.append(host);
    }

    function keep() {
      if (!pinned || host.parentNode === document.documentElement) return;
      const now = Date.now();
      if (now - putBack.since > 1000) putBack = { count: 0, since: now };
      if (++putBack.count > BUDGET) {
        retry ??= setTimeout(() => {
          retry = undefined;
          keep();
        }, 1000);
        return;
      }
      attach();
      if (document.documentElement) observer.observe(document.documentElement, { childList: true });
    }

    attach();
    observer.observe(document, { childList: true });
    if (document.documentElement) observer.observe(document.documentElement, { childList: true });
    return () => {
      pinned = false;
      observer.disconnect();
      clearTimeout(retry);
    };
  }

  g.__openchromeShell = { make, pin, el };
})();
