// @ts-check
// tab.*: list, look up, create, close and navigate the agent's tabs.

import { ActionError } from '../../lib/errors.js';
import { boolParam, enumParam, stringParam } from '../../lib/params.js';
import { action, tabAction } from '../../lib/router.js';
import { checkUrl } from '../../lib/url.js';
import * as cdp from '../cdp.js';
import * as dialogs from '../dialogs.js';
import * as downloads from '../downloads.js';
import * as evidence from '../evidence.js';
import { routeDrawn, watchPage } from '../input-effects.js';
import * as navigation from '../navigation.js';
import * as pageScript from '../page-script.js';
import * as policy from '../policy.js';
import * as popups from '../popups.js';
import { siteSecrets } from '../secrets.js';
import { closeTab, createTab, listTabs } from '../tab-group.js';

/** @typedef {import('../../lib/router.js').Action} Action */
/** @typedef {import('../../lib/router.js').TabAction} TabAction */

/**
 * A tab as actions report it (docs/wire.md).
 * @typedef {{ tabId: number, url: string, title: string, active: boolean,
 *   status: string, openerTabId?: number }} Tab
 */

/**
 * @param {chrome.tabs.Tab} tab
 * @returns {Tab}
 */
function describe(tab) {
  const tabId = /** @type {number} */ (tab.id);
  /** @type {Tab} */
  const out = {
    tabId,
    url: tab.url || tab.pendingUrl || '',
    title: tab.title ?? '',
    active: tab.active,
    status: tab.status ?? 'complete',
  };
  // Ours first: Chrome forgets the opener of a tab that moved windows.
  const opener = popups.openerOf(tabId) ?? tab.openerTabId;
  if (opener !== undefined) out.openerTabId = opener;
  return out;
}

/**
 * tab.list: the agent's tabs, in tab-strip order.
 * @type {Action}
 */
async function list() {
  return { tabs: (await listTabs()).map(describe) };
}

/**
 * tab.get: one of the agent's tabs, which the router's gate has found.
 * @type {TabAction}
 */
async function get(_params, { tab }) {
  return describe(/** @type {chrome.tabs.Tab} */ (tab));
}

/**
 * tab.create: opens a tab in the OpenChrome group and waits until it has
 * loaded url (or about:blank); answers as tab.navigate does. If the load
 * fails the tab is closed again.
 * @type {Action}
 */
async function create(params, { signal }) {
  const raw = stringParam(params, 'url');
  const url = raw === undefined ? 'about:blank' : checkUrl(raw);
  const active = boolParam(params, 'active', true);
  // Blank first, watched, then loaded: what the page logs and fetches while
  // it loads is kept too (sw/evidence.js).
  const tab = await createTab({ url: 'about:blank', active });
  const tabId = /** @type {number} */ (tab.id);
  const withSecrets = boolParam(params, 'secrets', false);
  try {
    await evidence.watch(tabId);
    if (url === 'about:blank') return loaded(tabId, { url }, withSecrets);
    const outcome = await go(tabId, () => chrome.tabs.update(tabId, { url }), { signal, expectUrl: url });
    return await loaded(tabId, outcome, withSecrets);
  } catch (err) {
    chrome.tabs.remove(tabId).catch(() => {});
    throw err;
  }
}

/**
 * What tab.create and tab.navigate answer: where the tab ended up, and the
 * HTTP status of the main-frame response when there was one. With
 * withSecrets, the site's secrets too (sw/secrets.js), read from the page
 * it landed on: the engine masks the call's result with them, and need not
 * ask profile.secrets after. The clickables of that page begin to be marked
 * (page-script.js markAhead), for the read that usually follows.
 * @param {number} tabId
 * @param {{ url: string, status?: number, loading?: true, downloads?: { id: number, name: string }[] }} outcome
 * @param {boolean} withSecrets
 */
async function loaded(tabId, outcome, withSecrets) {
  if (outcome.url !== 'about:blank') pageScript.markAhead(tabId);
  const tab = await chrome.tabs.get(tabId);
  /** @type {{ tabId: number, url: string, title: string, status?: number, loading?: true, downloads?: { id: number, name: string }[], secrets?: string[] }} */
  const data = {
    tabId,
    url: tab.url || outcome.url,
    title: tab.title ?? '',
  };
  if (outcome.status !== undefined) data.status = outcome.status;
  if (outcome.loading) data.loading = true;
  if (outcome.downloads) data.downloads = outcome.downloads;
  if (withSecrets) Object.assign(data, await siteSecrets(tabId, data.url));
  return data;
}

/**
 * tab.close: closes one of the agent's tabs.
 * @type {TabAction}
 */
async function close(_params, { tabId }) {
  // As a navigation: a page that asks before it is left (a draft not
  // saved) holds the close until its dialog is answered.
  await cdp.attach(tabId).catch(() => {});
  const held = dialogs.current(tabId);
  if (held?.type === 'beforeunload') throw leaveAsked(held, true);
  const dialog = dialogs.next(tabId);
  const closing = closeTab(tabId);
  closing.catch(() => {}); // it ends when the dialog is answered, if ever
  try {
    const d = await Promise.race([closing.then(() => undefined), dialog.opened]);
    if (d) throw leaveAsked(d, true);
  } finally {
    dialog.cancel();
  }
  return { tabId };
}

const DIRECTIONS = /** @type {const} */ (['back', 'forward', 'reload']);

/**
 * tab.navigate: opens url in the tab, or goes back, forward or reloads, and
 * waits until the main frame has finished loading.
 * @type {TabAction}
 */
