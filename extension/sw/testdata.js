// @ts-check
/// <reference types="node" />
// A stand-in `chrome` for importing the worker's modules under node: they
// register chrome.* listeners as they load. Tests only.

/**
 * A stand-in for an API object: every property is another stand-in, and a
 * call returns a promise that never settles.
 * @returns {any} anything a module may touch as it loads (any: it stands
 *   for the whole chrome namespace)
 */
export function standIn() {
  /** @type {Map<PropertyKey, unknown>} */
  const props = new Map();
  return new Proxy(function () {}, {
    get(_target, key) {
      if (key === 'then') return undefined; // not a thenable
      if (!props.has(key)) props.set(key, standIn());
      return props.get(key);
    },
    apply: () => new Promise(() => {}),
  });
}

/**
 * Installs a stand-in as the global `chrome`, with the APIs given in place
 * of the stand-in's at their path (say { 'debugger': {...},
 * 'webNavigation.onBeforeNavigate': event() }).
 * @param {Record<string, unknown>} [apis]
 */
export function installChrome(apis = {}) {
  /** @type {any} the worker's global */
  const g = globalThis;
  g.chrome = overlay(standIn(), apis, '');
}

/**
 * @param {any} base
 * @param {Record<string, unknown>} apis
 * @param {string} at the path of base, '' for chrome itself
 * @returns {any}
 */
function overlay(base, apis, at) {
  return new Proxy(base, {
    get(target, key) {
      if (typeof key !== 'string') return target[key];
      const path = at ? `${at}.${key}` : key;
      if (path in apis) return apis[path];
      if (Object.keys(apis).some((p) => p.startsWith(`${path}.`))) return overlay(target[key], apis, path);
      return target[key];
    },
  });
}

/**
 * A chrome.events.Event whose listeners a test calls.
 * @returns {{ addListener: (fn: Function) => void, fire: (...args: unknown[]) => void }}
 */
export function event() {
  /** @type {Function[]} */
  const fns = [];
  return {
    addListener: (fn) => fns.push(fn),
    fire: (...args) => {
      for (const fn of fns) fn(...args);
    },
  };
}
