// @ts-check
// The side panel: renders what the worker keeps in chrome.storage.session
// (`state` from the daemon, `connection` from the port) and follows it with
// chrome.storage.onChanged; a tick each second moves the countdowns. Its
// buttons send {type: 'human', event, data} runtime messages, which the
// worker checks and forwards (sw/human.js).
//
// Instructions come from agents and are text, never markup: everything here
// goes through textContent.

import { Backoff } from '../lib/backoff.js';
import { activityOf, envelopesOf, tasksOf } from '../lib/human.js';
import { policyLine, rulesOf } from '../lib/policy.js';
import './questions.js'; // the agent's questions: a section of their own
import {
  PANEL_PORT,
  activityRow,
  connectionText,
  countdown,
  envelopeLines,
  handoffsToShow,
  progressText,
  reasonLabel,
  statusLabel,
} from '../lib/panel.js';

/** @typedef {import('../lib/human.js').Connection} Connection */
/** @typedef {import('../lib/human.js').Handoff} Handoff */
/** @typedef {import('../lib/human.js').Task} Task */
/** @typedef {import('../lib/human.js').Envelope} Envelope */

/** @type {unknown} */
let state;
/** @type {Connection | undefined} */
let connection;
/** Whether the worker answers: a stopped one cannot say so (watchWorker). */
let workerUp = true;
/** Items whose buttons were pressed, until the next state: "handoff:<id>". */
const busy = new Set();
/** What the last press of each item got back, when it failed. @type {Map<string, string>} */
const errors = new Map();
/** The state the activity table shows, so that a tick does not rebuild it. @type {unknown} */
let activityShown = null;

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/**
 * Makes an element with a class and text.
 * @param {string} tag
 * @param {string} [cls]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, cls = '', text = '') {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

/**
 * A button that says what it does in data-action.
 * @param {string} action
 * @param {string} text
 * @param {boolean} [disabled]
 */
function button(action, text, disabled = false) {
  const b = /** @type {HTMLButtonElement} */ (el('button', '', text));
  b.type = 'button';
  b.dataset.action = action;
  b.disabled = disabled;
  return b;
}

/**
 * The inline error of an item, hidden when there is none.
 * @param {string} key
 */
function errorLine(key) {
  const p = el('p', 'error', errors.get(key) ?? '');
  p.dataset.role = 'error';
  p.hidden = !errors.has(key);
  return p;
}

/**
 * Puts items in container in order, keeping the elements of items whose
 * signature did not change (and so the focus and hover on them).
 * @param {HTMLElement} container
 * @param {Array<{ key: string, sig: string, build: () => HTMLElement }>} items
 */
function reconcile(container, items) {
  /** @type {Map<string, HTMLElement>} */
  const old = new Map();
  for (const child of /** @type {HTMLCollectionOf<HTMLElement>} */ (container.children)) {
    old.set(child.dataset.key ?? '', child);
  }
  const wanted = items.map((it) => {
    const kept = old.get(it.key);
    if (kept && kept.dataset.sig === it.sig) return kept;
    const fresh = it.build();
    fresh.dataset.key = it.key;
    fresh.dataset.sig = it.sig;
    return fresh;
  });
  const keep = new Set(wanted);
  for (const child of [...container.children]) if (!keep.has(/** @type {HTMLElement} */ (child))) child.remove();
  wanted.forEach((child, i) => {
    const at = container.children[i] ?? null;
    if (at !== child) container.insertBefore(child, at);
  });
}

