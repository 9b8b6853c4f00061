// @ts-check
// Wire frames: the extension's mirror of protocol/frame.go. Decoding checks
// what Go's does (field types, ids present, results one-sided, unknown error
// codes made internal) and returns the frame as Go would encode it again, so
// both suites can round-trip the golden vectors in protocol/testdata/.
//
// Go's encoding/json also matches field names case-insensitively; the wire
// never relies on that, so this mirror does not.

import { ActionError, isCode } from './errors.js';

/** @typedef {import('./errors.js').WireError} WireError */

/** Frame type names, the value of every frame's "type" field. */
export const TYPE = Object.freeze({
  HELLO: 'hello',
  READY: 'ready',
  CALL: 'call',
  PROGRESS: 'progress',
  RESULT: 'result',
  CANCEL: 'cancel',
  PING: 'ping',
  PONG: 'pong',
  ERROR: 'error',
  COMMAND: 'command',
  EVENT: 'event',
  STATE: 'state',
  ASK: 'ask',
  ANSWER: 'answer',
});

/** What the person did with an ask (protocol.Answer*), as MCP elicitation says it. */
const ANSWER_ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** Roles a peer declares in its hello. */
export const ROLE = Object.freeze({ AGENT: 'agent', EXTENSION: 'extension' });

/** A command without a timeout gets this many milliseconds. */
export const DEFAULT_COMMAND_MS = 30_000;
/** No command runs longer than this, whatever it asks for. */
export const MAX_COMMAND_MS = 600_000;

/**
 * Returns the timeout for a command that asked for ms milliseconds: the
 * default when ms is missing or <= 0, at most MAX_COMMAND_MS (as Go's
 * protocol.ClampTimeout).
 * @param {unknown} ms
 * @returns {number}
 */
export function clampTimeout(ms) {
  if (typeof ms !== 'number' || !(ms > 0)) return DEFAULT_COMMAND_MS;
  return Math.min(ms, MAX_COMMAND_MS);
}

/**
 * @typedef {{ type: 'hello', role: string, version: string, client?: string,
 *   browser?: string, profile?: string }} Hello
 * @typedef {{ type: 'command', id: string, action: string, params?: unknown,
 *   timeoutMs: number }} Command
 * @typedef {{ type: 'result', id: string, ok: boolean, data?: unknown,
 *   error?: WireError }} CommandResult
 * @typedef {{ type: 'cancel', id: string }} Cancel
 * @typedef {{ type: 'progress', id: string, progress: number, total?: number,
 *   message?: string }} Progress
 * @typedef {{ type: 'event', name: string, data?: unknown }} Event
 * @typedef {{ type: 'state', data: unknown }} State
 * @typedef {{ type: 'ping' }} Ping
 * @typedef {{ type: 'pong' }} Pong
 * @typedef {{ type: 'error', error: WireError | null }} Fail
 * @typedef {Hello | Command | CommandResult | Cancel | Progress | Event
 *   | State | Ping | Pong | Fail} BrowserFrame
 *   A frame of the browser channel (daemon <-> extension).
 * @typedef {{ type: string, [field: string]: unknown }} AgentFrame
 *   A frame of the agent channel; the extension only needs it for tests.
 */

// Schemas. A spec says how Go decodes one JSON value into its type and how it
// encodes it again: nil pointers, slices and raw messages are `undefined`
// here and become null (or vanish under omitempty) on the way out.

/**
 * @typedef {{ kind: 'string' } | { kind: 'int' } | { kind: 'float' }
 *   | { kind: 'bool' } | { kind: 'raw' } | { kind: 'base64' }
 *   | { kind: 'struct', fields: Field[] } | { kind: 'ptr', to: Spec }
 *   | { kind: 'slice', of: Spec }} Spec
 * @typedef {{ name: string, spec: Spec, omitempty: boolean }} Field
 */

/** @type {Spec} */ const STRING = { kind: 'string' };
/** @type {Spec} */ const INT = { kind: 'int' };
/** @type {Spec} */ const FLOAT = { kind: 'float' };
/** @type {Spec} */ const BOOL = { kind: 'bool' };
/** @type {Spec} */ const RAW = { kind: 'raw' };
/** @type {Spec} */ const BASE64 = { kind: 'base64' };

/**
 * Builds a struct spec from [name, spec, omitempty?] triples, in Go's
 * field order (the order fields are encoded in).
 * @param {Array<[string, Spec] | [string, Spec, 'omitempty']>} fields
 * @returns {Spec & { kind: 'struct' }}
 */
