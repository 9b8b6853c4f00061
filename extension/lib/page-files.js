// @ts-check
// The page script's files (page/*.js), in the order they are injected
// together into a frame's isolated world: namespace.js first, entry.js last
// (page/namespace.js says why they are classic scripts). Every injection
// uses this one list.

/** @type {readonly string[]} */
export const PAGE_FILES = Object.freeze([
  'page/namespace.js',
  'page/refs.js',
  'page/roles.js',
  'page/tree.js',
  'page/text.js',
  'page/find.js',
  'page/dom.js',
  'page/watch.js',
  'page/handoff.js',
  'page/feedback.js',
  'page/entry.js',
]);

/**
 * page/namespace.js's VERSION. A frame whose script has another version (a
 * tab that still runs an older extension's) gets these files injected anew;
 * page/page-files.test.js checks that the two agree.
 */
export const PAGE_VERSION = 173;
