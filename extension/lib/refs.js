// @ts-check
// Which document of a tab each ref lives in. A tab hands out ref numbers from
// one counter that only grows, so a ref from a page the tab has left can
// never name an element of the page it shows now: it either resolves to its
// own document, which is gone (stale), or to nothing.

/**
 * Where a run of refs was handed out.
 * @typedef {{ lo: number, hi: number, frameId: number, documentId: string }} RefRange
 */

/**
 * @typedef {{ next: number, ranges: RefRange[] }} TabRefs
 */

export class RefBook {
  constructor() {
    /** @type {Map<number, TabRefs>} */
    this.tabs = new Map();
  }

  /**
   * The tab's book, made on first use.
   * @param {number} tabId
   * @returns {TabRefs}
   */
  tab(tabId) {
    let t = this.tabs.get(tabId);
    if (!t) this.tabs.set(tabId, (t = { next: 1, ranges: [] }));
    return t;
  }

  /**
   * The first ref the next call into the tab may hand out.
   * @param {number} tabId
   */
  base(tabId) {
    return this.tab(tabId).next;
  }

  /**
   * Records that a frame's document handed out refs [lo, hi).
   * @param {number} tabId
   * @param {number} frameId
   * @param {string} documentId
   * @param {number} lo
   * @param {number} hi
   */
  record(tabId, frameId, documentId, lo, hi) {
    const t = this.tab(tabId);
    t.next = Math.max(t.next, hi);
    if (hi <= lo) return;
    const last = t.ranges[t.ranges.length - 1];
    if (last && last.documentId === documentId && last.frameId === frameId && last.hi === lo) {
      last.hi = hi;
    } else {
      t.ranges.push({ lo, hi, frameId, documentId });
    }
  }

  /**
   * Where ref was handed out, if it was.
   * @param {number} tabId
   * @param {number} ref
   * @returns {RefRange | undefined}
   */
  lookup(tabId, ref) {
    return this.tabs.get(tabId)?.ranges.find((r) => ref >= r.lo && ref < r.hi);
  }

  /**
   * Forgets the refs of documents other than keep, in frames that have
   * navigated; the counter stays, so their numbers are never reused.
   * @param {number} tabId
   * @param {(range: RefRange) => boolean} keep
   */
  prune(tabId, keep) {
    const t = this.tabs.get(tabId);
    if (t) t.ranges = t.ranges.filter(keep);
  }

  /** @param {number} tabId */
  forget(tabId) {
    this.tabs.delete(tabId);
  }

  /** A plain copy, for chrome.storage.session. */
  toJSON() {
    return Object.fromEntries(this.tabs);
  }

  /**
   * A book restored from toJSON's output.
   * @param {unknown} data
   */
  static from(data) {
    const book = new RefBook();
    if (data && typeof data === 'object') {
      for (const [id, t] of Object.entries(data)) {
        const tab = /** @type {TabRefs} */ (t);
        if (typeof tab?.next === 'number' && Array.isArray(tab.ranges)) book.tabs.set(Number(id), tab);
      }
    }
    return book;
  }
}

/**
 * Parses an agent's ref: "e12", "12" or 12.
 * @param {unknown} ref
 * @returns {number | undefined}
 */
export function parseRef(ref) {
  if (typeof ref === 'number' && Number.isInteger(ref) && ref > 0) return ref;
  if (typeof ref !== 'string') return undefined;
  const m = /^\[?e?(\d+)\]?$/.exec(ref.trim());
  return m ? Number(m[1]) : undefined;
}