function struct(fields) {
  return {
    kind: 'struct',
    fields: fields.map(([name, spec, omit]) => ({
      name,
      spec,
      omitempty: omit === 'omitempty',
    })),
  };
}

/** @param {Spec} to @returns {Spec} */
const ptr = (to) => ({ kind: 'ptr', to });
/** @param {Spec} of @returns {Spec} */
const slice = (of) => ({ kind: 'slice', of });
const O = 'omitempty';

const ERROR = struct([['code', STRING], ['message', STRING], ['hint', STRING, O]]);
const CONTENT = struct([
  ['type', STRING],
  ['text', STRING, O],
  ['data', BASE64, O],
  ['mimeType', STRING, O],
  ['uri', STRING, O],
  ['name', STRING, O],
  ['size', INT, O],
]);
const TOOL_RESULT = struct([
  ['content', slice(CONTENT)],
  ['structuredContent', RAW, O],
  ['isError', BOOL, O],
]);
const BROWSER_INFO = struct([
  ['id', STRING],
  ['profile', STRING, O],
  ['browser', STRING, O],
  ['extensionVersion', STRING],
]);

const HELLO = struct([
  ['role', STRING],
  ['version', STRING],
  ['client', STRING, O],
  ['browser', STRING, O],
  ['profile', STRING, O],
]);
const READY = struct([
  ['version', STRING],
  ['agent', STRING, O],
  ['browsers', slice(BROWSER_INFO)],
]);
const CALL = struct([
  ['id', STRING],
  ['tool', STRING],
  ['args', RAW, O],
  ['progress', BOOL, O],
  ['timeoutMs', INT, O],
  ['roots', slice(STRING), O],
  ['allowedOrigins', slice(STRING), O],
  ['blockedOrigins', slice(STRING), O],
  ['canAsk', BOOL, O],
]);
const CHOICE = struct([['value', STRING], ['label', STRING]]);
const ASK = struct([
  ['id', STRING],
  ['call', STRING],
  ['message', STRING],
  ['choices', slice(CHOICE), O],
]);
const ANSWER = struct([['id', STRING], ['action', STRING], ['value', STRING, O]]);
const PROGRESS = struct([
  ['id', STRING],
  ['progress', FLOAT],
  ['total', FLOAT, O],
  ['message', STRING, O],
]);
const CALL_RESULT = struct([['id', STRING], ['result', ptr(TOOL_RESULT)]]);
const CANCEL = struct([['id', STRING]]);
const EMPTY = struct([]);
const FAIL = struct([['error', ptr(ERROR)]]);
const COMMAND = struct([
  ['id', STRING],
  ['action', STRING],
  ['params', RAW, O],
  ['timeoutMs', INT],
]);
const COMMAND_RESULT = struct([
  ['id', STRING],
  ['ok', BOOL],
  ['data', RAW, O],
  ['error', ptr(ERROR), O],
]);
const EVENT = struct([['name', STRING], ['data', RAW, O]]);
const STATE = struct([['data', RAW]]);

/** @typedef {'agent' | 'browser'} Channel */

/** The frame types of each channel; "result" differs between them. */
/** @type {Record<Channel, Map<string, Spec>>} */
const CHANNELS = {
  agent: new Map([
    [TYPE.HELLO, HELLO],
    [TYPE.READY, READY],
    [TYPE.CALL, CALL],
    [TYPE.PROGRESS, PROGRESS],
    [TYPE.RESULT, CALL_RESULT],
    [TYPE.CANCEL, CANCEL],
    [TYPE.PING, EMPTY],
    [TYPE.PONG, EMPTY],
    [TYPE.ERROR, FAIL],
    [TYPE.ASK, ASK],
    [TYPE.ANSWER, ANSWER],
  ]),
  browser: new Map([
    [TYPE.HELLO, HELLO],
    [TYPE.COMMAND, COMMAND],
    [TYPE.PROGRESS, PROGRESS],
    [TYPE.RESULT, COMMAND_RESULT],
    [TYPE.CANCEL, CANCEL],
    [TYPE.EVENT, EVENT],
    [TYPE.STATE, STATE],
    [TYPE.PING, EMPTY],
    [TYPE.PONG, EMPTY],
    [TYPE.ERROR, FAIL],
  ]),
};

/**
 * Decodes a frame of the browser channel (native messaging between the
 * daemon and the extension). input is the JSON text or, as Chrome delivers
 * native messages, the parsed value.
 * @param {unknown} input
 * @returns {BrowserFrame}
 * @throws {ActionError} bad_request when the frame is not one Go accepts
 */
