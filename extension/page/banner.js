// @ts-check
// The handoff banner: what a tab shows while an agent waits for the person
// (docs/human.md). sw/banner.js injects this file into the tab's top frame
// (isolated world) and then calls __openchromeBanner.show(handoff) or
// .remove(). Injecting it twice is harmless.
//
// The page must neither read the banner nor press it: it lives in a closed
// shadow root under an <openchrome-banner> element, its styles are
// !important inside that root (which beats the page's own !important), its
// text is set through textContent (the instruction comes from an agent), and
// its buttons act only on trusted events, which a page's script cannot make.
// The page script (page/*.js, lib/page-files.js) skips the element.
//
// A classic script, not a module, for the reasons page/namespace.js gives.

(() => {
  const VERSION = 2;
  const g = /** @type {any} */ (globalThis);
  if (g.__openchromeBanner?.version === VERSION) return;
  /** The banner's element and its keeping (page/shell.js, injected just before). */
  const { make, pin, el } = g.__openchromeShell;
  g.__openchromeBanner?.remove?.(); // an older banner, from before an update

  /**
   * @typedef {{ id: string, reason: string, instruction: string,
   *   deadline: string }} Banner
   */

  // A copy of REASON_LABELS in lib/panel.js; lib/panel.test.js checks that
  // the two agree.
  const REASON_LABELS = {
    login: 'Log in',
    '2fa': 'Enter the 2FA code',
    captcha: 'Solve the CAPTCHA',
    permission: 'Grant the permission',
    manual_recovery: 'Help the agent with this page',
    other: 'Your turn',
  };

  const CSS = `
    :host { top: 0 !important; left: 0 !important; right: 0 !important; }
    .bar, .pill {
      pointer-events: auto;
      font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
      color: #202124;
      background: #fef7e0;
      border-bottom: 2px solid #f9ab00;
      box-shadow: 0 2px 6px rgba(0, 0, 0, .2);
    }
    .bar {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 4px 12px;
      padding: 8px 12px;
    }
    .brand { font-weight: 700; color: #1a73e8; white-space: nowrap; }
    .reason { font-weight: 600; white-space: nowrap; }
    .instruction {
      flex: 1 1 240px;
      min-width: 0;
      max-height: 4.2em;
      overflow: auto;
      overflow-wrap: anywhere;
    }
    .time { font-variant-numeric: tabular-nums; white-space: nowrap; }
    .time.up { color: #d93025; font-weight: 600; }
    .error { color: #d93025; flex-basis: 100%; order: 1; }
    button {
      font: inherit;
      cursor: pointer;
      border-radius: 4px;
      padding: 4px 12px;
      border: 1px solid #dadce0;
      background: #fff;
      color: #202124;
    }
    button.finish { background: #1a73e8; border-color: #1a73e8; color: #fff; }
    button:disabled { opacity: .5; cursor: default; }
    button.collapse { padding: 4px 8px; }
    .pill {
      position: absolute;
      top: 8px;
      right: 8px;
      border: 2px solid #f9ab00;
      border-radius: 16px;
      padding: 4px 12px;
    }
    [hidden] { display: none !important; }
  `;

  /** @type {HTMLElement | undefined} the <openchrome-banner> element */
  let host;
  /** @type {Record<string, HTMLElement>} */
  let ui = {};
  /** @type {Banner | undefined} what is shown, while it should be */
  let current;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ticker;
  /** @type {(() => void) | undefined} unpins the banner (page/shell.js) */
  let unpin;

  /**
   * Shows h, making the banner or updating the one shown.
   * @param {Banner} h
   */
  function show(h) {
    const changed = current?.id !== h.id;
    current = { id: String(h.id), reason: String(h.reason), instruction: String(h.instruction), deadline: String(h.deadline) };
    if (!host) build();
    const label = Object.hasOwn(REASON_LABELS, current.reason)
      ? REASON_LABELS[/** @type {keyof typeof REASON_LABELS} */ (current.reason)] : REASON_LABELS.other;
    ui.reason.textContent = label;
    ui.instruction.textContent = current.instruction;
    if (changed) setBusy(false, '');
    if (host) unpin ??= pin(host);
    tick();
    ticker ??= setInterval(tick, 1000);
  }

  /**
   * Takes the banner down; reports whether one was shown.
   * @returns {boolean}
   */
  function remove() {
    const had = !!host?.isConnected;
    current = undefined;
    unpin?.();
    unpin = undefined;
    clearInterval(ticker);
    ticker = undefined;
    host?.remove();
    host = undefined;
    ui = {};
    return had;
  }

  function build() {
    const { host: made, root } = make(CSS);
    host = made;
    const bar = el('div', 'bar');
    bar.setAttribute('role', 'region');
    bar.setAttribute('aria-label', 'OpenChrome');
    ui = {
      bar,
      reason: el('span', 'reason'),
      instruction: el('span', 'instruction'),
      time: el('span', 'time'),
      error: el('span', 'error'),
      finish: el('button', 'finish', 'Finish'),
      cancel: el('button', 'cancel', 'Cancel'),
      collapse: el('button', 'collapse', '–'),
      pill: el('button', 'pill'),
    };
    ui.collapse.title = 'Make the banner small';
    ui.pill.title = 'Show the OpenChrome banner';
    ui.pill.hidden = true;
    ui.error.hidden = true;
    bar.append(el('span', 'brand', 'OpenChrome'), ui.reason, ui.instruction, ui.time, ui.error,
      ui.finish, ui.cancel, ui.collapse);
    root.append(bar, ui.pill);
    ui.finish.addEventListener('click', (e) => press(e, 'handoff.finish'));
    ui.cancel.addEventListener('click', (e) => press(e, 'handoff.cancel'));
    ui.collapse.addEventListener('click', (e) => fold(e, true));
    ui.pill.addEventListener('click', (e) => fold(e, false));
  }

  /**
   * Sends the person's Finish or Cancel to the worker, which checks that
   * this tab's handoff is the one named.
   * @param {Event} e
   * @param {'handoff.finish' | 'handoff.cancel'} event
   */
  async function press(e, event) {
    if (!e.isTrusted || !current) return;
    const handoffId = current.id;
    setBusy(true, '');
    let reply;
    try {
      reply = await chrome.runtime.sendMessage({ type: 'human', event, data: { handoffId } });
    } catch (err) {
      // "Extension context invalidated": OpenChrome was updated or removed.
      reply = { ok: false, error: `OpenChrome cannot be reached (${err instanceof Error ? err.message : String(err)})` };
    }
    if (current?.id !== handoffId) return;
    if (!reply?.ok) setBusy(false, String(reply?.error ?? 'OpenChrome did not answer'));
  }

  /**
   * @param {boolean} busy whether Finish and Cancel wait for an answer
   * @param {string} error what went wrong, '' for nothing
   */
  function setBusy(busy, error) {
    if (!ui.finish) return;
    /** @type {HTMLButtonElement} */ (ui.finish).disabled = busy;
    /** @type {HTMLButtonElement} */ (ui.cancel).disabled = busy;
    ui.error.textContent = error;
    ui.error.hidden = !error;
  }

  /**
   * Folds the banner into a small pill, or back.
   * @param {Event} e
   * @param {boolean} small
   */
  function fold(e, small) {
    if (!e.isTrusted) return;
    ui.bar.hidden = small;
    ui.pill.hidden = !small;
    tick();
  }

  function tick() {
    if (!current || !ui.time) return;
    const left = countdown(current.deadline, Date.now());
    ui.time.textContent = left;
    ui.time.classList.toggle('up', left === 'time is up');
    ui.pill.textContent = `OpenChrome: ${ui.reason.textContent}${left ? ` · ${left}` : ''}`;
  }

  /**
   * The time left, as lib/panel.js's countdown says it.
   * @param {string} deadline
   * @param {number} now
   */
  function countdown(deadline, now) {
    const end = Date.parse(deadline);
    if (Number.isNaN(end)) return '';
    const left = Math.ceil((end - now) / 1000);
    if (left <= 0) return 'time is up';
    const h = Math.floor(left / 3600);
    const m = Math.floor((left % 3600) / 60);
    const s = String(left % 60).padStart(2, '0');
    return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
  }


  g.__openchromeBanner = { version: VERSION, show, remove };
})();
