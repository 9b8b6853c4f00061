// @ts-check
// The refs a frame hands out: ref number -> element, for as long as the
// element lives. The service worker keeps each tab's numbers (lib/refs.js)
// and passes every call that hands out refs where to start and which
// numbers to pass over: those the tab's last pages used.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.refs) return; // injected again: the first copy stays
  const { PageError } = oc;

  /** Ref number -> the element, for as long as it lives. @type {Map<number, WeakRef<Element>>} */
  const byRef = new Map();
  /** @type {WeakMap<Element, number>} */
  const refOf = new WeakMap();
  /** The next ref to hand out; the service worker keeps the tab's counter. */
  let nextRef = 1;
  /** Where the current call started handing out. */
  let startRef = 1;
  /** Runs of numbers [lo, hi) not to hand out, sorted. @type {[number, number][]} */
  let skip = [];

  /** @param {Element} el */
  function refFor(el) {
    let r = refOf.get(el);
    if (r === undefined) {
      for (const [lo, hi] of skip) {
        if (nextRef >= lo && nextRef < hi) nextRef = hi;
      }
      r = nextRef++;
      refOf.set(el, r);
      byRef.set(r, new WeakRef(el));
    }
    return r;
  }

  /**
   * The live element behind ref, or a reason it is gone.
   * @param {number} ref
   * @returns {Element}
   */
  function element(ref) {
    const el = byRef.get(ref)?.deref();
    if (!el || !el.isConnected) {
      byRef.delete(ref);
      throw new PageError('stale_ref', `ref e${ref} is gone: the element was removed from the page`,
        'call read_page for fresh refs');
    }
    return el;
  }

  /**
   * The element behind ref, if it is still there; undefined otherwise.
   * @param {number} ref
   * @returns {Element | undefined}
   */
  function lookup(ref) {
    return byRef.get(ref)?.deref();
  }

  /**
   * Starts a call that may hand out refs: from refBase, the tab's counter
   * (numbers below it are taken, in this frame or another), or this
   * document's own if that is higher, passing over refSkip.
   * @param {number} refBase
   * @param {[number, number][]} [refSkip]
   */
  function advance(refBase, refSkip = []) {
    nextRef = Math.max(nextRef, refBase);
    startRef = nextRef;
    skip = refSkip;
  }

  /** What this call handed out, for the service worker's book: [startRef, nextRef) but the skipped. */
  function handed() {
    return { startRef, nextRef };
  }

  oc.refs = { refFor, element, lookup, advance, handed };
})();