export function decodeBrowserFrame(input) {
  return /** @type {BrowserFrame} */ (decode(input, 'browser'));
}

/**
 * Decodes a frame of the agent channel (agent <-> broker WebSocket).
 * @param {unknown} input
 * @returns {AgentFrame}
 * @throws {ActionError} bad_request when the frame is not one Go accepts
 */
export function decodeAgentFrame(input) {
  return /** @type {AgentFrame} */ (decode(input, 'agent'));
}

/**
 * Encodes a frame as JSON text with "type" first, as protocol.Encode does.
 * @param {{ type: string }} frame
 * @param {Channel} [channel] which channel's "result" is meant
 * @returns {string}
 */
export function encodeFrame(frame, channel = 'browser') {
  return JSON.stringify(decode(frame, channel));
}

/**
 * @param {unknown} input
 * @param {Channel} channel
 * @returns {{ type: string, [field: string]: unknown }}
 */
function decode(input, channel) {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new ActionError('bad_request', 'frame is not a JSON object');
    }
  }
  if (value !== null && !isObject(value)) {
    throw new ActionError('bad_request', 'frame is not a JSON object');
  }
  const head = value === null ? undefined : value.type;
  if (head !== undefined && head !== null && typeof head !== 'string') {
    throw new ActionError('bad_request', 'frame is not a JSON object');
  }
  const type = head ?? '';
  const spec = CHANNELS[channel].get(type);
  if (!spec) {
    throw new ActionError('bad_request', `unknown frame type ${JSON.stringify(type)}`);
  }
  let fields;
  try {
    fields = /** @type {Record<string, unknown>} */ (decodeValue(spec, value, ''));
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    throw new ActionError('bad_request', `malformed ${type} frame: ${err.message}`);
  }
  check(type, channel, fields);
  const encoded = /** @type {Record<string, unknown>} */ (encodeValue(spec, fields));
  return { type, ...encoded };
}

/**
 * Enforces what the JSON types cannot, as check() in protocol/frame.go.
 * @param {string} type
 * @param {Channel} channel
 * @param {Record<string, any>} f the decoded fields (nil is undefined)
 */
