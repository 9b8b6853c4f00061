// @ts-check
// Retrying Chrome's "user may be dragging a tab" refusals. While a tab is
// being dragged, every tab and tab-group edit fails with "Tabs cannot be edited
// right now (user may be dragging a tab)."; the drag ends within moments, so
// the edit is retried briefly before it is given up.

import { sleep } from './abort.js';

/** The delays between attempts, in ms: about 3 s in all. */
export const DRAG_RETRY_DELAYS = Object.freeze([50, 100, 200, 400, 800, 1600]);

/**
 * Reports whether err is Chrome refusing a tab edit during a drag.
 * @param {unknown} err
 * @returns {boolean}
 */
export function isDragging(err) {
  const text = err instanceof Error ? err.message : String(err);
  return /cannot be edited right now/i.test(text);
}

/**
 * Runs fn, running it again after each delay while it fails with an error
 * that retryable accepts. The last error is thrown as it is.
 * @template T
 * @param {() => Promise<T>} fn
 * @param {object} [options]
 * @param {(err: unknown) => boolean} [options.retryable]
 * @param {readonly number[]} [options.delays]
 * @param {AbortSignal} [options.signal]
 * @param {(ms: number, signal?: AbortSignal) => Promise<void>} [options.wait]
 * @returns {Promise<T>}
 */
export async function retry(fn, {
  retryable = isDragging,
  delays = DRAG_RETRY_DELAYS,
  signal,
  wait = sleep,
} = {}) {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= delays.length || !retryable(err)) throw err;
      await wait(delays[i], signal);
    }
  }
}
