// @ts-check
// A bounded, numbered log: what the extension keeps of each agent tab
// (sw/evidence.js). Each
// entry gets a seq one above the last, so a reader that passes back the
// `next` it was given sees every entry once, and learns how many the ring
// dropped before it could read them.

/** The most entries a ring keeps; older ones are dropped. */
export const RING_CAPACITY = 500;

/**
 * What a reader asks for.
 * @typedef {object} RingQuery
 * @property {number} [since] the first seq wanted (a previous answer's
 *   `next`); 0 or absent for everything kept
 * @property {ReadonlySet<string>} [kinds] only entries of these kinds; absent
 *   for all
 * @property {(entry: any) => boolean} [match] only entries it accepts (any:
 *   each reader knows its ring's entries)
 * @property {number} [limit] at most this many entries
 */

/**
 * @template T
 * @typedef {object} RingPage
 * @property {Array<T & { seq: number, ts: number }>} events oldest first
 * @property {number} next the seq to pass as `since` next time
 * @property {number} dropped entries from `since` on that the ring dropped
 *   before this read (of every kind: the ring does not remember what it
 *   dropped)
 */

/**
 * Ring keeps the newest capacity entries, numbered from 1.
 * @template {{ kind: string }} T
 */
export class Ring {
  /**
   * @param {object} [options]
   * @param {number} [options.capacity]
   * @param {() => number} [options.now] the clock for ts
   */
  constructor({ capacity = RING_CAPACITY, now = Date.now } = {}) {
    this.capacity = capacity;
    this.now = now;
    /** The seq the next entry gets. */
    this.nextSeq = 1;
    /** Oldest first. @type {Array<T & { seq: number, ts: number }>} */
    this.entries = [];
  }

  /**
   * Appends entry with the next seq and the current time, dropping the
   * oldest entry when the ring is full.
   * @param {T} entry
   * @returns {T & { seq: number, ts: number }} the stored entry
   */
  push(entry) {
    const stored = { ...entry, seq: this.nextSeq++, ts: this.now() };
    this.entries.push(stored);
    if (this.entries.length > this.capacity) this.entries.shift();
    return stored;
  }

  /** The number of entries kept. */
  get size() {
    return this.entries.length;
  }

  /**
   * Returns the entries from since on, of the kinds asked for, at most
   * limit of them.
   * @param {RingQuery} [query]
   * @returns {RingPage<T>}
   */
  read({ since = 0, kinds, match, limit = Infinity } = {}) {
    // A since beyond anything numbered comes from a ring that no longer
    // exists (the service worker restarted, or the tab's buffer went with
    // its tab): start over rather than wait for the numbers to catch up.
    const from = Math.max(1, since > this.nextSeq ? 0 : since);
    const oldest = this.entries.length ? this.entries[0].seq : this.nextSeq;
    const dropped = Math.max(0, oldest - from);
    /** @type {Array<T & { seq: number, ts: number }>} */
    const events = [];
    let next = this.nextSeq;
    for (const entry of this.entries) {
      if (entry.seq < from || (kinds && !kinds.has(entry.kind)) || (match && !match(entry))) continue;
      if (events.length >= limit) {
        next = entry.seq;
        break;
      }
      events.push(entry);
    }
    return { events, next, dropped };
  }
}
