// @ts-check
// Which document of a tab each ref lives in. Each page a tab shows (a top
// document) numbers its refs from the lowest numbers that none of the pages
// before it used, up to KEPT of them: refs stay short (a number past 999
// costs a token more on every line), and a ref from one of those pages can
// never name an element of the page the tab shows now. It resolves to its
// own document, which is gone (stale), or to nothing.

/**
 * How many pages before a tab's current one keep their numbers: a ref an
 * agent kept from one of them is refused as stale, never reused.
 */
export const KEPT = 3;

/**
 * Where a run of refs was handed out, and on which of the tab's pages.
 * @typedef {{ lo: number, hi: number, frameId: number, documentId: string, page: number }} RefRange
 */

/**
 * A run of numbers [lo, hi) a page must not hand out.
 * @typedef {[number, number]} Span
 */

/**
 * next: the first number the next call may hand out; high: one past the
 * highest ever handed out; page: how many top documents the tab has shown;
 * top: the current one's id.
 * @typedef {{ next: number, high: number, page: number, top?: string, ranges: RefRange[] }} TabRefs
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
    if (!t) this.tabs.set(tabId, (t = { next: 1, high: 1, page: 0, ranges: [] }));
    return t;
  }

  /**
   * Notes the tab's top document before a call hands out refs. A new one
   * starts a page: the numbers of pages more than KEPT back are free again,
   * and counting starts over from 1.
   * @param {number} tabId
   * @param {string} documentId
   */
  enter(tabId, documentId) {
    const t = this.tab(tabId);
    if (t.top === documentId) return;
    t.top = documentId;
    t.page++;
    t.ranges = t.ranges.filter((r) => r.page >= t.page - KEPT);
    t.next = 1;
  }

  /**
   * What the next call into the tab may hand out: numbers from base up,
   * jumping over skip (sorted, apart), the numbers the kept pages used.
   * @param {number} tabId
   * @returns {{ base: number, skip: Span[] }}
   */
  plan(tabId) {
    const t = this.tab(tabId);
    return { base: t.next, skip: merged(t.ranges.filter((r) => r.hi > t.next)) };
  }

  /**
   * Records that a frame's document handed out the numbers of [lo, hi)
   * outside skip, the plan the call was made with.
   * @param {number} tabId
   * @param {number} frameId
   * @param {string} documentId
   * @param {number} lo
   * @param {number} hi
   * @param {Span[]} [skip]
   */
  record(tabId, frameId, documentId, lo, hi, skip = []) {
    const t = this.tab(tabId);
    t.next = Math.max(t.next, hi);
    t.high = Math.max(t.high, hi);
    for (const [a, b] of without(lo, hi, skip)) {
      const last = t.ranges[t.ranges.length - 1];
      if (last && last.documentId === documentId && last.frameId === frameId && last.page === t.page && last.hi === a) {
        last.hi = b;
      } else {
        t.ranges.push({ lo: a, hi: b, frameId, documentId, page: t.page });
      }
    }
  }

  /**
   * Where ref was last handed out, if it was on a kept page.
   * @param {number} tabId
   * @param {number} ref
   * @returns {RefRange | undefined}
   */
  lookup(tabId, ref) {
    const ranges = this.tabs.get(tabId)?.ranges ?? [];
    for (let i = ranges.length - 1; i >= 0; i--) {
      if (ref >= ranges[i].lo && ref < ranges[i].hi) return ranges[i];
    }
    return undefined;
  }

  /**
   * Whether the tab ever handed out a number as high as ref: one lookup
   * cannot place is from a page the tab has left.
   * @param {number} tabId
   * @param {number} ref
   */
  handedOut(tabId, ref) {
    return ref < (this.tabs.get(tabId)?.high ?? 1);
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
        if (typeof tab?.next === 'number' && typeof tab.page === 'number' && Array.isArray(tab.ranges)) {
          book.tabs.set(Number(id), tab);
        }
      }
    }
    return book;
  }
}

/**
 * The numbers ranges cover, as sorted spans apart from each other.
 * @param {RefRange[]} ranges
 * @returns {Span[]}
 */
function merged(ranges) {
  /** @type {Span[]} */
  const out = [];
  for (const { lo, hi } of [...ranges].sort((a, b) => a.lo - b.lo)) {
    const last = out[out.length - 1];
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/**
 * [lo, hi) without the numbers of skip, as runs.
 * @param {number} lo
 * @param {number} hi
 * @param {Span[]} skip sorted, apart
 * @returns {Span[]}
 */
export function without(lo, hi, skip) {
  /** @type {Span[]} */
  const out = [];
  let at = lo;
  for (const [a, b] of skip) {
    if (b <= at) continue;
    if (a >= hi) break;
    if (a > at) out.push([at, a]);
    at = Math.max(at, b);
  }
  if (at < hi) out.push([at, hi]);
  return out;
}

/**
 * Parses an agent's ref: "e12", "[e12]", "12" or 12, and as Playwright MCP
 * writes them, "ref=e12" (host/pagetree ParseRef reads the same).
 * @param {unknown} ref
 * @returns {number | undefined}
 */
export function parseRef(ref) {
  if (typeof ref === 'number' && Number.isInteger(ref) && ref > 0) return ref;
  if (typeof ref !== 'string') return undefined;
  const m = /^\[?(?:ref=)?e?(\d+)\]?$/.exec(ref.trim());
  return m ? Number(m[1]) : undefined;
}
