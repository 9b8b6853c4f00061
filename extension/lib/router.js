// @ts-check
// The command router: one dispatcher for the frames the daemon sends. Each
// command runs its action under an AbortSignal that its timeout or a cancel
// frame aborts, and gets exactly one result, errors included. State frames
// (what the side panel shows) go to onState. The router is given `send`, its
// actions, the tab gate and onState, never the port or `chrome`, so node can
// test it.
//
// The router is the tab gate: an action that takes a tab says so in its
// entry (tabAction), and the router reads its tabId and asks checkTab before
// the action runs. A refused tab ends the command there, so no action
// checks a tab itself.
//
// The router also watches a tab action's page: one still running after
// BUSY_AFTER_MS asks the page, through `answers`, whether its main thread
// takes a command. A page whose own script keeps it busy (a loop a click
// started) holds every input, read and navigation on it until the script
// ends, which may be never; after BUSY_LOOKS looks in a row that it did not
// answer, the command is answered so, with the way out, instead of a
// timeout that says nothing of why.

import { ActionError, toWireError } from './errors.js';
import {
  TYPE,
  clampTimeout,
  decodeBrowserFrame,
  errorResult,
  okResult,
} from './frames.js';
import { tabIdParam } from './params.js';

/** @typedef {import('./frames.js').BrowserFrame} BrowserFrame */
/** @typedef {import('./frames.js').Command} Command */

/**
 * What an action gets besides its params.
 * @typedef {object} ActionContext
 * @property {AbortSignal} signal aborted on timeout or cancel, with an
 *   ActionError ('timeout' or 'cancelled') as its reason
 * @property {string} id the command's id, for logs
 */

/**
 * What the tab gate knows of a tab: in the worker, the chrome.tabs.Tab
 * that sw/tab-group.js's checkTab returns.
 * @typedef {{ id?: number, url?: string, title?: string }} GateTab
 */

/**
 * What a tab action gets: the tab the gate let through, besides the rest.
 * @typedef {ActionContext & { tabId: number, tab: GateTab }} TabContext
 */

/**
 * An action does one thing in the browser and returns the result's data. It
 * honours signal: it rejects promptly once it aborts and tears down what it
 * started.
 * @typedef {(params: Record<string, unknown>, ctx: ActionContext)
 *   => Promise<unknown>} Action
 */

/**
 * A tab action is an action on the tab named by params.tabId, which the
 * router has checked before it runs.
 * @typedef {(params: Record<string, unknown>, ctx: TabContext)
 *   => Promise<unknown>} TabAction
 */

/**
 * One wire action: its name, whether it takes a tab, and what runs it. A
 * tab action whose page the router does not watch (`unwatched`) minds a
 * busy page itself: page.evaluate's own script is what keeps it busy. On a
 * page found stuck before, it is looked at only until the page answers: a
 * script of the page's own would keep it from ever starting.
 * @typedef {{ name: string, tab: false, run: Action }
 *   | { name: string, tab: true, run: TabAction, unwatched?: boolean }} ActionEntry
 */

/**
 * Whether tabId's page answers a command now; false when its main thread
 * has not within ANSWER_MS. It never rejects.
 * @typedef {(tabId: number) => Promise<boolean>} Answers
 */

/** How long a look waits for the page's answer. */
export const ANSWER_MS = 1000;
/** How long a tab action runs before the router looks at its page. */
export const BUSY_AFTER_MS = 5000;
/** The pause between two looks at a page that did not answer. */
export const BUSY_EVERY_MS = 2000;
/**
 * How many looks in a row the page must not answer to count as stuck: they
 * span 16 s, past the 15 s after which Chrome offers the person to end a
 * page that does not answer.
 */
export const BUSY_LOOKS = 6;
/** How many looks in a row a page found stuck before must not answer. */
export const STUCK_LOOKS = 2;
const BUSY_SECONDS = (BUSY_LOOKS * ANSWER_MS + (BUSY_LOOKS - 1) * BUSY_EVERY_MS) / 1000;

/**
 * The gate: returns the tab when the agent may use it, or throws an
 * ActionError (tab_not_found, tab_not_allowed).
 * @typedef {(tabId: number) => Promise<GateTab>} CheckTab
 */

/**
 * The timers the router's timeouts use; tests pass a clock they drive.
 * @typedef {{ setTimeout(fn: () => void, ms: number): unknown,
 *   clearTimeout(handle: unknown): void }} Timers
 */

/**
 * @param {string} name
 * @param {Action} run
 * @returns {ActionEntry}
 */
export function action(name, run) {
  return { name, tab: false, run };
}

/**
 * @param {string} name
 * @param {TabAction} run
 * @param {{ unwatched?: boolean }} [options]
 * @returns {ActionEntry}
 */
export function tabAction(name, run, { unwatched = false } = {}) {
  return { name, tab: true, run, unwatched };
}

/**
 * Joins the action tables of the files under sw/actions/, keyed by file
 * name (tab for actions/tab.js), into one list. It throws (a programmer's
 * error, found when the worker loads) when a name does not start with its
 * file's name and a dot, or appears twice.
 * @param {Record<string, readonly ActionEntry[]>} tables
 * @returns {ActionEntry[]}
 */
