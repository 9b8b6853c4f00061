// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  ENDED_SHOWN_MS,
  REASON_LABELS,
  RECONNECTING_MS,
  activityRow,
  badge,
  clock,
  connectionText,
  countdown,
  handoffsToShow,
  progressText,
  reasonLabel,
  statusLabel,
  envelopeLines,
  duration,
} from './panel.js';

const NOW = Date.parse('2026-11-21T14:30:00Z');
/** @param {number} ms from NOW */
const at = (ms) => new Date(NOW + ms).toISOString();

test('reasons read as what the person is asked to do', () => {
  assert.equal(reasonLabel('login'), 'Log in');
  assert.equal(reasonLabel('2fa'), 'Enter the 2FA code');
  assert.equal(reasonLabel('captcha'), 'Solve the CAPTCHA');
  assert.equal(reasonLabel('permission'), 'Grant the permission');
  assert.equal(reasonLabel('manual_recovery'), 'Help the agent with this page');
  assert.equal(reasonLabel('other'), 'Your turn');
  assert.equal(reasonLabel('something new'), 'Your turn');
  assert.equal(reasonLabel('constructor'), 'Your turn');
  assert.equal(reasonLabel(undefined), 'Your turn');
});

test('statuses read as words', () => {
  assert.equal(statusLabel('FINISHED'), 'Finished');
  assert.equal(statusLabel('TIMED_OUT'), 'Timed out');
  assert.equal(statusLabel('CANCELLED'), 'Cancelled');
  assert.equal(statusLabel('SOME_NEW_ONE'), 'some new one');
});

test('countdowns', () => {
  const cases = [
    [at(245_000), '4:05'],
    [at(244_001), '4:05'],
    [at(59_000), '0:59'],
    [at(1), '0:01'],
    [at(0), 'time is up'],
    [at(-5000), 'time is up'],
    [at(3_723_000), '1:02:03'],
    [at(36_000_000), '10:00:00'],
    ['not a time', ''],
    [undefined, ''],
  ];
  for (const [deadline, want] of cases) assert.equal(countdown(deadline, NOW), want, String(deadline));
});

test('handoffs: running ones first by deadline, then recently ended ones, latest first', () => {
  const state = {
    handoffs: [
      { id: 'late', status: 'RUNNING', deadline: at(600_000) },
      { id: 'old', status: 'FINISHED', ended_at: at(-ENDED_SHOWN_MS - 1) },
      { id: 'ended1', status: 'CANCELLED', ended_at: at(-60_000) },
      { id: 'soon', status: 'RUNNING', deadline: at(60_000) },
      { id: 'ended2', status: 'TIMED_OUT', ended_at: at(-1000) },
      { id: 'nodeadline', status: 'RUNNING' },
    ],
  };
  assert.deepEqual(handoffsToShow(state, NOW).map((h) => h.id), ['soon', 'late', 'nodeadline', 'ended2', 'ended1']);
  assert.deepEqual(handoffsToShow(undefined, NOW), []);
});

test('task progress', () => {
  assert.equal(progressText({ id: 't', progress: { done: 3, total: 20, message: 'crawled /docs/a' } }), '3/20 — crawled /docs/a');
  assert.equal(progressText({ id: 't', progress: { done: 3, total: 20 } }), '3/20');
  assert.equal(progressText({ id: 't', progress: { done: 3 } }), '3');
  assert.equal(progressText({ id: 't', progress: { done: 0, total: 0, message: 'starting' } }), '0 — starting');
  assert.equal(progressText({ id: 't', progress: { message: 'starting' } }), 'starting');
  assert.equal(progressText({ id: 't' }), '');
});

test('activity rows say what ran, never with what', () => {
  const d = new Date(2026, 10, 21, 9, 5, 7); // local time
  assert.deepEqual(activityRow({ at: d.toISOString(), agent: 'claude-code', tool: 'navigate', tabId: 12, ms: 220.4, ok: true }), {
    time: '09:05:07', agent: 'claude-code', tool: 'navigate', tab: 'tab 12', outcome: '✓', ms: '220 ms', ok: true,
  });
  assert.deepEqual(activityRow({ at: d.toISOString(), agent: 'claude-code', tool: 'interact', tabId: 12, ms: 31, ok: false, error: 'stale_ref' }), {
    time: '09:05:07', agent: 'claude-code', tool: 'interact', tab: 'tab 12', outcome: 'stale_ref', ms: '31 ms', ok: false,
  });
  assert.equal(activityRow({ tool: 'upload_file', detail: 'cv.pdf, photo.png', ok: true }).tool, 'upload_file: cv.pdf, photo.png');
  assert.equal(activityRow({ tool: 'navigate', origin: 'https://example.com', ok: true }).tab, 'https://example.com');
  assert.deepEqual(activityRow({}), { time: '', agent: '', tool: '', tab: '', outcome: 'error', ms: '', ok: false });
  assert.equal(clock('nope'), '');
});

test('the connection line', () => {
  assert.equal(connectionText({ connected: true, since: at(0) }), 'Connected');
  assert.equal(connectionText({ connected: false, since: at(0), reason: 'Native host has exited.' }),
    'Not connected — run `openchrome doctor`');
  assert.equal(connectionText(undefined), 'Not connected — run `openchrome doctor`');
});

