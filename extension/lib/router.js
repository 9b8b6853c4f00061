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
 * One wire action: its name, whether it takes a tab, and what runs it.
 * @typedef {{ name: string, tab: false, run: Action }
 *   | { name: string, tab: true, run: TabAction }} ActionEntry
 */

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
 * @returns {ActionEntry}
 */
export function tabAction(name, run) {
  return { name, tab: true, run };
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
   * @param {Logger} [options.log]
   * @param {Timers} [options.timers]
   */
  constructor({ actions, checkTab, send, onState, log = console, timers = TIMERS }) {
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
    this.log = log;
    this.timers = timers;
    /** @type {Map<string, Running>} commands in flight, by id */
    this.running = new Map();
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
    return entry.run(p, { ...ctx, tabId, tab });
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
