// @ts-check
// The person's questions (browser_request_feedback, docs/human.md), without
// chrome.*: a feedback.request's params, the record the worker keeps of a
// question in chrome.storage.session, which runtime messages may answer it
// and how, the result the host gets, and which records a state from the
// daemon withdraws. sw/feedback.js does the chrome.* part; the overlay
// (page/overlay.js) and the side panel (sidepanel/questions.js) send the
// answers.

import { ActionError } from './errors.js';
import { stringParam, intParam } from './params.js';

/** The modes of a question. */
export const MODES = Object.freeze(['confirm', 'choose', 'point', 'element', 'region', 'comment']);
/** @typedef {'confirm' | 'choose' | 'point' | 'element' | 'region' | 'comment'} Mode */

/** The modes whose answer is a mark on the page. */
export const MARKING = Object.freeze(['point', 'element', 'region', 'comment']);

/** A question's answer, kept this long past its deadline for a host that asks again after a reconnect. */
export const KEEP_ANSWER_MS = 60_000;

/** The runtime message type of an answer. */
export const MESSAGE_TYPE = 'feedback';

const MAX_PROMPT = 1000;
const MAX_OPTIONS = 12;
const MAX_LABEL = 100;
const MAX_COMMENT = 2000;
/** A region smaller than this on either side is a slip of the mouse, not a box. */
export const MIN_REGION = 4;

/**
 * @typedef {{ label: string, value: string }} Option
 * @typedef {{ requestId: string, mode: Mode, prompt: string,
 *   options: Option[], timeoutMs: number }} Request
 *   A feedback.request's params, checked.
 * @typedef {{ x: number, y: number, width: number, height: number }} Rect
 * @typedef {{ kind: string, value?: unknown, label?: string, x?: number,
 *   y?: number, ref?: number, role?: string, name?: string,
 *   selector?: string, text?: string, rect?: Rect, refs?: number[] }} Annotation
 * @typedef {{ responded: boolean, timedOut: boolean, dismissed: boolean,
 *   via?: 'overlay' | 'panel', annotations: Annotation[] }} Result
 *   What feedback.request answers (host/browser's Feedback).
 * @typedef {{ id: string, tabId: number, mode: Mode, prompt: string,
 *   options: Option[], deadline: number, place: 'overlay' | 'panel',
 *   shot?: boolean, status: 'pending' | 'answered', result?: Result }} Question
 *   A question as the worker keeps it in chrome.storage.session: asked in
 *   the tab's overlay or, on a page that cannot show one, in the side panel
 *   (over a screenshot when shot); answered, it keeps its result until the
 *   host takes it.
 * @typedef {{ ref: number, role: string, name: string, selector: string,
 *   text: string } | null} Mark
 *   An element the person marked, as the page script describes it with its
 *   ref; null for one that left the page.
 */

/**
 * Reads a feedback.request's params.
 * @param {Record<string, unknown>} params
 * @returns {Request}
 */
export function parseRequest(params) {
  const requestId = stringParam(params, 'requestId') ?? '';
  if (!/^[0-9a-f]{16}$/.test(requestId)) throw new ActionError('bad_request', 'requestId must be 16 hex digits');
  const mode = /** @type {Mode} */ (stringParam(params, 'mode') ?? '');
  if (!MODES.includes(mode)) throw new ActionError('bad_request', `mode must be one of ${MODES.join(', ')}`);
  const prompt = (stringParam(params, 'prompt') ?? '').trim();
  if (!prompt || prompt.length > MAX_PROMPT) throw new ActionError('bad_request', `prompt must be 1 to ${MAX_PROMPT} characters`);
  const timeoutMs = intParam(params, 'timeoutMs', 1, 600_000);
  if (timeoutMs === undefined) throw new ActionError('bad_request', 'timeoutMs is missing');
  /** @type {Option[]} */
  const options = [];
  const raw = params.options ?? [];
  if (!Array.isArray(raw) || raw.length > MAX_OPTIONS) {
    throw new ActionError('bad_request', `options must be a list of at most ${MAX_OPTIONS}`);
  }
  for (const o of raw) {
    const label = typeof o?.label === 'string' ? o.label.trim() : '';
    const value = typeof o?.value === 'string' ? o.value : '';
    if (!label || !value || label.length > MAX_LABEL) throw new ActionError('bad_request', 'each option needs a label and a value');
    options.push({ label, value });
  }
  if ((mode === 'choose') !== (options.length > 0)) {
    throw new ActionError('bad_request', 'options go with mode choose, and only with it');
  }
  return { requestId, mode, prompt, options, timeoutMs };
}

