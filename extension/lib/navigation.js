// @ts-check
// Following one main-frame navigation through the events Chrome reports for
// its tab, to the outcome tab.navigate answers with. Pure: sw/navigation.js
// feeds it from webNavigation, webRequest and tabs events.
//
// A navigation started while another was still loading must not be answered
// by the old one: its late onCompleted, or the net::ERR_ABORTED it gets when
// ours replaces it. Chrome reports both before our onBeforeNavigate, so
// completion and errors count only once our navigation has started. A
// same-document navigation (a fragment, back to a pushState entry) has no
// onBeforeNavigate: it counts only until a cross-document one has started.

import { ActionError } from './errors.js';

/**
 * One event of a tab's main frame.
 * @typedef {{ kind: 'start', url: string }
 *   | { kind: 'commit', url: string }
 *   | { kind: 'status', url: string, status: number }
 *   | { kind: 'ready', url: string }
 *   | { kind: 'complete', url: string }
 *   | { kind: 'same-document', url: string }
 *   | { kind: 'error', error: string, documentId?: string }
 *   | { kind: 'removed' }} NavigationEvent
 *   start: webNavigation.onBeforeNavigate; status: the HTTP status of a
 *   main_frame response for url (webRequest); commit: onCommitted (the
 *   new document's content is arriving); ready: onDOMContentLoaded
 *   (the document is parsed; images and late scripts may still load);
 *   complete: onCompleted (the load event);
 *   same-document: onReferenceFragmentUpdated or onHistoryStateUpdated;
 *   error: onErrorOccurred (documentId: of the document whose load it
 *   ends); removed: the tab closed. All for frame 0.
 */

/**
 * How a navigation ended.
 * loading: the document was ready but its load event had not come when
 * the wait for it ended (a slow image or script of the page's).
 * @typedef {{ url: string, status?: number, loading?: true }} NavigationOutcome
 */

/**
 * NavigationWatch turns a tab's events into the outcome of the navigation
 * that was started after it was made.
 */
export class NavigationWatch {
  /**
   * @param {object} [options]
   * @param {string} [options.expectUrl] the URL navigated to, when known: a
   *   same-document navigation counts only when it lands there (one the page
   *   made itself does not answer ours)
   * @param {string} [options.replaces] the documentId of the document the
   *   tab shows as the navigation begins: if it is still loading (a page
   *   answered as still loading, a slow image), Chrome calls its load off
   *   once ours has started (net::ERR_ABORTED), which is not ours failing
   * @param {() => void} [options.onReady] called when the document is
   *   ready (parsed), for the caller to give its load event a while before
   *   it calls stillLoading
   * @param {() => void} [options.onCommit] called when the new document
   *   commits, for the caller to look, after a while, whether it drew
   *   anything before it is ready (stillLoading(true))
   */
  constructor({ expectUrl, replaces, onReady, onCommit } = {}) {
    this.expectUrl = expectUrl;
    this.replaces = replaces;
    this.onReady = onReady;
    this.onCommit = onCommit;
    this.started = false;
    this.settled = false;
    /** @type {string | undefined} the URL of the document that committed */
    this.committedUrl = undefined;
    /** @type {string | undefined} the URL of the document that is ready */
    this.readyUrl = undefined;
    /**
     * The HTTP status of each URL's main-frame response. Keyed by URL, not
     * ordered by events: for a new tab Chrome reports the response before
     * onBeforeNavigate, and after a redirect the completed URL picks out
     * the final response.
     * @type {Map<string, number>}
     */
    this.statuses = new Map();
    /** @type {(outcome: NavigationOutcome) => void} */
    let resolve = () => {};
    /** @type {(err: ActionError) => void} */
    let reject = () => {};
    /** @type {Promise<NavigationOutcome>} settles once, with the outcome */
    this.done = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.done.catch(() => {}); // the caller may have stopped listening
    this.resolve = resolve;
    this.reject = reject;
  }

  /**
   * Feeds one event of the watched tab's main frame.
   * @param {NavigationEvent} event
   */
  feed(event) {
    if (this.settled) return;
    switch (event.kind) {
      case 'start':
        this.started = true;
        break;
      case 'commit':
        if (this.started) {
          this.committedUrl = event.url;
          this.onCommit?.();
        }
        break;
      case 'status':
        this.statuses.set(event.url, event.status);
        break;
      case 'ready':
        if (this.started && this.readyUrl === undefined) {
          this.readyUrl = event.url;
          this.onReady?.();
        }
        break;
      case 'complete':
        if (this.started) this.settle(event.url, this.statuses.get(event.url));
        break;
      case 'same-document':
        // Once a cross-document navigation has started, a pushState of the
        // page it loads is not the end of it.
        if (this.started) break;
        if (!this.expectUrl || event.url === this.expectUrl) {
          this.settle(event.url, undefined); // nothing was fetched: no status
        }
        break;
      case 'error':
        if (this.started && !(this.replaces && event.documentId === this.replaces)) {
          this.fail(navigationFailed(event.error));
        }
        break;
      case 'removed':
        this.fail(new ActionError(
          'tab_not_found',
          'the tab closed during navigation',
          "call tabs_context for the agent's tabs",
        ));
        break;
    }
  }

