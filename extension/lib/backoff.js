// @ts-check
// The reconnect schedule of the native port. Chrome respawns the host on every
// connectNative, so a host that cannot start (not installed, crashing) must not
// be respawned in a tight loop; a host that ran fine for a while and then went
// away (an update, a kill) is retried quickly again.

/**
 * @typedef {object} BackoffOptions
 * @property {number} [initialMs] the first delay (100 ms)
 * @property {number} [maxMs] no delay is longer (5 s)
 * @property {number} [stableMs] a connection that stayed up this long
 *   resets the schedule (5 s)
 */

/**
 * Backoff hands out the delay before each reconnect: initialMs, doubling on
 * every failure, capped at maxMs, back to initialMs once a connection has
 * stayed up for stableMs. It reads no clock: callers pass the time in.
 */
export class Backoff {
  /** @param {BackoffOptions} [options] */
  constructor({ initialMs = 100, maxMs = 5_000, stableMs = 5_000 } = {}) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
    this.stableMs = stableMs;
    /** failures since the last stable connection */
    this.attempt = 0;
    /** @type {number | undefined} when the current connection started */
    this.connectedAt = undefined;
  }

  /**
   * Records that a connection was opened at now (ms).
   * @param {number} now
   */
  connected(now) {
    this.connectedAt = now;
  }

  /**
   * Records that the connection closed at now (ms) and returns how long to
   * wait before the next attempt.
   * @param {number} now
   * @returns {number} milliseconds
   */
  disconnected(now) {
    if (this.connectedAt !== undefined && now - this.connectedAt >= this.stableMs) {
      this.attempt = 0;
    }
    this.connectedAt = undefined;
    const delay = Math.min(this.initialMs * 2 ** this.attempt, this.maxMs);
    if (delay < this.maxMs) this.attempt++;
    return delay;
  }
}
