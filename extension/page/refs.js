// @ts-check
// The refs a frame hands out: ref number -> element, for as long as the
// element lives. The service worker keeps each tab's counter (lib/refs.js)
// and passes its base to every call that hands out refs.

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

  /** @param {Element} el */
  function refFor(el) {
    let r = refOf.get(el);
    if (r === undefined) {
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
   * Moves the next ref up to refBase, the tab's counter: numbers below it
   * are taken, in this frame or another.
   * @param {number} refBase
   */
  function advance(refBase) {
    nextRef = Math.max(nextRef, refBase);
  }

  /** The next ref this frame would hand out. */
  function next() {
    return nextRef;
  }

  oc.refs = { refFor, element, lookup, advance, next };
})();