  /**
   * Ends the wait for the load event of a document that is ready, or, with
   * drawn, of one that committed and shows a person something though it is
   * not parsed yet (a script that hangs, or a response that streams, holds
   * the rest back): the navigation is answered as still loading. Before
   * then (nothing of the page to read yet), or once answered, it does
   * nothing.
   * @param {boolean} [drawn]
   */
  stillLoading(drawn = false) {
    const url = this.readyUrl ?? (drawn ? this.committedUrl : undefined);
    if (this.settled || url === undefined) return;
    this.settle(url, this.statuses.get(url), true);
  }

  /**
   * @param {string} url
   * @param {number | undefined} status
   * @param {boolean} [loading]
   */
  settle(url, status, loading = false) {
    this.settled = true;
    /** @type {NavigationOutcome} */
    const outcome = { url };
    if (status !== undefined) outcome.status = status;
    if (loading) outcome.loading = true;
    this.resolve(outcome);
  }

  /** @param {ActionError} err */
  fail(err) {
    this.settled = true;
    this.reject(err);
  }
}

/**
 * What the net errors a person meets most mean, and what to do next:
 * [code, why, hint]. The rest say only their name.
 * @type {Record<string, [import('./errors.js').Code, string, string]>}
 */
const NET_ERRORS = {
  'net::ERR_NAME_NOT_RESOLVED': ['not_found', 'no such host', 'check the host name in the URL'],
  'net::ERR_CONNECTION_REFUSED': ['not_found', 'nothing answers at that address', 'check the URL, and that the server is running'],
  'net::ERR_CONNECTION_RESET': ['not_found', 'the server dropped the connection', 'try again; if it goes on, the site is down'],
  'net::ERR_CONNECTION_CLOSED': ['not_found', 'the server closed the connection without an answer', 'try again; if it goes on, the site is down'],
  'net::ERR_EMPTY_RESPONSE': ['not_found', 'the server closed the connection without an answer', 'try again; if it goes on, the site is down'],
  'net::ERR_ADDRESS_UNREACHABLE': ['not_found', 'that address cannot be reached from here', 'check the URL, or the network (a VPN?)'],
  'net::ERR_INTERNET_DISCONNECTED': ['not_found', 'the browser is offline', 'check the network connection'],
  'net::ERR_CONNECTION_TIMED_OUT': ['timeout', 'the server did not answer in time', 'try again later'],
  'net::ERR_TIMED_OUT': ['timeout', 'the server did not answer in time', 'try again later'],
  'net::ERR_TOO_MANY_REDIRECTS': ['conflict', 'the site redirects in a loop',
    'a sign-in gone stale often does this: ask the person to look (oc_handoff_start)'],
  'net::ERR_INVALID_AUTH_CREDENTIALS': ['conflict', 'the site asks for a user name and password in the browser\'s own dialog (HTTP authentication)',
    'only the person signs in there: oc_handoff_start with reason login, then navigate again'],
  'net::ERR_BLOCKED_BY_CLIENT': ['conflict', 'another extension in this browser (a content or ad blocker) blocked it',
    'ask the person to allow the site in that extension'],
  'net::ERR_BLOCKED_BY_ADMINISTRATOR': ['conflict', 'the browser\'s policy, set by its administrator, blocks it', 'this site cannot be opened in this browser'],
  'net::ERR_FILE_NOT_FOUND': ['not_found', 'no such file', 'check the path'],
  'net::ERR_UNSAFE_PORT': ['bad_request', 'Chrome refuses to open that port', 'use the site\'s usual port'],
  'net::ERR_SSL_PROTOCOL_ERROR': ['conflict', 'the secure connection failed', 'check http:// against https:// in the URL'],
};

/**
 * The error a navigation that Chrome reports net error for fails with:
 * always "navigation failed: net::ERR_…", and for the common ones what it
 * means and what to do next. A certificate Chrome does not trust stops at
 * its warning page, which only the person may pass.
 * @param {string} error
 * @returns {ActionError}
 */
export function navigationFailed(error) {
  const known = NET_ERRORS[error] ?? (/^net::ERR_CERT_/.test(error)
    ? ['conflict', 'the site\'s certificate is not trusted, so Chrome stops before the page',
      'check the URL; only the person may choose to go on, in the tab']
    : undefined);
  if (!known) return new ActionError('not_found', `navigation failed: ${error}`);
  const [code, why, hint] = known;
  return new ActionError(code, `navigation failed: ${error}: ${why}`, hint);
}
