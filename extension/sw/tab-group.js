// @ts-check
// The sole judge of which tabs are the agent's: the tabs of tab groups titled
// "OpenChrome" (one per window). The groups themselves, not memory, are the
// source of truth, so a restarted worker finds its tabs again and a tab the
// user drags into a group becomes drivable.

import { ActionError } from '../lib/errors.js';
import { retry } from '../lib/retry.js';
import * as cdp from './cdp.js';

export const GROUP_TITLE = 'OpenChrome';

// A tab the user drags out of the group stops being the agent's at once:
// its debugger goes (and with it the "started debugging" bar). Registered at
// the top level, in the worker's first evaluation.
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.groupId === undefined) return;
  isGroupOurs(change.groupId).then((ours) => {
    if (!ours) cdp.detach(tabId);
  });
});
/** @type {`${chrome.tabGroups.Color}`} */
const GROUP_COLOR = 'blue';

const HINT_NOT_FOUND = "call tabs_context for the agent's tabs";
const HINT_NOT_ALLOWED =
  'open one with tabs_create, or drag the tab into the OpenChrome group';

/**
 * The ids of the OpenChrome groups, in every window.
 * @returns {Promise<Set<number>>}
 */
async function groupIds() {
  // query's title is a pattern; keep the exact matches.
  const groups = await chrome.tabGroups.query({ title: GROUP_TITLE });
  return new Set(groups.filter((g) => g.title === GROUP_TITLE).map((g) => g.id));
}

/**
 * Returns the agent's tabs, in tab-strip order (window by window).
 * @returns {Promise<chrome.tabs.Tab[]>}
 */
export async function listTabs() {
  const ids = await groupIds();
  if (ids.size === 0) return [];
  const tabs = await chrome.tabs.query({});
  return tabs
    .filter((t) => ids.has(t.groupId))
    .sort((a, b) => a.windowId - b.windowId || a.index - b.index);
}

/**
 * Returns tab tabId when it is the agent's.
 * @param {number} tabId
 * @returns {Promise<chrome.tabs.Tab>}
 * @throws {ActionError} tab_not_found or tab_not_allowed
 */
export async function checkTab(tabId) {
  let tab;
  try {
    tab = await chrome.tabs.get(tabId);
  } catch {
    throw new ActionError('tab_not_found', `no tab ${tabId}`, HINT_NOT_FOUND);
  }
  if (!(await isGroupOurs(tab.groupId))) {
    throw new ActionError(
      'tab_not_allowed',
      `tab ${tabId} is not in the OpenChrome tab group`,
      HINT_NOT_ALLOWED,
    );
  }
  return tab;
}

/**
 * @param {number} groupId
 * @returns {Promise<boolean>}
 */
async function isGroupOurs(groupId) {
  if (groupId === chrome.tabGroups.TAB_GROUP_ID_NONE) return false;
  try {
    const group = await chrome.tabGroups.get(groupId);
    return group.title === GROUP_TITLE;
  } catch {
    return false; // the group went away meanwhile
  }
}

/**
 * Reports whether tabId is one of the agent's tabs; false for a tab that is
 * gone.
 * @param {number} tabId
 * @returns {Promise<boolean>}
 */
export async function isAgentTab(tabId) {
  try {
    return await isGroupOurs((await chrome.tabs.get(tabId)).groupId);
  } catch {
    return false;
  }
}

/** @type {Promise<unknown>} */
let grouping = Promise.resolve();

/**
 * Opens a tab on url inside the OpenChrome group of the last focused normal
 * window, making the group (or a window) when there is none. The tab starts
 * loading before it joins the group; if it cannot join, it is closed.
 * @param {object} options
 * @param {string} options.url
 * @param {boolean} options.active
 * @returns {Promise<chrome.tabs.Tab>}
 */
export async function createTab({ url, active }) {
  const win = await lastFocusedWindow();
  let tab;
  if (win?.id === undefined) {
    const created = await chrome.windows.create({ url, focused: active });
    tab = created?.tabs?.[0];
  } else {
    tab = await chrome.tabs.create({ windowId: win.id, url, active });
  }
  const tabId = tab?.id;
  if (!tab || tabId === undefined) {
    throw new ActionError('internal', 'the browser opened no tab');
  }
  try {
    await joinOneAtATime(tabId, tab.windowId);
  } catch (err) {
    chrome.tabs.remove(tabId).catch(() => {});
    throw err;
  }
  return chrome.tabs.get(tabId);
}