/**
 * What the worker keeps of a new question.
 * @param {Request} req
 * @param {number} tabId
 * @param {number} now ms since the epoch
 * @returns {Question}
 */
export function newRecord(req, tabId, now) {
  return {
    id: req.requestId, tabId, mode: req.mode, prompt: req.prompt, options: req.options,
    deadline: now + req.timeoutMs, place: 'overlay', status: 'pending',
  };
}

/**
 * What a feedback.request does with the question kept under its id: none
 * kept is a new question; an answered one is answered at once (the host
 * asks again after its link came back, and the person answered meanwhile);
 * a pending one is waited for again.
 * @param {Question | undefined} kept
 * @param {number} tabId the request's tab
 * @returns {'new' | 'answered' | 'wait'}
 */
export function takeUp(kept, tabId) {
  if (!kept) return 'new';
  if (kept.tabId !== tabId) throw new ActionError('bad_request', 'that request is for another tab');
  return kept.status === 'answered' && kept.result ? 'answered' : 'wait';
}

/**
 * @returns {Result}
 */
export function timedOut() {
  return { responded: false, timedOut: true, dismissed: false, annotations: [] };
}

/**
 * The part of chrome.runtime.MessageSender the checks read.
 * @typedef {{ id?: string, url?: string, frameId?: number,
 *   tab?: { id?: number } }} Sender
 */

/**
 * An answer as the overlay or the panel sends it, checked: a dismissal, or
 * the mark of the question's mode, with the place it came from.
 * @typedef {{ via: 'overlay' | 'panel', dismissed: true }
 *   | { via: 'overlay' | 'panel', dismissed: false, kind: string,
 *       value?: string, x?: number, y?: number, rect?: Rect,
 *       text?: string }} Answer
 */

/**
 * Reports whether message is an answer to a question at all; the worker
 * leaves other messages to their owners.
 * @param {unknown} message
 */
export function isFeedbackMessage(message) {
  return !!message && typeof message === 'object' &&
    /** @type {{ type?: unknown }} */ (message).type === MESSAGE_TYPE;
}

/**
 * Decides whether a {type: 'feedback', requestId, answer} message answers
 * the question record, and reads the answer. The side panel (an extension
 * page) may answer confirm and choose, and any question it shows over a
 * screenshot, and dismiss any; the overlay (a content script) only the
 * question shown in its own tab's top frame.
 * @param {unknown} message
 * @param {Sender} sender
 * @param {{ extensionId: string, record: Question | undefined }} ctx
 * @returns {{ ok: true, answer: Answer } | { ok: false, error: string }}
 */