async function navigate(params, { tabId, signal }) {
  const raw = stringParam(params, 'url');
  const direction = enumParam(params, 'direction', DIRECTIONS);
  if ((raw === undefined) === (direction === undefined)) {
    throw new ActionError('bad_request', 'pass either url or direction');
  }
  const url = raw === undefined ? undefined : checkUrl(raw);

  /** @type {() => Promise<unknown>} */
  let begin;
  if (url !== undefined) {
    begin = () => chrome.tabs.update(tabId, { url });
  } else if (direction === 'reload') {
    begin = () => chrome.tabs.reload(tabId);
  } else {
    begin = () => goHistory(tabId, direction === 'back' ? -1 : 1, signal);
  }
  // Back or forward to a route an app drew in place is drawn by the app
  // after the address changed: watched, to answer once it is.
  const w = direction === 'back' || direction === 'forward' ? await watchPage(tabId, signal) : undefined;
  const start = Date.now();
  let outcome;
  try {
    outcome = await go(tabId, begin, { signal, expectUrl: url });
    const now = await w?.look(false);
    if (now?.urlChanged && !now.lost) await routeDrawn(tabId, start, () => /** @type {NonNullable<typeof w>} */ (w).look(false), now, signal);
  } finally {
    w?.look(true); // ends the watch
  }
  return loaded(tabId, outcome, boolParam(params, 'secrets', false));
}

/** How long a navigation Chrome called off waits for the download it became. */
const ABORTED_MS = 1000;

/**
 * navigation.navigate, saying domain_blocked when the site policy stopped
 * where it went (a redirect to a blocked origin, say).
 * @param {number} tabId
 * @param {() => Promise<unknown>} begin
 * @param {{ signal: AbortSignal, expectUrl?: string }} options
 */
async function go(tabId, begin, options) {
  const start = Date.now();
  // Attached, so that a beforeunload dialog the page raises is seen: the
  // navigation waits on it, and so would this call.
  await cdp.attach(tabId, options.signal).catch(() => options.signal.throwIfAborted());
  // A dialog already open (a beforeunload a click raised) holds any
  // navigation until it is answered: say so now, not at the timeout.
  const held = dialogs.current(tabId);
  if (held?.type === 'beforeunload') throw leaveAsked(held);
  dialogs.refuseWhileOpen(tabId);
  const dialog = dialogs.next(tabId);
  const going = navigation.navigate(tabId, begin, options);
  going.catch(() => {}); // it may end after a dialog ended the call
  try {
    const first = await Promise.race([going, dialog.opened.then((d) => ({ dialog: d }))]);
    if (first && typeof first === 'object' && 'dialog' in first) {
      const d = first.dialog;
      if (d.type === 'beforeunload') throw leaveAsked(d);
      throw new ActionError('conflict', `a JavaScript dialog opened while the page loaded: ${dialogs.describe(d)}`,
        'call interact with action accept_dialog or dismiss_dialog; the page loads on after it');
    }
    return /** @type {Awaited<typeof going>} */ (first);
  } catch (err) {
    const no = policy.refusedSince(tabId, start);
    if (no) throw new ActionError('domain_blocked', `${no.message}: the navigation to ${no.url} was stopped`, no.hint);
    // A URL that is a file is downloaded, not shown: Chrome calls the
    // navigation off (net::ERR_ABORTED) and the tab stays where it was.
    // That is what the agent asked for, not a failure.
    const files = err instanceof ActionError && /ERR_ABORTED/.test(err.message) ? await downloads.navigatedTo(tabId, start, ABORTED_MS) : [];
    if (files.length) return { url: (await chrome.tabs.get(tabId)).url ?? '', downloads: files };
    throw err;
  } finally {
    dialog.cancel();
  }
}

/**
 * The error of a navigation, or with closing a close, a beforeunload
 * dialog holds.
 * @param {dialogs.Dialog} d
 * @param {boolean} [closing]
 */
function leaveAsked(d, closing = false) {
  return new ActionError('conflict',
    `the page asks before it is left (${dialogs.describe(d)}): ${closing ? 'the tab is still open' : 'it has not navigated yet'}`,
    closing ? 'call interact with action accept_dialog to close it, or dismiss_dialog to keep it'
      : 'call interact with action accept_dialog to leave, or dismiss_dialog to stay');
}

/**
 * Starts going one entry back (-1) or forward (1) in the tab's history.
 *
 * Not chrome.tabs.goBack: it skips entries the way the back button does, and
 * the back button skips every page the user never interacted with (Chrome's
 * history manipulation intervention), which is every page an agent opened
 * with tab.navigate; goBack then says "Cannot find a next page in history."
 * although there is one. CDP's history has every entry, as history.back() in
 * the page would.
 * @param {number} tabId
 * @param {-1 | 1} step
 * @param {AbortSignal} signal
 */
async function goHistory(tabId, step, signal) {
  const history = await cdp.send(tabId, 'Page.getNavigationHistory', {}, { signal });
  /** @type {{ id: number }[]} */
  const entries = history.entries ?? [];
  const entry = entries[history.currentIndex + step];
  if (!entry) {
    throw new ActionError(
      'bad_request',
      `the tab has no page to go ${step < 0 ? 'back' : 'forward'} to`,
      'call navigate with a url',
    );
  }
  await cdp.send(tabId, 'Page.navigateToHistoryEntry', { entryId: entry.id }, { signal });
}

export const ACTIONS = [
  action('tab.list', list),
  tabAction('tab.get', get),
  action('tab.create', create),
  tabAction('tab.close', close),
  tabAction('tab.navigate', navigate),
];
