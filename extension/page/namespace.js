// @ts-check
// The page script: sw/page-script.js injects the files of lib/page-files.js,
// in that order, into a frame's isolated world (chrome.scripting, world
// ISOLATED), then calls it by name through __openchrome.call. It reads the
// page (a compact accessibility-style tree, readable Markdown), keeps the
// refs it hands out, and finds, locates and watches elements for the actions
// the service worker drives with trusted input.
//
// Classic scripts, not modules: chrome.scripting injects files as scripts,
// and an import() from the isolated world needs the file to be web
// accessible, which would let any site detect the extension. So the files
// share one namespace object, globalThis.__openchrome (types in
// types/page-script.d.ts), and each is an IIFE that registers its part on
// it: top-level const and let of classic scripts share one lexical scope, so
// a second injection of a file that declared them would throw. A second
// injection of the same VERSION changes nothing (each part is registered
// once, and the refs live on); a namespace of another version (a tab that
// still runs an older extension's script) is replaced whole. The banner
// (page/banner.js) shares the isolated world under __openchromeBanner.
//
// The isolated world lives as long as the document, so the ref registry
// does too: a ref means the same element until the element goes away or the
// frame navigates.
//
// This file comes first: it makes the namespace, with its VERSION (which
// lib/page-files.js's PAGE_VERSION repeats for the service worker; bump both
// whenever a method changes) and the error the methods throw.

(() => {
  const VERSION = 173;
  const g = globalThis;
  if (g.__openchrome?.version === VERSION) return;

  /**
   * An error a method returns to the service worker with its code.
   * @implements {PageErrorInstance}
   */
  class PageError extends Error {
    /**
     * @param {string} code
     * @param {string} message
     * @param {string} [hint]
     */
    constructor(code, message, hint) {
      super(message);
      this.code = code;
      this.hint = hint;
    }
  }

  // Not yet a whole PageNamespace: the files after this one fill in the
  // rest, in order, before anything can call it (entry.js's call is last).
  g.__openchrome = /** @type {PageNamespace} */ (/** @type {unknown} */ ({ version: VERSION, PageError }));
})();
