// @ts-check
// The page script's entry, injected last: the method table, and call, which
// the service worker invokes (sw/page-script.js). Its presence says every
// file before it has run.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.call) return; // injected again: the first copy stays

  /** @type {Record<string, (args: any) => unknown>} any: each method reads its own args, which the worker sends as JSON */
  const METHODS = {
    snapshot: oc.tree.snapshot,
    text: oc.text.text,
    find: oc.find.find,
    field: oc.find.field,
    crossFrames: oc.find.crossFrames,
    locate: oc.dom.locate,
    actionable: oc.dom.actionable,
    guard: oc.dom.guard,
    unguard: oc.dom.unguard,
    reaches: oc.dom.reaches,
    dismissers: oc.dom.dismissers,
    listOptions: oc.dom.listOptions,
    scrollState: oc.dom.scrollState,
    appAt: oc.dom.appAt,
    focused: oc.dom.focused,
    dom: oc.dom.dom,
    watch: oc.watch.watch,
    changes: oc.watch.changes,
    check: oc.watch.check,
    shownControls: oc.watch.shownControls,
    successor: oc.watch.successor,
    crawl: oc.text.crawl,
    handoffState: oc.handoff.handoffState,
    feedbackMarks: oc.feedback.feedbackMarks,
  };

  /**
   * Runs one method; errors come back as values, since chrome.scripting
   * loses an exception's fields.
   * @param {string} method
   * @param {unknown} args
   * @returns {PageResult}
   */
  function run(method, args) {
    const fn = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!fn) return { error: { code: 'bad_request', message: `the page script has no method ${method}` } };
    oc.roles.beginCall();
    try {
      return { ok: fn(args ?? {}) };
    } catch (err) {
      if (err instanceof oc.PageError) return { error: { code: err.code, message: err.message, hint: err.hint } };
      return { error: { code: 'internal', message: `page script: ${String(/** @type {Error} */ (err)?.message ?? err).split('\n')[0].slice(0, 300)}` } };
    } finally {
      oc.roles.endCall();
    }
  }

  // The answer crosses to the worker as one JSON string: chrome.scripting
  // converts an object node by node, which for a long page's tree cost more
  // than the walk that made it (48 ms of 178 on the Python docs' stdtypes).
  oc.call = (method, args) => JSON.stringify(run(method, args));
})();
