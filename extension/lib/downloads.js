// @ts-check
// Which downloads are the agent's, and how they are listed. chrome.downloads
// does not say which tab started a download; CDP's Page.downloadWillBegin,
// on the session of the agent tab that starts one, does, with its URL. A
// download is the agent's when a download of its URL began in an agent tab
// shortly before or after chrome.downloads made it; any other download is
// the person's, and is never listed.

/** How far apart the CDP event and the download's creation may be. */
export const MATCH_MS = 10_000;
/** How many of the agent's downloads are remembered; the oldest go first. */
export const LEDGER_CAPACITY = 200;

/**
 * What the ledger remembers of one of the agent's downloads.
 * @typedef {{ id: number, tabId: number, at: number }} Owned
 */

/**
 * A download as download.list answers it.
 * @typedef {{ id: number, tabId: number, url: string, name: string, path: string,
 *   mimeType: string, state: 'in_progress' | 'complete' | 'interrupted',
 *   bytes: number, totalBytes: number, error?: string, paused?: boolean,
 *   started: string, ended?: string }} Download
 */

export class DownloadLedger {
  /**
   * @param {object} [options]
   * @param {() => number} [options.now]
   * @param {Owned[]} [options.saved] what toJSON gave, from a worker before
   */
  constructor({ now = Date.now, saved = [] } = {}) {
    this.now = now;
    /** @type {Array<{ tabId: number, url: string, at: number }>} CDP events not yet matched */
    this.begun = [];
    /** @type {Array<{ id: number, url: string, at: number }>} downloads not yet matched */
    this.unclaimed = [];
    /** @type {Map<number, Owned>} download id -> owner, oldest first */
    this.owned = new Map(saved.map((o) => [o.id, o]));
  }

  /**
   * CDP saw agent tab tabId begin a download of url.
   * @param {number} tabId
   * @param {string} url
   * @returns {Owned | undefined} the download it matched, if made already
   */
  began(tabId, url) {
    const at = this.now();
    this.expire(at);
    const i = this.unclaimed.findIndex((d) => d.url === url);
    if (i >= 0) {
      const [d] = this.unclaimed.splice(i, 1);
      return this.own(d.id, tabId, d.at);
    }
    this.begun.push({ tabId, url, at });
    return undefined;
  }

  /**
   * What agent tab tabId began at url was not a download after all: a tab
   * it opened there showed a page.
   * @param {number} tabId
   * @param {string} url
   */
  wasPage(tabId, url) {
    const i = this.begun.findIndex((b) => b.tabId === tabId && b.url === url);
    if (i >= 0) this.begun.splice(i, 1);
    return i >= 0;
  }

  /**
   * chrome.downloads made download id of url (finalUrl: where redirects
   * led).
   * @param {number} id
   * @param {string} url
   * @param {string} [finalUrl]
   * @returns {Owned | undefined} the owner, when an agent tab began it
   */
  created(id, url, finalUrl) {
    const at = this.now();
    this.expire(at);
    const i = this.begun.findIndex((b) => b.url === url || b.url === finalUrl);
    if (i >= 0) {
      const [b] = this.begun.splice(i, 1);
      return this.own(id, b.tabId, at);
    }
    this.unclaimed.push({ id, url, at });
    return undefined;
  }

  /**
   * @param {number} id
   * @param {number} tabId
   * @param {number} at
   * @returns {Owned}
   */
  own(id, tabId, at) {
    const o = { id, tabId, at };
    this.owned.set(id, o);
    while (this.owned.size > LEDGER_CAPACITY) {
      this.owned.delete(/** @type {number} */ (this.owned.keys().next().value));
    }
    return o;
  }

  /** @param {number} at */
  expire(at) {
    this.begun = this.begun.filter((b) => at - b.at < MATCH_MS);
    this.unclaimed = this.unclaimed.filter((d) => at - d.at < MATCH_MS);
  }

  /**
   * Reports whether agent tab tabId began a download the browser has not
   * made yet.
   * @param {number} tabId
   */
  awaiting(tabId) {
    this.expire(this.now());
    return this.begun.some((b) => b.tabId === tabId);
  }

  /**
   * The agent's downloads, oldest first: of tabId only when given.
   * @param {number} [tabId]
   * @returns {Owned[]}
   */
  list(tabId) {
    const all = [...this.owned.values()];
    return tabId === undefined ? all : all.filter((o) => o.tabId === tabId);
  }

  /**
   * The download erased (from the browser's list): it is forgotten.
   * @param {number} id
   */
  erased(id) {
    this.owned.delete(id);
  }

  /** What a later worker needs to go on: the owners. */
  toJSON() {
    return [...this.owned.values()];
  }
}

/**
 * A chrome.downloads item as download.list answers it.
 * @param {Pick<chrome.downloads.DownloadItem, 'id' | 'url' | 'finalUrl' | 'filename' | 'mime' |
 *   'state' | 'bytesReceived' | 'totalBytes' | 'error' | 'paused' | 'startTime' | 'endTime'>} item
 * @param {number} tabId
 * @returns {Download}
 */
export function describe(item, tabId) {
  const path = item.filename ?? '';
  /** @type {Download} */
  const d = {
    id: item.id,
    tabId,
    url: item.finalUrl || item.url,
    name: path.split(/[\\/]/).pop() ?? '',
    path,
    mimeType: item.mime ?? '',
    state: /** @type {Download['state']} */ (item.state),
    bytes: item.bytesReceived,
    totalBytes: item.totalBytes,
    started: item.startTime,
  };
  if (item.error) d.error = item.error;
  if (item.paused) d.paused = true;
  if (item.endTime) d.ended = item.endTime;
  return d;
}

/**
 * Reports whether a wait for downloads is over: there is one, and none is
 * still in progress (a paused one waits for the person).
 * @param {Download[]} list
 * @returns {boolean}
 */
export function settled(list) {
  return list.length > 0 && list.every((d) => d.state !== 'in_progress' || d.paused);
}