export function checkAnswer(message, sender, { extensionId, record }) {
  if (sender.id !== extensionId) return refuse('not a message from OpenChrome');
  if (!record || record.status !== 'pending') return refuse('this question is no longer waiting');
  const raw = /** @type {{ answer?: unknown }} */ (message).answer;
  if (!raw || typeof raw !== 'object') return refuse('no answer');
  const a = /** @type {Record<string, unknown>} */ (raw);

  /** @type {'overlay' | 'panel'} */
  let via;
  if (isOwnPage(sender.url, extensionId)) {
    via = 'panel';
  } else {
    if (sender.tab?.id !== record.tabId || sender.frameId !== 0 || record.place !== 'overlay') {
      return refuse('this question is not shown in this page');
    }
    via = 'overlay';
  }
  if (a.dismissed === true) return { ok: true, answer: { via, dismissed: true } };

  const onScreenshot = via === 'panel' && record.place === 'panel';
  if (via === 'panel' && MARKING.includes(record.mode) && !onScreenshot) {
    return refuse('mark the page itself: the question is shown in its tab');
  }
  switch (record.mode) {
    case 'confirm':
      return a.kind === 'confirm' ? { ok: true, answer: { via, dismissed: false, kind: 'confirm' } } : refuse('want a confirmation');
    case 'choose': {
      const option = record.options.find((o) => o.value === a.value);
      return a.kind === 'choice' && option
        ? { ok: true, answer: { via, dismissed: false, kind: 'choice', value: option.value } }
        : refuse('want one of the options');
    }
    case 'point':
    case 'element': {
      if (a.kind !== record.mode || !isPoint(a)) return refuse(`want a ${record.mode} at x, y`);
      return { ok: true, answer: { via, dismissed: false, kind: record.mode, x: num(a.x), y: num(a.y) } };
    }
    case 'region': {
      const rect = rectOf(a.rect);
      if (a.kind !== 'region' || !rect) return refuse('want a region');
      return { ok: true, answer: { via, dismissed: false, kind: 'region', rect } };
    }
    case 'comment': {
      const text = typeof a.text === 'string' ? a.text.trim() : '';
      if (a.kind !== 'comment' || !text || text.length > MAX_COMMENT) return refuse(`want a note of 1 to ${MAX_COMMENT} characters`);
      // On the page a note sits where it was clicked; on the panel the
      // point is optional.
      if (via === 'overlay' && !isPoint(a)) return refuse('want the spot the note is about');
      /** @type {Answer} */
      const out = { via, dismissed: false, kind: 'comment', text };
      if (isPoint(a)) Object.assign(out, { x: num(a.x), y: num(a.y) });
      return { ok: true, answer: out };
    }
  }
  return refuse('unknown mode');
}

/**
 * The result of a checked answer. marks are what the page script made of
 * the elements the overlay kept (point, element, comment: one; region:
 * every element in the box); on the panel's screenshot there are none, and
 * coordinates are the screenshot's pixels.
 * @param {Question} record
 * @param {Answer} answer
 * @param {Mark[]} [marks]
 * @returns {Result}
 */
export function resultOf(record, answer, marks = []) {
  const via = answer.via;
  if (answer.dismissed) return { responded: false, timedOut: false, dismissed: true, via, annotations: [] };
  /** @type {Annotation} */
  let a;
  const first = marks[0] ?? null;
  switch (answer.kind) {
    case 'confirm':
      a = { kind: 'confirm', value: true };
      break;
    case 'choice': {
      const o = record.options.find((x) => x.value === answer.value);
      a = { kind: 'choice', value: answer.value, label: o?.label ?? '' };
      break;
    }
    case 'point':
      a = { kind: 'point', x: answer.x, y: answer.y, ...(first ? { ref: first.ref } : {}) };
      break;
    case 'element':
      a = first ? { kind: 'element', ...first } : { kind: 'element', x: answer.x, y: answer.y };
      break;
    case 'region':
      a = { kind: 'region', rect: answer.rect, refs: marks.flatMap((m) => (m ? [m.ref] : [])) };
      break;
    default:
      a = { kind: 'comment', text: answer.text };
      if (answer.x !== undefined) Object.assign(a, { x: answer.x, y: answer.y });
      if (first) a.ref = first.ref;
  }
  return { responded: true, timedOut: false, dismissed: false, via, annotations: [a] };
}

/**
 * What a state from the daemon means for the questions this worker keeps.
 * A pending question the state does not list, that no command of this
 * worker waits for, has lost its agent (a new daemon, a call that ended
 * while the worker was stopped): it is withdrawn. An answer is kept until
 * KEEP_ANSWER_MS past its deadline, for a host that asks again.
 * @param {Question[]} records
 * @param {unknown} state
 * @param {ReadonlySet<string>} waiting the ids commands of this worker wait for
 * @param {number} now
 * @returns {{ withdraw: string[], drop: string[] }}
 */