/**
 * Brings tabId, which one of the agent's tabs opened, into the agent's
 * group. A popup window has no tab strip to group in: its tab moves to the
 * opener's window first (window.opener and the page survive the move), at
 * its end: a place inside the group, next to the opener when the group
 * holds a tab after it, is refused to a tab not in the group yet. Joining
 * the group takes it there.
 * @param {number} tabId
 * @param {number} openerTabId
 * @returns {Promise<chrome.tabs.Tab>}
 */
export async function adoptTab(tabId, openerTabId) {
  const opener = await chrome.tabs.get(openerTabId);
  let tab = await chrome.tabs.get(tabId);
  if (await isGroupOurs(tab.groupId)) return tab; // Chrome groups a link's tab itself
  const win = await chrome.windows.get(tab.windowId);
  if (win.type !== 'normal') {
    await retry(() => chrome.tabs.move(tabId, { windowId: opener.windowId, index: -1 }));
    tab = await chrome.tabs.get(tabId);
  }
  await joinOneAtATime(tabId, tab.windowId);
  return chrome.tabs.get(tabId);
}

/**
 * joinGroup, one at a time: two tabs grouped at once must not make two
 * groups.
 * @param {number} tabId
 * @param {number} windowId
 */
function joinOneAtATime(tabId, windowId) {
  const joined = grouping.then(() => joinGroup(tabId, windowId));
  grouping = joined.catch(() => {});
  return joined;
}

/**
 * Puts tabId in its window's OpenChrome group, making the group if needed.
 * @param {number} tabId
 * @param {number} windowId
 */
async function joinGroup(tabId, windowId) {
  const groups = await chrome.tabGroups.query({ windowId, title: GROUP_TITLE });
  const group = groups.find((g) => g.title === GROUP_TITLE);
  if (group) {
    await retry(() => chrome.tabs.group({ groupId: group.id, tabIds: tabId }));
    return;
  }
  const groupId = await retry(() =>
    chrome.tabs.group({ tabIds: tabId, createProperties: { windowId } }));
  await retry(() =>
    chrome.tabGroups.update(groupId, { title: GROUP_TITLE, color: GROUP_COLOR }));
}

/**
 * The last focused normal window, or undefined when there is none.
 * @returns {Promise<chrome.windows.Window | undefined>}
 */
async function lastFocusedWindow() {
  try {
    const win = await chrome.windows.getLastFocused({ windowTypes: ['normal'] });
    return win.type === 'normal' ? win : undefined;
  } catch {
    return undefined; // "No last-focused window"
  }
}

/**
 * Closes tab tabId, which must be the agent's: tab.close takes a tab, so the
 * router's gate has checked it with checkTab.
 * @param {number} tabId
 */
export async function closeTab(tabId) {
  await retry(() => chrome.tabs.remove(tabId));
}

/**
 * Runs work on tabId, answering closed instead when the tab closes first or
 * work fails because it closed: input that closes its own tab, as a sign-in
 * popup's button does, has taken effect.
 * @template T, C
 * @param {number} tabId
 * @param {() => Promise<T>} work
 * @param {C} closed
 * @returns {Promise<T | C>}
 */
export async function unlessClosed(tabId, work, closed) {
  /** @type {(id: number) => void} */
  let listener = () => {};
  const removed = new Promise((resolve) => {
    listener = (id) => {
      if (id === tabId) resolve(closed);
    };
    chrome.tabs.onRemoved.addListener(listener);
  });
  const p = work();
  p.catch(() => {}); // when the tab closes first, what work waited for fails unheard
  try {
    return await Promise.race([p, removed]);
  } catch (err) {
    if (await isGone(tabId)) return closed;
    throw err;
  } finally {
    chrome.tabs.onRemoved.removeListener(listener);
  }
}

/**
 * @param {number} tabId
 * @returns {Promise<boolean>}
 */
async function isGone(tabId) {
  try {
    await chrome.tabs.get(tabId);
    return false;
  } catch {
    return true;
  }
}

/**
 * Shows tabId in its window before trusted input or a screenshot, when the
 * window shows one of the agent's tabs now: Chrome draws no frame of a
 * hidden tab, and a mouse move or a wheel, which the page gets with its
 * next frame, is answered only after seconds. A window that shows the
 * person's own tab keeps showing it; the input then goes to the hidden tab
 * (sw/trusted-input.js says how). Reports whether the tab is shown.
 * @param {number} tabId
 * @returns {Promise<boolean>}
 */
export async function showForInput(tabId) {
  const tab = await chrome.tabs.get(tabId);
  if (tab.active) return true;
  const [shown] = await chrome.tabs.query({ windowId: tab.windowId, active: true });
  if (shown && !(await isGroupOurs(shown.groupId))) return false;
  await chrome.tabs.update(tabId, { active: true });
  return true;
}