export function joinTables(tables) {
  /** @type {ActionEntry[]} */
  const all = [];
  const seen = new Set();
  for (const [file, table] of Object.entries(tables)) {
    for (const entry of table) {
      if (!entry.name.startsWith(`${file}.`)) {
        throw new Error(`action ${entry.name} is in actions/${file}.js: its name must start with "${file}."`);
      }
      if (seen.has(entry.name)) throw new Error(`action ${entry.name} appears twice`);
      seen.add(entry.name);
      all.push(entry);
    }
  }
  return all;
}

/** @type {Timers} */
const TIMERS = {
  // Wrapped: a browser's setTimeout called on another object throws
  // "Illegal invocation".
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(/** @type {Parameters<typeof clearTimeout>[0]} */ (handle)),
};

/**
 * @typedef {Pick<Console, 'warn' | 'debug'>} Logger
 */

/**
 * @typedef {object} Running a command in flight
 * @property {string} action
 * @property {AbortController} controller
 * @property {unknown} timer
 */

/**
 * Router answers command frames through send.
 */
export class Router {
  /**
   * @param {object} options
   * @param {Iterable<ActionEntry>} options.actions every action it answers
   * @param {CheckTab} [options.checkTab] the tab gate; required when an
   *   action takes a tab
   * @param {(frame: BrowserFrame) => void} options.send sends one frame
   * @param {(data: unknown) => void} [options.onState] takes each state
   *   frame's data; without it state frames are ignored
   * @param {Answers} [options.answers] asks a tab's page whether it answers;
   *   without it no page is watched
   * @param {Logger} [options.log]
   * @param {Timers} [options.timers]
   */
  constructor({ actions, checkTab, send, onState, answers, log = console, timers = TIMERS }) {
    /** @type {Map<string, ActionEntry>} action name -> entry */
    this.actions = new Map();
    for (const entry of actions) {
      if (this.actions.has(entry.name)) throw new Error(`router: action ${entry.name} appears twice`);
      if (entry.tab && !checkTab) throw new Error(`router: ${entry.name} takes a tab, and there is no checkTab`);
      this.actions.set(entry.name, entry);
    }
    this.checkTab = checkTab;
    this.send = send;
    this.onState = onState;
    this.answers = answers;
    this.log = log;
    this.timers = timers;
    /** @type {Map<string, Running>} commands in flight, by id */
    this.running = new Map();
    /** @type {Set<number>} tabs whose page was found stuck, until it answers */
    this.stuck = new Set();
  }

  /**
   * Handles one frame from the daemon, as Chrome delivers it (parsed JSON).
   * @param {unknown} input
   */
  handle(input) {
    let frame;
    try {
      frame = decodeBrowserFrame(input);
    } catch (err) {
      this.refuse(input, err);
      return;
    }
    switch (frame.type) {
      case TYPE.COMMAND:
        this.run(frame);
        break;
      case TYPE.CANCEL:
        this.cancel(frame.id);
        break;
      case TYPE.PING:
        this.sendSafely({ type: TYPE.PONG });
        break;
      case TYPE.STATE:
        if (!this.onState) {
          this.log.warn('router: ignoring a state frame');
          break;
        }
        try {
          this.onState(frame.data);
        } catch (err) {
          this.log.warn(`router: state frame: ${toWireError(err).message}`);
        }
        break;
      default:
        this.log.warn(`router: ignoring a ${frame.type} frame`);
    }
  }

  /**
   * Answers a command that does not decode, when its id can be read, so
   * that the daemon is not left waiting for its timeout.
   * @param {unknown} input
   * @param {unknown} err
   */
  refuse(input, err) {
    const raw = /** @type {{ type?: unknown, id?: unknown }} */ (
      typeof input === 'object' && input !== null ? input : {}
    );
    const id = raw.type === TYPE.COMMAND && typeof raw.id === 'string' ? raw.id : '';
    if (id && !this.running.has(id)) {
      this.sendSafely(errorResult(id, toWireError(err)));
      return;
    }
    this.log.warn(`router: dropping a frame: ${toWireError(err).message}`);
  }

  /**
   * Runs one command and sends its one result.
   * @param {Command} command
   */
  run({ id, action: name, params, timeoutMs }) {
    if (this.running.has(id)) {
      // Its first copy will answer; a second result would break the rule.
      this.log.warn(`router: command ${id} is already running`);
      return;
    }
    const ms = clampTimeout(timeoutMs);
    const controller = new AbortController();
    const timer = this.timers.setTimeout(() => {
      this.stop(id, new ActionError('timeout', `${name} timed out after ${ms} ms`));
    }, ms);
    this.running.set(id, { action: name, controller, timer });

    const ctx = { signal: controller.signal, id };
    // The action starts after handle returns, as a microtask.
    Promise.resolve().then(() => this.dispatch(name, params, ctx)).then(
      (data) => this.finish(id, okResult(id, data ?? {})),
      (err) => this.finish(id, errorResult(id, toWireError(err))),
    );
  }