function render() {
  const now = Date.now();

  const conn = byId('connection');
  conn.textContent = connectionText(connection, now, workerUp);
  conn.dataset.connected = String(!!connection?.connected && workerUp);
  const reason = byId('connection-reason');
  const why = !connection?.connected && connection?.reason && connection.reason !== 'connecting'
    ? connection.reason : '';
  reason.textContent = why;
  reason.hidden = !why;
  const rules = rulesOf(state);
  byId('policy').textContent = rules?.error ? `Site policy: ${rules.error}` : policyLine(rules);

  const handoffs = handoffsToShow(state, now);
  reconcile(byId('handoffs'), handoffs.map((h) => {
    const key = `handoff:${h.id}`;
    return {
      key,
      sig: JSON.stringify([h, busy.has(key), errors.get(key)]),
      build: () => handoffItem(h, key),
    };
  }));
  byId('handoffs-empty').hidden = handoffs.length > 0;

  const envelopes = envelopesOf(state); // newest first
  reconcile(byId('envelopes'), envelopes.map((env) => {
    const key = `task:${env.id}`;
    return {
      key,
      sig: JSON.stringify([envelopeLines(env), busy.has(key), errors.get(key)]),
      build: () => envelopeItem(env, key),
    };
  }));
  byId('envelopes-empty').hidden = envelopes.length > 0;

  const tasks = tasksOf(state); // newest first, as the daemon sends them
  reconcile(byId('tasks'), tasks.map((t) => {
    const key = `task:${t.id}`;
    return {
      key,
      sig: JSON.stringify([t.kind, t.status, busy.has(key), errors.get(key)]),
      build: () => taskItem(t, key),
    };
  }));
  // Progress moves often: it is updated in place, not rebuilt.
  for (const t of tasks) {
    const item = byId('tasks').querySelector(`[data-key="${CSS.escape(`task:${t.id}`)}"] .progress`);
    if (item) item.textContent = progressText(t);
  }
  byId('tasks-empty').hidden = tasks.length > 0;

  if (activityShown !== state) {
    activityShown = state;
    renderActivity();
  }
  tick(now);
}

function renderActivity() {
  const activity = activityOf(state); // newest first
  const body = /** @type {HTMLElement} */ (byId('activity').querySelector('tbody'));
  body.replaceChildren(...activity.map((a) => {
    const r = activityRow(a);
    const tr = el('tr');
    tr.dataset.ok = String(r.ok);
    for (const [cls, text] of [['time', r.time], ['agent', r.agent], ['tool', r.tool],
      ['tab', r.tab], ['outcome', r.outcome], ['ms', r.ms]]) {
      tr.append(el('td', cls, text));
    }
    return tr;
  }));
  byId('activity').hidden = activity.length === 0;
  byId('activity-empty').hidden = activity.length > 0;
}

/**
 * @param {Handoff} h
 * @param {string} key
 */
function handoffItem(h, key) {
  const li = el('li', 'handoff');
  li.dataset.handoffId = h.id;
  li.dataset.status = h.status;
  const running = h.status === 'RUNNING';

  const head = el('div', 'row');
  head.append(el('span', 'reason', reasonLabel(h.reason)));
  if (running) {
    const time = el('span', 'countdown');
    time.dataset.deadline = String(h.deadline ?? '');
    head.append(time);
  } else {
    head.append(el('span', 'status', statusLabel(h.status)));
  }
  li.append(head);
  if (h.instruction) li.append(el('p', 'instruction', h.instruction));

  const meta = el('p', 'meta');
  if (h.origin) meta.append(`${h.origin} · `);
  if (Number.isInteger(h.tabId)) {
    const go = button('show-tab', `tab ${h.tabId}`);
    go.className = 'link';
    go.title = 'Show this tab';
    meta.append(go);
  }
  if (meta.childNodes.length) li.append(meta);

  if (running) {
    const actions = el('div', 'actions');
    const off = busy.has(key);
    actions.append(button('finish', 'Finish', off), button('cancel', 'Cancel', off));
    li.append(actions);
  } else if (h.delta_summary) {
    li.append(el('p', 'summary muted', h.delta_summary));
  }
  li.append(errorLine(key));
  return li;
}

/**
 * @param {Task} t
 * @param {string} key
 */
function taskItem(t, key) {
  const li = el('li', 'task');
  li.dataset.taskId = t.id;
  li.dataset.status = String(t.status ?? '');
  const head = el('div', 'row');
  head.append(el('span', 'kind', String(t.kind ?? 'task')), el('span', 'status', statusLabel(t.status)));
  li.append(head, el('p', 'progress meta'));
  const actions = el('div', 'actions');
  actions.append(button('cancel-task', 'Cancel', busy.has(key)));
  li.append(actions, errorLine(key));
  return li;
}

/**
 * An open envelope: what the agent said it is doing, how much of its
 * budget it used, whether it wanders; Cancel ends it.
 * @param {Envelope} env
 * @param {string} key
 */
function envelopeItem(env, key) {
  const lines = envelopeLines(env);
  const li = el('li', 'envelope');
  li.dataset.taskId = env.id;
  li.dataset.wandering = String(lines.wandering);
  const head = el('div', 'row');
  head.append(el('span', 'objective', lines.objective), el('span', 'phase status', lines.phase));
  li.append(head, el('p', 'usage meta', lines.usage));
  if (lines.standing) li.append(el('p', 'standing warning', lines.standing));
  if (lines.warning) li.append(el('p', 'warning muted', lines.warning));
  const actions = el('div', 'actions');
  actions.append(button('cancel-task', 'Cancel', busy.has(key)));
  li.append(actions, errorLine(key));
  return li;
}