test('the connection line says reconnecting while the link is coming back', () => {
  const now = NOW + 10_000;
  const cases = [
    ['the worker is down, whatever it last said', { connected: true, since: at(0) }, false, 'Reconnecting…'],
    ['a restarted worker connecting', { connected: false, since: at(0), reason: 'connecting' }, true, 'Reconnecting…'],
    ['the host went a moment ago', { connected: false, since: at(0), reason: 'Native host has exited.' }, true, 'Reconnecting…'],
    ['the host went long ago', { connected: false, since: at(-RECONNECTING_MS), reason: 'Native host has exited.' }, true,
      'Not connected — run `openchrome doctor`'],
    ['the host is not installed', { connected: false, since: at(0), reason: 'Specified native messaging host not found.' }, true,
      'Not connected — run `openchrome doctor`'],
    ['connected', { connected: true, since: at(0) }, true, 'Connected'],
  ];
  for (const [name, connection, workerUp, want] of cases) {
    assert.equal(connectionText(/** @type {any} */ (connection), now, /** @type {boolean} */ (workerUp)), want, String(name));
  }
  assert.match(badge({}, { connected: false, since: at(0), reason: 'Native host has exited.' }, now).title, /reconnecting/);
});

test('the badge counts the handoffs waiting, or says the host is not there', () => {
  const on = { connected: true, since: at(0) };
  const two = { handoffs: [{ id: 'a', status: 'RUNNING' }, { id: 'b', status: 'RUNNING' }, { id: 'c', status: 'FINISHED' }] };
  assert.deepEqual(badge(two, on), {
    text: '2', color: '#d93025', title: 'OpenChrome: 2 agent handoffs are waiting for you. Open the side panel.',
  });
  assert.equal(badge({ handoffs: [{ id: 'a', status: 'RUNNING' }] }, on).title,
    'OpenChrome: an agent is waiting for you. Open the side panel.');
  assert.deepEqual(badge({ handoffs: [] }, on),
    { text: '', color: '#1a73e8', title: 'OpenChrome: connected. Nothing is waiting for you.' });
  const off = badge(two, { connected: false, since: at(0), reason: 'Native host has exited.' });
  assert.equal(off.text, '!');
  assert.equal(off.color, '#80868b');
  assert.match(off.title, /not connected.*openchrome doctor/);
  assert.equal(badge(undefined, undefined).text, '!');
});

test('the badge counts the questions too, and says where to answer', () => {
  const on = { connected: true, since: at(0) };
  const b = badge({ handoffs: [{ id: 'a', status: 'RUNNING' }], feedback: [{ id: 'q', tabId: 4 }] }, on);
  assert.equal(b.text, '2');
  assert.equal(b.color, '#d93025');
  assert.match(b.title, /asks you something.*side panel/);
});

// page/banner.js is a classic script and cannot import this module: it has
// copies of the reason labels and the countdown, which must agree.

const bannerSource = readFileSync(new URL('../page/banner.js', import.meta.url), 'utf8');

/**
 * Evaluates the text of a declaration in page/banner.js.
 * @param {RegExp} re matches the declaration; group 1 is the expression
 */
function fromBanner(re) {
  const m = bannerSource.match(re);
  assert.ok(m, `page/banner.js has no ${re}`);
  return new Function(`return (${m[1]});`)();
}

test("page/banner.js's reason labels are lib/panel.js's", () => {
  const labels = fromBanner(/const REASON_LABELS = (\{[\s\S]*?\n {2}\});/);
  assert.deepEqual(labels, { ...REASON_LABELS });
});

test("page/banner.js's countdown is lib/panel.js's", () => {
  const bannerCountdown = fromBanner(/\n {2}(function countdown\(deadline, now\) \{[\s\S]*?\n {2}\})\n/);
  for (const ms of [-1000, 0, 1, 999, 1000, 59_999, 60_000, 245_000, 3_599_999, 3_600_000, 3_723_000, 360_000_000]) {
    assert.equal(bannerCountdown(at(ms), NOW), countdown(at(ms), NOW), `${ms} ms`);
  }
  assert.equal(bannerCountdown('nope', NOW), '');
});

test('an envelope as the panel shows it', () => {
  assert.deepEqual(envelopeLines({ id: 'a', objective: 'Buy milk', phase: 'act', calls: 12, max_calls: 60,
    elapsed_ms: 200_000, max_wall_ms: 600_000, budget_status: 'ok' }), {
    objective: 'Buy milk', phase: 'act', usage: '12 of 60 calls · 3:20 of 10:00', standing: '', warning: '', wandering: false,
  });
  const wandering = envelopeLines({ id: 'b', objective: 'Find a flight', phase: 'explore', calls: 7, elapsed_ms: 5_000,
    budget_status: 'exceeded', budget_reasons: ['observation streak 7 of 6'], recommended_next: 'change_strategy_or_verify',
    warning: '7 observation calls in a row (at most 6) without acting' });
  assert.equal(wandering.usage, '7 calls · 0:05');
  assert.equal(wandering.standing, 'Over budget: observation streak 7 of 6; told to change strategy or verify');
  assert.equal(wandering.warning, '7 observation calls in a row (at most 6) without acting');
  assert.ok(wandering.wandering);
  assert.equal(envelopeLines({ id: 'c', calls: 1 }).usage, '1 call');
  assert.equal(duration(3_723_000), '1:02:03');
  assert.equal(duration(-1), '');
});

// page/overlay.js is a classic script too: its hints must be lib/feedback.js's.

test('the overlay says what lib/feedback.js says', async () => {
  const { MODE_HINTS } = await import('./feedback.js');
  const overlay = readFileSync(new URL('../page/overlay.js', import.meta.url), 'utf8');
  for (const [mode, hint] of Object.entries(MODE_HINTS)) {
    assert.ok(overlay.includes(`${mode}: '${hint}'`), `page/overlay.js lacks ${mode}: '${hint}'`);
  }
});