  /**
   * Finds the action, passes a tab action's tab through the gate, and runs
   * it. Whatever it throws becomes the command's one error result.
   * @param {string} name
   * @param {unknown} params
   * @param {ActionContext} ctx
   * @returns {Promise<unknown>}
   */
  async dispatch(name, params, ctx) {
    const entry = this.actions.get(name);
    if (!entry) {
      throw new ActionError('bad_request', `unknown action ${JSON.stringify(name)}`);
    }
    const p = paramsOf(params);
    if (!entry.tab) return entry.run(p, ctx);
    const tabId = tabIdParam(p);
    const tab = await /** @type {CheckTab} */ (this.checkTab)(tabId);
    // Answered already (timeout, cancel): the action does not start.
    ctx.signal.throwIfAborted();
    const unwatch = entry.unwatched && !this.stuck.has(tabId)
      ? () => {}
      : this.watch(ctx.id, tabId, entry.unwatched);
    try {
      return await entry.run(p, { ...ctx, tabId, tab });
    } finally {
      unwatch();
    }
  }

  /**
   * Watches command id's page while it runs: from BUSY_AFTER_MS on, asks
   * whether the page answers, and answers the command once it has not
   * BUSY_LOOKS times in a row. Returns the function that stops watching.
   * @param {string} id
   * @param {number} tabId
   * @param {boolean} [untilAnswered] stop looking once the page answers
   * @returns {() => void}
   */
  watch(id, tabId, untilAnswered = false) {
    const answers = this.answers;
    if (!answers) return () => {};
    let stopped = false;
    let unanswered = 0;
    /** @type {unknown} */
    let timer;
    const look = async () => {
      const answered = await answers(tabId);
      if (stopped) return;
      unanswered = answered ? 0 : unanswered + 1;
      if (answered) this.stuck.delete(tabId);
      if (answered && untilAnswered) return;
      // A page found stuck before needs two looks more, not the whole run:
      // a navigation away from it has the time between them to commit.
      if (unanswered < (this.stuck.has(tabId) ? STUCK_LOOKS : BUSY_LOOKS)) {
        timer = this.timers.setTimeout(look, answered ? BUSY_AFTER_MS : BUSY_EVERY_MS);
        return;
      }
      this.stuck.add(tabId);
      this.stop(id, new ActionError(
        'timeout',
        `the page has not answered for ${BUSY_SECONDS} s: a script of its own keeps it busy (a long task, or a loop that does not end); what was sent before may have reached it`,
        'if it is only slow, wait_for with timeoutMs, then read_page; else tabs_close ends it (a navigation to another URL may get past it; reads, input, back and reload wait on it until its script ends)',
      ));
    };
    timer = this.timers.setTimeout(look, this.stuck.has(tabId) ? 0 : BUSY_AFTER_MS);
    return () => {
      stopped = true;
      this.timers.clearTimeout(timer);
    };
  }

  /**
   * Cancels command id: its signal aborts and it is answered 'cancelled'.
   * A cancel for an unknown or finished id is ignored.
   * @param {string} id
   */
  cancel(id) {
    this.stop(id, new ActionError('cancelled', 'command cancelled'));
  }

  /**
   * Cancels every command in flight, e.g. when the port closes, or every
   * one but except (browser.stop, which must still answer).
   * @param {object} [options]
   * @param {string} [options.except] the id of a command to leave running
   * @param {string} [options.message] why, for each result
   * @returns {number} how many it cancelled
   */
  cancelAll({ except, message = 'the native host went away' } = {}) {
    let n = 0;
    for (const id of [...this.running.keys()]) {
      if (id === except) continue;
      this.stop(id, new ActionError('cancelled', message));
      n++;
    }
    return n;
  }

  /** The number of commands in flight. */
  get size() {
    return this.running.size;
  }

  /**
   * Answers command id with reason, then aborts its signal with it. The
   * action's own settling comes later and is dropped by finish.
   * @param {string} id
   * @param {ActionError} reason
   */
  stop(id, reason) {
    const running = this.running.get(id);
    if (!running) return;
    this.finish(id, errorResult(id, toWireError(reason)));
    running.controller.abort(reason);
  }

  /**
   * Sends frame as command id's result unless it has been answered already.
   * @param {string} id
   * @param {BrowserFrame} frame
   */
  finish(id, frame) {
    const running = this.running.get(id);
    if (!running) {
      this.log.debug?.(`router: late ${frame.type} for ${id} dropped`);
      return;
    }
    this.running.delete(id);
    this.timers.clearTimeout(running.timer);
    this.sendSafely(frame);
  }

  /** @param {BrowserFrame} frame */
  sendSafely(frame) {
    try {
      this.send(frame);
    } catch (err) {
      this.log.warn(`router: cannot send a ${frame.type}: ${toWireError(err).message}`);
    }
  }
}

/**
 * Returns a command's params as an object; absent params are {}.
 * @param {unknown} params
 * @returns {Record<string, unknown>}
 */
function paramsOf(params) {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new ActionError('bad_request', 'params must be a JSON object');
  }
  return /** @type {Record<string, unknown>} */ (params);
}