/**
 * Moves the countdowns.
 * @param {number} now
 */
function tick(now) {
  for (const time of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.countdown'))) {
    const left = countdown(time.dataset.deadline, now);
    time.textContent = left;
    time.classList.toggle('up', left === 'time is up');
  }
}

/**
 * Sends a human event to the worker.
 * @param {string} event
 * @param {Record<string, string>} data
 * @returns {Promise<{ ok: boolean, error?: string }>}
 */
async function tell(event, data) {
  try {
    const reply = await chrome.runtime.sendMessage({ type: 'human', event, data });
    return reply ?? { ok: false, error: 'OpenChrome did not answer' };
  } catch (err) {
    return { ok: false, error: `OpenChrome cannot be reached (${err instanceof Error ? err.message : String(err)})` };
  }
}

/**
 * Presses an item's button: disables the item's buttons until the next
 * state, and shows what went wrong inline.
 * @param {string} key
 * @param {string} event
 * @param {Record<string, string>} data
 */
async function press(key, event, data) {
  busy.add(key);
  errors.delete(key);
  render();
  const reply = await tell(event, data);
  if (!reply.ok) {
    busy.delete(key);
    errors.set(key, reply.error ?? 'refused');
  }
  render();
}

document.addEventListener('click', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const b = /** @type {HTMLButtonElement | null} */ (target.closest('button[data-action]'));
  if (!b || b.disabled) return;
  const handoff = /** @type {HTMLElement | null} */ (b.closest('[data-handoff-id]'));
  const task = /** @type {HTMLElement | null} */ (b.closest('[data-task-id]'));
  const handoffId = handoff?.dataset.handoffId ?? '';
  switch (b.dataset.action) {
    case 'finish':
      press(`handoff:${handoffId}`, 'handoff.finish', { handoffId });
      break;
    case 'cancel':
      press(`handoff:${handoffId}`, 'handoff.cancel', { handoffId });
      break;
    case 'cancel-task': {
      const taskId = task?.dataset.taskId ?? '';
      press(`task:${taskId}`, 'task.cancel', { taskId });
      break;
    }
    case 'show-tab':
      showTab(handoffId);
      break;
  }
});

/**
 * Brings the handoff's tab, and its window, to the front.
 * @param {string} handoffId
 */
async function showTab(handoffId) {
  const h = handoffsToShow(state, Date.now()).find((x) => x.id === handoffId);
  if (!Number.isInteger(h?.tabId)) return;
  try {
    const tab = await chrome.tabs.update(/** @type {number} */ (h?.tabId), { active: true });
    if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true });
  } catch {
    // the tab is gone
  }
}

byId('stop').addEventListener('click', async () => {
  const stop = /** @type {HTMLButtonElement} */ (byId('stop'));
  const error = byId('stop-error');
  stop.disabled = true;
  error.hidden = true;
  const reply = await tell('agent.stop', {});
  stop.disabled = false;
  error.textContent = reply.ok ? '' : reply.error ?? 'refused';
  error.hidden = reply.ok;
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'session') return;
  if (changes.state) {
    state = changes.state.newValue;
    busy.clear(); // the daemon has answered, or moved on
  }
  if (changes.connection) connection = /** @type {Connection | undefined} */ (changes.connection.newValue);
  if (changes.state || changes.connection) render();
});

chrome.storage.session.get(['state', 'connection']).then((stored) => {
  state ??= stored.state;
  connection ??= /** @type {Connection | undefined} */ (stored.connection);
  render();
});
render();
setInterval(render, 1000);

const watchBackoff = new Backoff({ initialMs: 500, maxMs: 5_000 });

/**
 * Holds a port to the worker. When the worker stops, the port closes and
 * the panel says "Reconnecting…" at once (the connection the stopped worker
 * left in storage is stale); connecting again wakes the worker, which then
 * reconnects to the host and says so in storage.
 */
function watchWorker() {
  const port = chrome.runtime.connect({ name: PANEL_PORT });
  watchBackoff.connected(Date.now());
  workerUp = true;
  port.onDisconnect.addListener(() => {
    void chrome.runtime.lastError; // read, or Chrome reports it unchecked
    workerUp = false;
    render();
    setTimeout(watchWorker, watchBackoff.disconnected(Date.now()));
  });
}
watchWorker();
