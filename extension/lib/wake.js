// @ts-check
// How the service worker wakes itself. Chrome stops an MV3 worker even while
// it holds the native port (an update or reload, a crash, memory pressure, a
// person at chrome://serviceworker-internals), and a stopped worker runs
// again only for an event it has a listener for. The wake alarm is the one
// such event that comes with nobody doing anything: its period bounds how
// long the extension stays away. Chrome fires a packed MV3 extension's
// alarms at most every 30 s; an unpacked one's ("development", as `Load
// unpacked` and --load-extension install it) as often as every second.

/** The alarm's name. */
export const WAKE_ALARM = 'openchrome-wake';

/** Chrome's minimum period for a packed MV3 extension, in minutes. */
export const PACKED_PERIOD_MINUTES = 0.5;

/**
 * The period for an unpacked extension: 5 s, not Chrome's 1 s minimum, as
 * each firing of a periodic alarm is written to the profile.
 */
export const UNPACKED_PERIOD_MINUTES = 5 / 60;

/**
 * The wake alarm's period for an extension installed as installType
 * (chrome.management.ExtensionInfo's).
 * @param {string | undefined} installType
 * @returns {number} minutes
 */
export function wakePeriodMinutes(installType) {
  return installType === 'development' ? UNPACKED_PERIOD_MINUTES : PACKED_PERIOD_MINUTES;
}

/**
 * Reports whether the wake alarm must be created (again): it is missing, or
 * was set with another period (the extension was packed, or updated).
 * Re-creating an alarm that is there would push its next firing back.
 * @param {{ periodInMinutes?: number } | undefined} alarm what chrome.alarms.get found
 * @param {number} periodInMinutes the period wanted
 * @returns {boolean}
 */
export function needsAlarm(alarm, periodInMinutes) {
  return !alarm || alarm.periodInMinutes !== periodInMinutes;
}