export function reconcile(records, state, waiting, now) {
  const listed = new Set(questionsOf(state).map((q) => q.id));
  /** @type {string[]} */
  const withdraw = [];
  /** @type {string[]} */
  const drop = [];
  for (const r of records) {
    if (waiting.has(r.id)) continue;
    if (r.status === 'pending' && !listed.has(r.id)) withdraw.push(r.id);
    else if (r.status === 'answered' && now > r.deadline + KEEP_ANSWER_MS) drop.push(r.id);
  }
  return { withdraw, drop };
}

/**
 * The questions a state lists as waiting (the daemon's).
 * @param {unknown} state
 * @returns {Array<{ id: string, tabId?: number, mode?: string, deadline?: string }>}
 */
export function questionsOf(state) {
  if (!state || typeof state !== 'object') return [];
  const list = /** @type {Record<string, unknown>} */ (state).feedback;
  return Array.isArray(list) ? list.filter((q) => typeof q?.id === 'string') : [];
}

/** What the person is asked to do, by mode. */
export const MODE_HINTS = Object.freeze({
  confirm: 'Confirm, or skip.',
  choose: 'Choose one, or skip.',
  point: 'Click the spot on the page.',
  element: 'Click the element on the page.',
  region: 'Drag a box around the part of the page.',
  comment: 'Click the spot, then write your note.',
});

/** The same, on the side panel's screenshot of a page that cannot show the overlay. */
export const SCREENSHOT_HINTS = Object.freeze({
  confirm: MODE_HINTS.confirm,
  choose: MODE_HINTS.choose,
  point: 'Click the spot on the screenshot.',
  element: 'Click the element on the screenshot.',
  region: 'Drag a box on the screenshot.',
  comment: 'Write your note; click the screenshot first to say where.',
});

/**
 * Maps a point on a shown image to the image's own pixels.
 * @param {number} clientX
 * @param {number} clientY
 * @param {{ left: number, top: number, width: number, height: number }} box the image's box on screen
 * @param {{ width: number, height: number }} natural the image's size in pixels
 * @returns {{ x: number, y: number }}
 */
export function toImagePixels(clientX, clientY, box, natural) {
  const sx = box.width > 0 ? natural.width / box.width : 1;
  const sy = box.height > 0 ? natural.height / box.height : 1;
  const clamp = (/** @type {number} */ v, /** @type {number} */ hi) => Math.min(Math.max(v, 0), hi);
  return {
    x: Math.round(clamp((clientX - box.left) * sx, natural.width)),
    y: Math.round(clamp((clientY - box.top) * sy, natural.height)),
  };
}

/**
 * The box two corners span, or undefined when it is too small to be one.
 * @param {{ x: number, y: number }} a
 * @param {{ x: number, y: number }} b
 * @returns {Rect | undefined}
 */
export function rectFromCorners(a, b) {
  const r = {
    x: Math.min(a.x, b.x), y: Math.min(a.y, b.y),
    width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y),
  };
  return r.width < MIN_REGION || r.height < MIN_REGION ? undefined : r;
}

/** @param {Record<string, unknown>} a */
function isPoint(a) {
  return Number.isFinite(a.x) && Number.isFinite(a.y);
}

/** @param {unknown} v */
function num(v) {
  return Math.round(/** @type {number} */ (v) * 100) / 100;
}

/**
 * @param {unknown} v
 * @returns {Rect | undefined}
 */
function rectOf(v) {
  if (!v || typeof v !== 'object') return undefined;
  const r = /** @type {Record<string, unknown>} */ (v);
  if (![r.x, r.y, r.width, r.height].every(Number.isFinite)) return undefined;
  if (/** @type {number} */ (r.width) < MIN_REGION || /** @type {number} */ (r.height) < MIN_REGION) return undefined;
  return { x: num(r.x), y: num(r.y), width: num(r.width), height: num(r.height) };
}

/**
 * @param {string | undefined} url
 * @param {string} extensionId
 */
function isOwnPage(url, extensionId) {
  return typeof url === 'string' && url.startsWith(`chrome-extension://${extensionId}/`);
}

/**
 * @param {string} error
 * @returns {{ ok: false, error: string }}
 */
function refuse(error) {
  return { ok: false, error };
}