function check(type, channel, f) {
  /** @param {string} field */
  const missing = (field) =>
    new ActionError('bad_request', `${type} frame without ${field}`);
  switch (type) {
    case TYPE.HELLO:
      if (f.role !== ROLE.AGENT && f.role !== ROLE.EXTENSION) {
        const role = JSON.stringify(f.role);
        throw new ActionError('bad_request', `hello with unknown role ${role}`);
      }
      if (!f.version) throw missing('version');
      break;
    case TYPE.CALL:
      if (!f.id) throw missing('id');
      if (!f.tool) throw missing('tool');
      break;
    case TYPE.COMMAND:
      if (!f.id) throw missing('id');
      if (!f.action) throw missing('action');
      break;
    case TYPE.RESULT:
      if (!f.id) throw missing('id');
      if (channel === 'agent') {
        if (!f.result) throw missing('result');
        break;
      }
      if (!f.ok && !f.error) throw missing('error');
      if (f.error && !isCode(f.error.code)) {
        // An extension newer than the host may know more codes; keep the
        // message, call it internal.
        f.error = {
          code: 'internal',
          message: `${f.error.message} (${f.error.code})`,
          hint: f.error.hint,
        };
      }
      break;
    case TYPE.PROGRESS:
    case TYPE.CANCEL:
      if (!f.id) throw missing('id');
      break;
    case TYPE.EVENT:
      if (!f.name) throw missing('name');
      break;
    case TYPE.ERROR:
      if (!f.error) throw missing('error');
      break;
    case TYPE.ASK:
      if (!f.id) throw missing('id');
      if (!f.call) throw missing('call');
      break;
    case TYPE.ANSWER:
      if (!f.id) throw missing('id');
      if (!ANSWER_ACTIONS.has(f.action)) {
        throw new ActionError('bad_request', `answer with unknown action ${JSON.stringify(f.action)}`);
      }
      break;
  }
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes value as Go's encoding/json would into a value of spec's type,
 * returning it with nil as undefined.
 * @param {Spec} spec
 * @param {unknown} value
 * @param {string} path for messages
 * @returns {unknown}
 * @throws {TypeError} when the JSON type does not fit
 */
function decodeValue(spec, value, path) {
  if (spec.kind === 'raw') return value; // null stays: RawMessage("null")
  if (value === undefined || value === null) return zeroValue(spec);
  /** @param {string} want */
  const wrong = (want) =>
    new TypeError(`${path || 'frame'} is not ${want}`);
  switch (spec.kind) {
    case 'string':
      if (typeof value !== 'string') throw wrong('a string');
      return value;
    case 'int':
      if (!Number.isInteger(value)) throw wrong('an integer');
      return value;
    case 'float':
      if (typeof value !== 'number') throw wrong('a number');
      return value;
    case 'bool':
      if (typeof value !== 'boolean') throw wrong('a boolean');
      return value;
    case 'base64':
      if (typeof value !== 'string' || !BASE64_RE.test(value)) {
        throw wrong('base64');
      }
      return value;
    case 'ptr':
      return decodeValue(spec.to, value, path);
    case 'slice':
      if (!Array.isArray(value)) throw wrong('an array');
      return value.map((v, i) => decodeValue(spec.of, v, `${path}[${i}]`));
    case 'struct': {
      if (!isObject(value)) throw wrong('an object');
      /** @type {Record<string, unknown>} */
      const out = {};
      for (const field of spec.fields) {
        const name = path ? `${path}.${field.name}` : field.name;
        out[field.name] = decodeValue(field.spec, value[field.name], name);
      }
      return out;
    }
  }
}

/**
 * Returns the zero value of spec's type (undefined for nil).
 * @param {Spec} spec
 * @returns {unknown}
 */
function zeroValue(spec) {
  switch (spec.kind) {
    case 'string':
      return '';
    case 'int':
    case 'float':
      return 0;
    case 'bool':
      return false;
    case 'struct':
      return decodeValue(spec, {}, '');
    default:
      return undefined; // raw, base64, ptr, slice: nil
  }
}

/**
 * Reports whether Go's omitempty leaves value out.
 * @param {Spec} spec
 * @param {unknown} value
 * @returns {boolean}
 */
function isEmpty(spec, value) {
  if (value === undefined) return true;
  switch (spec.kind) {
    case 'string':
    case 'base64':
      return value === '';
    case 'int':
    case 'float':
      return value === 0;
    case 'bool':
      return value === false;
    case 'slice':
      return Array.isArray(value) && value.length === 0;
    default:
      return false;
  }
}

/**
 * Encodes a decoded value as Go would: nil is null, omitempty drops empties.
 * @param {Spec} spec
 * @param {unknown} value
 * @returns {unknown}
 */
function encodeValue(spec, value) {
  if (value === undefined) return null;
  switch (spec.kind) {
    case 'ptr':
      return encodeValue(spec.to, value);
    case 'slice':
      return /** @type {unknown[]} */ (value).map((v) => encodeValue(spec.of, v));
    case 'struct': {
      const from = /** @type {Record<string, unknown>} */ (value);
      /** @type {Record<string, unknown>} */
      const out = {};
      for (const field of spec.fields) {
        const v = from[field.name];
        if (field.omitempty && isEmpty(field.spec, v)) continue;
        out[field.name] = encodeValue(field.spec, v);
      }
      return out;
    }
    default:
      return value;
  }
}

/**
 * Reports whether value is a JSON object (not an array, not null).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Returns the extension's hello, its first frame on every connection.
 * @param {{ version: string, browser: string, profile: string }} who
 * @returns {Hello}
 */
export function helloFrame({ version, browser, profile }) {
  return { type: 'hello', role: ROLE.EXTENSION, version, browser, profile };
}

/**
 * Returns the result that answers command id with data.
 * @param {string} id
 * @param {unknown} data
 * @returns {CommandResult}
 */
export function okResult(id, data) {
  /** @type {CommandResult} */
  const frame = { type: 'result', id, ok: true };
  if (data !== undefined) frame.data = data;
  return frame;
}

/**
 * Returns the result that answers command id with an error.
 * @param {string} id
 * @param {WireError} error
 * @returns {CommandResult}
 */
export function errorResult(id, error) {
  return { type: 'result', id, ok: false, error };
}

/**
 * Returns the event that tells the daemon what the person did, e.g.
 * eventFrame('handoff.finish', {handoffId}) (docs/human.md).
 * @param {string} name
 * @param {unknown} [data]
 * @returns {Event}
 */
export function eventFrame(name, data) {
  /** @type {Event} */
  const frame = { type: 'event', name };
  if (data !== undefined) frame.data = data;
  return frame;
}
