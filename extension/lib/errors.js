// @ts-check
// The shared error codes and the one error type actions throw. The list
// mirrors protocol/errors.go; lib/errors.test.js checks it against
// protocol/testdata/codes.json, so a code added there must be added here.

/**
 * @typedef {'bad_request' | 'unauthorized' | 'browser_not_connected'
 *   | 'tab_not_found' | 'tab_not_allowed' | 'stale_ref' | 'not_found'
 *   | 'timeout' | 'cancelled' | 'domain_blocked' | 'budget_exceeded'
 *   | 'too_large' | 'conflict' | 'internal'} Code
 */

/**
 * The error a result carries on the wire.
 * @typedef {{ code: Code, message: string, hint?: string }} WireError
 */

/** Every code, in the order of ARCHITECTURE §4. @type {readonly Code[]} */
export const CODES = Object.freeze([
  'bad_request',
  'unauthorized',
  'browser_not_connected',
  'tab_not_found',
  'tab_not_allowed',
  'stale_ref',
  'not_found',
  'timeout',
  'cancelled',
  'domain_blocked',
  'budget_exceeded',
  'too_large',
  'conflict',
  'internal',
]);

/**
 * Reports whether code is on the shared list.
 * @param {unknown} code
 * @returns {code is Code}
 */
export function isCode(code) {
  return typeof code === 'string' && CODES.includes(/** @type {Code} */ (code));
}

/**
 * ActionError is a coded error whose message and hint may be shown to an
 * agent: keep them to one line and never paste a lower layer's text that could
 * carry secrets into them.
 */
export class ActionError extends Error {
  /**
   * @param {Code} code one of CODES
   * @param {string} message one line, safe to show an agent
   * @param {string} [hint] the call that fixes it, e.g. 'call tabs_context'
   */
  constructor(code, message, hint) {
    super(message);
    this.name = 'ActionError';
    /** @type {Code} */
    this.code = isCode(code) ? code : 'internal';
    /** @type {string | undefined} */
    this.hint = hint || undefined;
  }
}

// A result's message is one line, and an uncoded error's text comes from a
// lower layer (Chrome, CDP): keep it short.
const MAX_INTERNAL_MESSAGE = 300;

/**
 * Returns the wire form of err: an ActionError keeps its code, message and
 * hint; anything else is 'internal' with the first line of its message, for
 * the daemon's log (the daemon decides what reaches an agent).
 * @param {unknown} err
 * @returns {WireError}
 */
export function toWireError(err) {
  if (err instanceof ActionError) {
    /** @type {WireError} */
    const wire = { code: err.code, message: oneLine(err.message) || err.code };
    if (err.hint) wire.hint = oneLine(err.hint);
    return wire;
  }
  const text = err instanceof Error ? err.message : String(err);
  const line = oneLine(text).slice(0, MAX_INTERNAL_MESSAGE);
  const message = line ? `internal error: ${line}` : 'internal error';
  return { code: 'internal', message };
}

/**
 * Returns the first non-empty line of text, trimmed.
 * @param {string} text
 * @returns {string}
 */
export function oneLine(text) {
  for (const line of String(text).split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed) return trimmed;
  }
  return '';
}

/**
 * The refusal of input that would follow a link to another application
 * (mailto:, tel:): Chrome hands it to another program, or asks the person
 * whether to in a prompt that holds the tab's input until they answer.
 * @param {string | undefined} what what the input was aimed at: `link "Mail us"`
 * @param {string} app the link's address
 * @param {string} undone what was not done: "clicked", "pressed"
 */
export function opensApp(what, app, undone) {
  return new ActionError('domain_blocked', `${what ?? 'the link'} opens ${app} in another application, not in the browser: nothing was ${undone}`,
    'agents open no other applications; if the person should use it, tell them the address');
}
