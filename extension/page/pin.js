// @ts-check
// Keeps an element of ours last under <html> for as long as it is pinned:
// a page that takes it out, or replaces <html>, sees it put back, at most
// five times a second, so a page fighting it does not make us spin. The
// handoff banner (page/banner.js) and the feedback overlay (page/overlay.js)
// stand on it; sw/banner.js and sw/feedback.js inject it before them, into
// the same isolated world. Injecting it twice is harmless.

(() => {
  const g = /** @type {{ __openchromePin?: (host: HTMLElement) => () => void }} */ (globalThis);
  if (g.__openchromePin) return;

  /** How many times a second a host is put back before waiting a second. */
  const BUDGET = 5;

  /**
   * Puts host last under <html> and keeps it there.
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

  g.__openchromePin = pin;
})();
