// @ts-check
// Locating and acting through the DOM: where ref's element is and what
// state it is in, what a click at a point would hit, and what the service
// worker does through the DOM instead of input events (scrolling, focus, the
// ladder's DOM click, values no typing reaches).

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.dom) return; // injected again: the first copy stays
  const { PageError } = oc;
  const { element, refFor, advance, handed } = oc.refs;
  const {
    isElement, isInput, isTextArea, isSelect, isLabel, isFrame, UNTYPED, INTERACTIVE, CHECKABLE,
    roleOf, nameOf, textOf, clip, shadowOf, composedContains, childrenOf, visible, clippedToNothing, clippedAway, layoutParent, mapImage, isDisabled, startsPointer, shownLabel, secretOf, valueOf, choicesOf, readOnly, describe, frameSource, editorInput,
  } = oc.roles;

  /** How many of a select's options an answer lists. */
  const MAX_LISTED = 20;

  /**
   * The element's box in this frame's top-level viewport (same-origin parent
   * frames included), in CSS pixels.
   * @param {Element} el
   */
  function boxOf(el) {
    const r = rectOf(el);
    let x = r.x;
    let y = r.y;
    for (let w = /** @type {Window | null} */ (el.ownerDocument.defaultView); w && w !== window; w = w.parent) {
      const fe = w.frameElement;
      if (!fe) break;
      const fr = fe.getBoundingClientRect();
      const cs = getComputedStyle(fe);
      x += fr.x + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
      y += fr.y + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop);
    }
    return { x, y, width: r.width, height: r.height };
  }

  /**
   * el's box in its frame's viewport. An image map's area has none of its
   * own: its shape's box on the image (coords in CSS pixels from the
   * image's corner; a poly's bounding box; the whole image by default).
   * @param {Element} el
   * @returns {DOMRect}
   */
  function rectOf(el) {
    const img = el.tagName === 'AREA' ? mapImage(el) : null;
    if (!img) return el.getBoundingClientRect();
    const r = img.getBoundingClientRect();
    const c = (el.getAttribute('coords') ?? '').split(/[\s,]+/).filter(Boolean).map(Number);
    const shape = (el.getAttribute('shape') ?? 'rect').toLowerCase();
    let [x1, y1, x2, y2] = [0, 0, r.width, r.height];
    if (shape.startsWith('rect') && c.length >= 4) {
      [x1, y1, x2, y2] = [Math.min(c[0], c[2]), Math.min(c[1], c[3]), Math.max(c[0], c[2]), Math.max(c[1], c[3])];
    } else if (shape.startsWith('circ') && c.length >= 3) {
      [x1, y1, x2, y2] = [c[0] - c[2], c[1] - c[2], c[0] + c[2], c[1] + c[2]];
    } else if (shape.startsWith('poly') && c.length >= 6) {
      const xs = c.filter((_, i) => i % 2 === 0);
      const ys = c.filter((_, i) => i % 2 === 1);
      [x1, y1, x2, y2] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }
    return new DOMRect(r.x + x1, r.y + y1, x2 - x1, y2 - y1);
  }

  /**
   * Scrolls el to the middle of the view; an area, its image.
   * @param {Element} el
   */
  function scrollToMiddle(el) {
    (el.tagName === 'AREA' ? mapImage(el) ?? el : el).scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }

  /**
   * Whether el is checked, as check and uncheck compare it before they
   * click: a native box's own state; an ARIA one's aria-checked, false
   * when a box says nothing (as ARIA reads it). A box half set ("mixed")
   * is neither: a click is what sets it.
   * @param {Element} el
   * @param {string} role
   * @returns {boolean | undefined}
   */
  function checkedOf(el, role) {
    if (isInput(el) && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
    const a = el.getAttribute('aria-checked');
    if (a === 'true') return true;
    if (a === 'mixed') return undefined;
    return a === 'false' || CHECKABLE.has(role) ? false : undefined;
  }

  /**
   * locate: where ref's element is and what state it is in.
   * @param {{ ref: number }} args
   */
  function locate({ ref }) {
    const el = element(ref);
    const role = roleOf(el);
    const box = boxOf(el);
    const name = nameOf(el, role);
    return {
      tag: el.tagName.toLowerCase(),
      type: isInput(el) ? el.type : undefined,
      role,
      name,
      // What a nameless target shows, so the answer can say which one it was.
      text: name ? undefined : clip(textOf(el, true)).slice(0, 40) || undefined,
      box,
      visible: visible(el) && box.width > 0 && box.height > 0,
      inViewport: box.x + box.width > 0 && box.y + box.height > 0 && box.x < innerWidth && box.y < innerHeight,
      disabled: isDisabled(el),
      editable: editable(el),
      readonly: readOnly(el) || undefined,
      // How many characters it keeps, when the page limits them.
      maxLength: (isInput(el) || isTextArea(el)) && el.maxLength > 0 ? el.maxLength : undefined,
      checked: checkedOf(el, role),
      // A checkbox's or radio's form value ("pro"), which an agent that read
      // the form's HTML may name it by.
      formValue: isInput(el) && (el.type === 'checkbox' || el.type === 'radio') && el.hasAttribute('value')
        ? el.value.slice(0, 200) : undefined,
      value: secretOf(el) ? undefined : valueOf(el, role),
      // All of it, for fill to check the field kept a long text.
      held: secretOf(el) ? undefined : valueOf(el, role, true),
      secret: secretOf(el) || undefined,
      // A closed select's list is the browser's own: what it offers.
      options: choicesOf(el)?.slice(0, MAX_LISTED),
      focused: deepActive() === el,
      // What it opens, when it says: a button that opens a list to pick from.
      popup: el.getAttribute('aria-haspopup') || undefined,
      searches: searches(el, role, name) || undefined,
      // A code editor's hidden textarea: its text is the editor's to say.
      editor: editorInput(el) || undefined,
      // A script listens on it for another gesture than a click: the one.
      gesture: oc.tree.gestureOf(el),
      // In a frame this script walks in place (a same-origin iframe's).
      framed: el.ownerDocument !== document || undefined,
      app: appLink(el),
      range: rangeOf(el, role),
      viewport: { width: innerWidth, height: innerHeight },
      content: el.tagName === 'IFRAME' ? contentOrigin(el, box) : undefined,
      // A frame whose document this script cannot read: where it comes from.
      crossFrame: isFrame(el) && !sameOriginDocument(el) ? frameSource(el) : undefined,
    };
  }

  /**
   * Whether el is a field a page searches or filters by as it is typed in:
   * a search box, a text box in a search landmark (a <search>, a
   * role=search form), or one named so ("Search products", "Filter").
   * @param {Element} el
   * @param {string} role
   * @param {string} name
   */
  function searches(el, role, name) {
    if (role === 'searchbox') return true;
    if (role !== 'textbox' && role !== 'combobox') return false;
    if (el.closest('search, [role=search]')) return true;
    return /\b(search|filter)/i.test(`${name} ${el.getAttribute('placeholder') ?? ''}`);
  }

  /** The schemes of the URLs a tab shows; a link to any other opens another program. */
  const SHOWN_SCHEMES = new Set(['http:', 'https:', 'about:', 'javascript:', 'data:', 'blob:', 'file:']);

  /**
   * The URL of the link el is in, when a click on it opens another
   * application (mailto:, tel:, slack:), not a page.
   * @param {Element} el
   */
  function appLink(el) {
    const link = el.closest('a[href], area[href]');
    if (!link) return undefined;
    try {
      const url = new URL(/** @type {HTMLAnchorElement} */ (link).href);
      return SHOWN_SCHEMES.has(url.protocol) ? undefined : url.href.slice(0, 200);
    } catch {
      return undefined;
    }
  }

  /**
   * Where a slider or spin button the page draws (aria-valuenow on an
   * element that is no input) stands, and its ends: a slider's are 0 and
   * 100 unless it says, a spin button has none unless it says.
   * @param {Element} el
   * @param {string} role
   * @returns {{ now: number, min?: number, max?: number } | undefined}
   */
  function rangeOf(el, role) {
    const now = el.getAttribute('aria-valuenow');
    if (isInput(el) || now === null || now.trim() === '' || !Number.isFinite(Number(now))) return undefined;
    const num = (/** @type {string} */ attr, /** @type {number | undefined} */ dflt) => {
      const v = Number(el.getAttribute(attr) ?? NaN);
      return Number.isFinite(v) && el.getAttribute(attr)?.trim() ? v : dflt;
    };
    const spin = role === 'spinbutton';
    return { now: Number(now), min: num('aria-valuemin', spin ? undefined : 0), max: num('aria-valuemax', spin ? undefined : 100) };
  }

  /**
   * Where a frame element's content starts: inside its border and padding.
   * @param {Element} el
   * @param {{ x: number, y: number }} box
   */
  function contentOrigin(el, box) {
    const cs = getComputedStyle(el);
    return {
      x: box.x + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft),
      y: box.y + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop),
    };
  }

  /** @param {Element} el */
  function editable(el) {
    if (isTextArea(el)) return !el.readOnly && !isDisabled(el);
    if (isInput(el)) {
      return !el.readOnly && !isDisabled(el) &&
        !UNTYPED.has(el.type);
    }
    return /** @type {HTMLElement} */ (el).isContentEditable;
  }

  /** The focused element, through shadow roots and same-origin frames. */
  function deepActive() {
    let a = document.activeElement;
    for (;;) {
      const shadow = a && shadowOf(a);
      if (shadow?.activeElement) a = shadow.activeElement;
      else if (isFrame(a) && a.contentDocument?.activeElement) a = a.contentDocument.activeElement;
      else return a;
    }
  }

  /**
   * focused: the element that has the focus, with a ref, through shadow
   * roots and same-origin frames; nothing when it is the page itself.
   * @param {{ refBase?: number, refSkip?: [number, number][] }} args
   */
  function focused({ refBase, refSkip }) {
    advance(refBase ?? 0, refSkip);
    const a = deepActive();
    if (!a || a === a.ownerDocument.body || a === a.ownerDocument.documentElement) return { ...handed() };
    return { ref: refFor(a), name: describe(a), app: appLink(a), ...handed() };
  }

  /**
   * What a click at (x, y), in top-level viewport CSS pixels, would hit.
   * @param {number} x
   * @param {number} y
   * @returns {Element | null}
   */
  function hitAt(x, y) {
    /** @type {Document | ShadowRoot} */
    let root = document;
    let px = x;
    let py = y;
    for (;;) {
      /** @type {Element | null} */
      let hit = root.elementFromPoint(px, py);
      // Into shadow roots, open or closed...
      for (let shadow; hit && (shadow = shadowOf(hit));) {
        const inner = shadow.elementFromPoint(px, py);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      // ...and same-origin frames.
      if (isFrame(hit)) {
        let doc = null;
        try {
          doc = hit.contentDocument;
        } catch {
          // cross-origin
        }
        if (doc) {
          const r = hit.getBoundingClientRect();
          const cs = getComputedStyle(hit);
          px -= r.x + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
          py -= r.y + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop);
          root = doc;
          continue;
        }
      }
      return hit;
    }
  }

  /**
   * caretToEnd puts the caret after el's text, reporting false where the
   * control has no caret to place from a script (an email or number input).
   * @param {Element} el
   */
  function caretToEnd(el) {
    if (isInput(el) || isTextArea(el)) {
      try {
        el.setSelectionRange(el.value.length, el.value.length);
        return true;
      } catch {
        return false;
      }
    }
    selectContents(el, true);
    return true;
  }

  /**
   * Selects everything an editable element holds, or, with toEnd, puts the
   * caret after it.
   * @param {Element} el
   * @param {boolean} toEnd
   */
  function selectContents(el, toEnd) {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (toEnd) range.collapse(false);
    const sel = el.ownerDocument.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  }

  /**
   * dom: what the service worker does through the DOM instead of input
   * events: scrolling, focusing, the DOM-level click of the ladder, and
   * setting values that input events cannot reach (select, date, range).
   * @param {{ ref: number, op: string, value?: string, values?: string[] }} args
   */
  function dom({ ref, op, value, values }) {
    const el = element(ref);
    const html = /** @type {HTMLElement} */ (el);
    switch (op) {
      case 'scrollIntoView':
        scrollToMiddle(el);
        return {};
      case 'focus':
        html.focus({ preventScroll: false });
        return { focused: deepActive() === el };
      case 'caretAtEnd': {
        // Where text is typed: a control the agent put the caret in (value
        // "keep") keeps its place; any other gets it after its text, as a
        // person's click beside the words does (a value written in the
        // page's HTML, or autofocus, would have the caret before it).
        const keep = value === 'keep' && deepActive() === el;
        html.focus({ preventScroll: false });
        const focused = deepActive() === el;
        return { focused, atEnd: keep || !focused || caretToEnd(el) };
      }
      case 'click':
        html.click();
        return {};
      case 'selectText':
        if (isInput(el) || isTextArea(el)) {
          el.focus();
          el.select();
        } else if (html.isContentEditable) {
          html.focus();
          selectContents(el, false);
        }
        return { focused: deepActive() === el };
      case 'setValue':
        return setValue(el, value ?? '');
      case 'select':
        return selectOptions(el, values ?? []);
      case 'markUpload':
        // For the service worker's CDP search (sw/upload.js), at once undone.
        el.setAttribute('data-openchrome-upload', value ?? '');
        return {
          file: isInput(el) && el.type === 'file',
          multiple: isInput(el) && el.multiple,
          label: describe(el),
        };
      case 'unmarkUpload':
        el.removeAttribute('data-openchrome-upload');
        return {};
      case 'dropWatch':
        dropWatch(el);
        return {};
      case 'dropTaken':
        return dropTaken();
    }
    throw new PageError('bad_request', `unknown dom op ${op}`);
  }

  /** The dragover a drop is aimed with, and how its listener is taken off. @type {{ last?: Event, off: () => void } | undefined} */
  let dropping;

  /**
   * Keeps the next dragover that reaches el's window: a page that takes
   * dropped files cancels it (preventDefault), one that does not leaves it
   * to the browser, which would open the files in the tab.
   * @param {Element} el
   */
  function dropWatch(el) {
    dropping?.off();
    const view = el.ownerDocument.defaultView ?? window;
    const seen = (/** @type {Event} */ e) => {
      if (dropping) dropping.last = e;
    };
    view.addEventListener('dragover', seen, true);
    dropping = { off: () => view.removeEventListener('dragover', seen, true) };
  }

  /**
   * Whether the page took the dragover dropWatch kept: its handlers have
   * all run by now, and the event says whether one cancelled it.
   */
  function dropTaken() {
    const e = dropping?.last;
    dropping?.off();
    dropping = undefined;
    return { taken: !!e && e.defaultPrevented };
  }

  /**
   * Sets a control's value the way a framework sees it: through the
   * prototype's setter (React tracks the instance's own), then input and
   * change events.
   * @param {Element} el
   * @param {string} value
   */
  function setValue(el, value) {
    if (isInput(el)) refuseMalformed(el, value);
    if (isInput(el) || isTextArea(el)) {
      // The setter of the element's own prototype chain, whichever frame
      // made it, not the one its instance may shadow.
      const proto = Object.getPrototypeOf(el);
      const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set ??
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(proto), 'value')?.set;
      setter?.call(el, value);
    } else if (/** @type {HTMLElement} */ (el).isContentEditable) {
      el.textContent = value;
    } else {
      throw new PageError('bad_request', `${describe(el)} has no value to set`, 'use interact with click or type');
    }
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: secretOf(el) ? undefined : valueOf(el, roleOf(el)) };
  }

  /**
   * The value formats of inputs that drop a value they cannot read: a
   * date box given "11/25/2026" would be emptied, and the person's date
   * with it.
   */
  const FORMATS = /** @type {Record<string, string>} */ ({
    date: 'YYYY-MM-DD, like 2026-11-25',
    time: 'HH:MM or HH:MM:SS, 24-hour, like 13:45',
    'datetime-local': 'YYYY-MM-DDTHH:MM, like 2026-11-25T13:45',
    month: 'YYYY-MM, like 2026-11',
    week: 'YYYY-Www, like 2026-W48',
    color: '#rrggbb, like #ff8800',
    range: 'a number',
  });

  /**
   * Throws, before anything is written, when el would not keep value as
   * given: the browser's own parsing of it, on an input nobody sees, says.
   * @param {HTMLInputElement} el
   * @param {string} value
   */
  function refuseMalformed(el, value) {
    const format = FORMATS[el.type];
    if (!format || value === '') return;
    const probe = el.ownerDocument.createElement('input');
    probe.type = el.type;
    probe.value = value;
    const kept = el.type === 'color' ? probe.value === value.toLowerCase()
      : el.type === 'range' ? value.trim() !== '' && Number.isFinite(Number(value)) : probe.value !== '';
    const given = secretOf(el) ? 'that value' : `"${value}"`;
    if (!kept) throw new PageError('bad_request', `${describe(el)} cannot take ${given}: nothing was written`, `it takes ${format}`);
  }

  /**
   * Selects options of a select by label, text or value.
   * @param {Element} el
   * @param {string[]} wanted
   */
  function selectOptions(el, wanted) {
    if (!(isSelect(el))) {
      throw new PageError('bad_request', `${describe(el)} is not a select`,
        'its list is the page\'s own: click it to open the list, then click the option by its name');
    }
    if (!el.multiple && wanted.length > 1) {
      throw new PageError('bad_request', `${describe(el)} takes one option, not ${wanted.length}`);
    }
    const opts = [...el.options];
    const labelOf = (/** @type {HTMLOptionElement} */ o) => (o.label || o.text).trim();
    const picked = wanted.map((w) => {
      const lw = w.trim().toLowerCase();
      let o = opts.find((o) => o.value === w) ?? opts.find((o) => o.label.trim().toLowerCase() === lw) ??
        opts.find((o) => o.text.trim().toLowerCase() === lw) ?? opts.find((o) => o.value.toLowerCase() === lw);
      if (!o && lw) {
        // Words a label begins with, as a person types them into a select
        // ("united states" for "United States of America"): one option only.
        const starts = opts.filter((o) => `${labelOf(o).toLowerCase()} `.startsWith(`${lw} `));
        if (starts.length > 1) {
          throw new PageError('bad_request', `${describe(el)} has ${starts.length} options that begin "${w}": nothing was selected`,
            `say which: ${starts.slice(0, MAX_LISTED).map(labelOf).join(', ')}`);
        }
        o = starts[0];
      }
      if (!o) {
        throw new PageError('bad_request', `${describe(el)} has no option "${w}"`,
          `options: ${opts.slice(0, MAX_LISTED).map(labelOf).join(', ')}`);
      }
      if (o.disabled) throw new PageError('bad_request', `option "${w}" is disabled`);
      return o;
    });
    for (const o of opts) o.selected = picked.includes(o);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: valueOf(el, roleOf(el)) };
  }

  /**
   * The words that begin the name of a control that dismisses a banner or
   * dialog, by how much it agrees to: in English, and in the languages of
   * the consent banners a person's profile meets most (German, French,
   * Spanish, Italian, Portuguese, Dutch, Polish). A word ending in a letter
   * outside ASCII is cut before it: \b knows only ASCII letters.
   */
  const REJECTS = [
    'reject', 'refuse', 'decline', 'deny', 'disagree', '(?:only |use )?(?:strictly )?(?:necessary|essential)', 'no,? thanks',
    'ablehnen', 'verweigern', 'nur (?:notwendige|erforderliche|essenzielle)', 'refuser', 'rejeter', 'continuer sans accepter',
    'rechazar', 'solo (?:necesarias|necessari)', 'rifiuta', 'rejeitar', 'recusar', 'weigeren', 'alleen noodzakelijke', 'odrzu',
  ];
  const CLOSES = [
    'close', 'dismiss', 'hide', 'cancel', 'not now', 'maybe later', 'later', 'skip',
    'schließen', 'später', 'nicht jetzt', 'fermer', 'plus tard', 'pas maintenant', 'cerrar', 'ahora no', 'más tarde',
    'chiudi', 'non ora', 'più tardi', 'fechar', 'agora não', 'mais tarde', 'sluiten', 'niet nu', 'zamknij',
  ];
  const ACCEPTS = [
    'accept', 'allow', 'agree', 'i agree', 'i accept',
    'akzeptieren', 'annehmen', 'zustimmen', 'zulassen', 'erlauben', 'einverstanden', 'accepter', 'j[\'’]accepte', 'autoriser',
    'aceptar', 'acepto', 'permitir', 'accetta', 'accetto', 'consenti', 'aceitar', 'aceito', 'concordo', 'accepteren', 'akkoord',
    'toestaan', 'akceptuj', 'zgadzam',
  ];
  /** Neither: an acknowledgement, or saving the choices made. */
  const ACKNOWLEDGES = [
    'i understand', 'understood', 'ok', 'okay', 'got it', 'continue', 'done', 'save (?:my )?(?:choices|preferences|settings)',
    'verstanden', 'auswahl (?:speichern|bestätigen)', 'compris', 'entendido', 'capito', 'entendi', 'begrepen',
  ];

  /**
   * Names of the controls that dismiss a banner or dialog: close, accept,
   * reject, and the like ("Alle akzeptieren", "Tout refuser" too).
   */
  const DISMISS = new RegExp('^(?:[×✕✖✗╳xX]|(?:(?:alle|alles|tout|todo|tutto) )?' +
    `(?:${[...REJECTS, ...CLOSES, ...ACCEPTS, ...ACKNOWLEDGES].join('|')})\\b.*)$`, 'i');

  /**
   * actionable: whether a person's click could reach ref's element now, and
   * where, scrolling it into view when it is out of it. The state is ok,
   * with a point whose hit test lands on the element (or on its label, for
   * a checkbox or radio styled away behind one: via "label"); hidden;
   * disabled; offscreen, when no point of it can be brought into the
   * viewport; or covered, with what would take the click instead and the
   * controls that would dismiss that, with refs. animating says a running
   * animation may still move it. at: the point the pointer was brought to,
   * kept when the hit test there still lands on the element. hidden: the
   * page is not shown (a tab behind the person's own, a minimized window),
   * so trusted input needs no look of its own to know (trusted-input.js).
   * @param {{ ref: number, refBase?: number, refSkip?: [number, number][], at?: PagePoint }} args
   */
  function actionable({ ref, refBase, refSkip, at }) {
    advance(refBase ?? 0, refSkip);
    const hidden = document.visibilityState === 'hidden' || undefined;
    const out = (/** @type {Record<string, unknown>} */ o) => ({ ...o, hidden, ...handed() });
    const el = element(ref);
    if (isDisabled(el)) return out({ state: 'disabled' });
    // A checkbox styled away behind its label (transparent, clipped to a
    // pixel, moved off the page) is clicked where a person clicks it: on
    // the label, which hands the click to it once.
    const label = shownLabel(el);
    /** @type {Element[]} */
    const faces = [...(shown(el) ? [el] : []), ...(label && shown(label) ? [label] : [])];
    // A link with no box of its own is clicked where its content shows.
    const content = faces.length ? undefined : shownContent(el);
    if (content) faces.push(content);
    if (!faces.length) return out({ state: 'hidden' });
    if (at) {
      const h = hitAt(at.x, at.y);
      if (h && lands(el, h)) {
        const face = viaOf(el, h) ? label ?? el : el;
        return out({ state: 'ok', point: at, box: boxOf(face), animating: isAnimating(face), via: viaOf(el, h) });
      }
    }
    /** @type {Record<string, unknown> | undefined} */
    let first;
    for (const face of faces) {
      const r = pointOn(el, face);
      if (r.state === 'ok') return out(r);
      first ??= r;
    }
    return out(/** @type {Record<string, unknown>} */ (first));
  }

  /**
   * Where on face (el, or a label of el) a click reaches el, scrolling face
   * into view when it is out of it: ok with the point; offscreen; or
   * covered, with what takes the click.
   * @param {Element} el
   * @param {Element} face
   * @returns {Record<string, unknown>}
   */
  function pointOn(el, face) {
    // Text for screen readers (a skip link, a visually hidden button) is
    // clipped to nothing where it stands: no scroll or wait brings it to a
    // pointer, which would land on what is under it.
    if (clipsItself(face)) return { state: 'offscreen', box: boxOf(face), animating: false, clipped: true };
    let box = boxOf(face);
    let seen = seenPart(face, box);
    let scrolled = false;
    const scroll = () => {
      scrollToMiddle(face);
      box = boxOf(face);
      seen = seenPart(face, box);
      scrolled = true;
    };
    if (!seen) scroll();
    const animating = isAnimating(face);
    /** @type {PagePoint[]} */
    let candidates;
    for (;;) {
      // The part a person sees first; then the rest of the box, in case
      // the clipping was misjudged: the hit test has the last word.
      candidates = [...(seen ? pointsIn(seen) : []), ...pointsIn(box)];
      if (!candidates.length && scrolled) break;
      for (const p of candidates) {
        const h = hitAt(p.x, p.y);
        if (h && lands(el, h)) return { state: 'ok', point: p, box, animating, via: viaOf(el, h) };
      }
      // A sticky header over an element near the top of the view: a
      // person would scroll it to the middle. Scrolling acts on nothing.
      if (scrolled) break;
      scroll();
    }
    // What a person sees of it may be drawn out of its own box (a sidebar's
    // toggle whose arrow is fixed mid-screen while the bar it belongs to
    // lies below the view): a click there is on it too.
    const drawn = pointOnDrawnPart(el, face);
    if (drawn) return { state: 'ok', point: drawn.point, box: drawn.box, animating, via: viaOf(el, drawn.hit) };
    if (!candidates.length) return { state: 'offscreen', box, animating };
    const c = candidates[0];
    const h = hitAt(c.x, c.y);
    return { state: 'covered', box, animating, ...blockerOf(face, h), away: h ? awayFrom(h, el, c) : undefined };
  }

  /**
   * Where the pointer goes to stop hovering what covers el, when the cover
   * may be there because the pointer rests on it (a menu opened on hover,
   * a tooltip): a point of the view just outside the outermost hovered
   * element around the hit that does not hold el, nearest the click point
   * first. A person moves the mouse off a menu to close it. Undefined when
   * nothing around the hit is hovered, or no such point is free of it.
   * @param {Element} h what the hit test found at p
   * @param {Element} el
   * @param {PagePoint} p
   * @returns {PagePoint | undefined}
   */
  function awayFrom(h, el, p) {
    /** @type {Element | undefined} */
    let hovered;
    for (let a = /** @type {Element | null} */ (h); a; a = layoutParent(a)) {
      if (composedContains(a, el)) break;
      if (a.matches(':hover')) hovered = a;
    }
    if (!hovered) return undefined;
    const r = hovered.getBoundingClientRect();
    const [w, hgt] = [innerWidth, innerHeight];
    const tries = [{ x: p.x, y: r.bottom + 4 }, { x: p.x, y: r.top - 4 }, { x: r.right + 4, y: p.y }, { x: r.left - 4, y: p.y }];
    return tries.find((t) => t.x >= 1 && t.y >= 1 && t.x < w - 1 && t.y < hgt - 1 && !composedContains(hovered, hitAt(t.x, t.y) ?? hovered));
  }

  /** The events of a click a guard lets reach only its element. */
  const CLICK_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu'];

  /** How long a guard stands at most, should its click never end. */
  const GUARD_MS = 2000;

  /**
   * The guards standing, by id: what each stopped and whether anything of
   * its click reached its element.
   * @type {Map<number, { stop: () => void, stopped?: string, reached: boolean }>}
   */
  const guards = new Map();
  let guardSeq = 0;

  /**
   * guard: until the click's last event (last) has gone by, the trusted
   * events of a click that would reach anything but ref's element, a label
   * of it, or the closed shadow root it lies in are stopped before any
   * listener of the page's hears them: an element that moved between the
   * hit test and the press (a list that reflowed) takes nothing, and
   * neither does the one now under the pointer.
   * @param {{ ref: number, last: string }} args
   */
  function guard({ ref, last }) {
    const el = element(ref);
    const view = el.ownerDocument.defaultView ?? window;
    const labels = /** @type {HTMLInputElement} */ (el).labels;
    /** @type {Node[]} what may be on an event's path for the click to be el's */
    const its = [el, ...(labels ?? [])];
    // A frame's own classes differ from ours: nodes are told by their type.
    for (let n = el.getRootNode(); n.nodeType === Node.DOCUMENT_FRAGMENT_NODE;) {
      const root = /** @type {ShadowRoot} */ (n);
      if (root.mode === 'closed') its.push(root.host); // its inside is not on the path
      n = root.host.getRootNode();
    }
    const id = ++guardSeq;
    /** @type {{ stop: () => void, stopped?: string, reached: boolean }} */
    const g = { stop: () => {}, reached: false };
    /** @param {Event} e */
    const listen = (e) => {
      if (!e.isTrusted) return;
      const path = e.composedPath();
      if (its.some((n) => path.includes(n))) {
        g.reached = true;
      } else {
        e.preventDefault();
        e.stopImmediatePropagation();
        const hit = /** @type {Element | undefined} */ (path.find((n) => /** @type {Node} */ (n).nodeType === Node.ELEMENT_NODE));
        g.stopped ??= hit ? describe(hit) : 'the page';
      }
      if (e.type === last) g.stop();
    };
    const timer = setTimeout(() => {
      g.stop();
      guards.delete(id); // no one asked: a dialog held the page
    }, GUARD_MS);
    g.stop = () => {
      clearTimeout(timer);
      for (const type of CLICK_EVENTS) view.removeEventListener(type, listen, { capture: true });
    };
    for (const type of CLICK_EVENTS) view.addEventListener(type, listen, { capture: true });
    guards.set(id, g);
    return { guard: id };
  }

  /**
   * unguard: ends a guard, and says what it stopped (described) and
   * whether anything of the click reached the element.
   * @param {{ guard: number }} args
   */
  function unguard({ guard: id }) {
    const g = guards.get(id);
    if (!g) return { reached: false };
    g.stop();
    guards.delete(id);
    return { stopped: g.stopped, reached: g.reached };
  }

  /**
   * reaches: whether a click at (x, y) gets to ref's element, an iframe
   * whose cross-origin content the click is meant for: ok; covered, with
   * what takes it and the controls that would dismiss that; or, for a point
   * outside this frame's viewport, scrolled: the iframe is brought into view
   * and the caller looks again.
   * @param {{ ref: number, x: number, y: number, refBase?: number, refSkip?: [number, number][] }} args
   */
  function reaches({ ref, x, y, refBase, refSkip }) {
    advance(refBase ?? 0, refSkip);
    const out = (/** @type {Record<string, unknown>} */ o) => ({ ...o, ...handed() });
    const el = element(ref);
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
      scrollToMiddle(el);
      return out({ state: 'offscreen', scrolled: true });
    }
    const h = hitAt(x, y);
    if (lands(el, h)) return out({ state: 'ok' });
    return out({ state: 'covered', ...blockerOf(el, h) });
  }

  /**
   * Whether a person sees el: visible, with a box, and not inside a panel
   * that shows none of what it holds (a collapsed accordion's).
   * @param {Element} el
   */
  function shown(el) {
    if (!visible(el)) return false;
    const r = rectOf(el);
    return r.width > 0 && r.height > 0 && !clippedAway(el);
  }

  /** How many elements shownContent looks through. */
  const CONTENT_SCAN = 200;

  /**
   * What a person sees and clicks of el when el has no box of its own: a
   * link laid out as display: contents, or one whose content floats or is
   * positioned out of it. The largest shown element among the first it
   * holds; a click there reaches el, as the hit test then checks.
   * @param {Element} el
   * @returns {Element | undefined}
   */
  function shownContent(el) {
    if (!visible(el) && getComputedStyle(el).display !== 'contents') return undefined;
    let best;
    let most = 0;
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    let n = 0;
    for (let d = /** @type {Element | null} */ (walker.nextNode()); d && n < CONTENT_SCAN; d = /** @type {Element | null} */ (walker.nextNode()), n++) {
      if (!shown(d)) continue;
      const r = rectOf(d);
      if (r.width * r.height > most) [best, most] = [d, r.width * r.height];
    }
    return best;
  }

  /**
   * Whether el clips itself to nothing, as the visually hidden text of
   * screen readers does: clip-path: inset(50%), a clip of no area
   * (roles.js clippedToNothing), or a pixel's box that hides its overflow.
   * @param {Element} el
   */
  function clipsItself(el) {
    const cs = getComputedStyle(el);
    if (cs.clipPath === 'inset(50%)' || clippedToNothing(cs)) return true;
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') return false;
    const r = el.getBoundingClientRect();
    return r.width <= 1 && r.height <= 1;
  }

  /**
   * The part of el's box (box, in the top viewport) a person can see: cut
   * by the viewports around it and by every element around it that clips
   * what overflows it, such as a scrolling list. A fixed element escapes
   * the clipping of those around it. Undefined when none of it shows.
   * @param {Element} el
   * @param {{ x: number, y: number, width: number, height: number }} box
   */
  function seenPart(el, box) {
    const own = rectOf(el);
    const dx = box.x - own.x;
    const dy = box.y - own.y;
    let [left, top, right, bottom] = [box.x, box.y, box.x + box.width, box.y + box.height];
    /** @type {(x: number, y: number, w: number, h: number) => void} */
    const cut = (x, y, w, h) => {
      left = Math.max(left, x);
      top = Math.max(top, y);
      right = Math.min(right, x + w);
      bottom = Math.min(bottom, y + h);
    };
    cut(0, 0, innerWidth, innerHeight);
    const doc = el.ownerDocument;
    const view = doc.defaultView;
    if (view) {
      cut(dx, dy, view.innerWidth, view.innerHeight);
      for (let e = el.tagName === 'AREA' ? mapImage(el) ?? el : el; view.getComputedStyle(e).position !== 'fixed';) {
        const a = layoutParent(e);
        if (!a || a === doc.body || a === doc.documentElement) break;
        const cs = view.getComputedStyle(a);
        if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
          const r = a.getBoundingClientRect();
          cut(dx + r.x + a.clientLeft, dy + r.y + a.clientTop, a.clientWidth, a.clientHeight);
        }
        e = a;
      }
    }
    if (right <= left || bottom <= top) return undefined;
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  /**
   * Points of box inside the viewport, the centre first, then a grid.
   * @param {{ x: number, y: number, width: number, height: number }} b
   */
  function pointsIn(b) {
    const out = [];
    for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) {
      for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        const x = b.x + b.width * fx;
        const y = b.y + b.height * fy;
        if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight) out.push({ x, y });
      }
    }
    return out;
  }

  /**
   * A point of the view on a part of face drawn out of its box (fixed or
   * absolutely placed), among its first DRAWN_PARTS elements, where a
   * click lands on el; undefined when there is none.
   * @param {Element} el
   * @param {Element} face
   * @returns {{ point: PagePoint, box: PageBox, hit: Element } | undefined}
   */
  function pointOnDrawnPart(el, face) {
    let looked = 0;
    for (const d of face.querySelectorAll('*')) {
      if (++looked > DRAWN_PARTS) break;
      const position = getComputedStyle(d).position;
      if (position !== 'fixed' && position !== 'absolute') continue;
      const box = boxOf(d);
      const seen = seenPart(d, box);
      if (!seen) continue;
      for (const p of pointsIn(seen)) {
        const h = hitAt(p.x, p.y);
        if (h && lands(el, h)) return { point: p, box, hit: h };
      }
    }
    return undefined;
  }

  /** How many of an element's own elements pointOnDrawnPart looks at. */
  const DRAWN_PARTS = 50;

  /**
   * Whether a click that hits h reaches el: on it, inside it, or on a label
   * of it.
   * @param {Element} el
   * @param {Element | null} h
   */
  function lands(el, h) {
    if (!h) return false;
    if (h === el || el.contains(h) || composedContains(el, h) || drawnInFrame(el, h)) return true;
    // On a label of el, or on its text, but not on a link or another
    // control inside it: that takes the click for itself.
    for (let e = /** @type {Element | null} */ (h); e; e = e.parentElement) {
      if (isLabel(e)) return e.control === el;
      if (INTERACTIVE.has(roleOf(e))) return false;
    }
    return false;
  }

  /**
   * How a hit h that lands reaches el: on el itself (undefined), or
   * through a label of el.
   * @param {Element} el
   * @param {Element} h
   */
  function viaOf(el, h) {
    return el.contains(h) || composedContains(el, h) || drawnInFrame(el, h) ? undefined : 'label';
  }

  /**
   * Whether h is in the document a same-origin iframe el draws, or in one
   * nested in it: input there is input to the frame (a wheel that scrolls
   * it). Not so for an element around the iframe: no event of the frame's
   * reaches it.
   * @param {Element} el
   * @param {Element} h
   */
  function drawnInFrame(el, h) {
    if (!isFrame(el)) return false;
    for (let doc = /** @type {Document | undefined} */ (h.ownerDocument); doc && doc !== el.ownerDocument;) {
      /** @type {Element | null | undefined} */
      const frame = doc.defaultView?.frameElement;
      if (frame === el) return true;
      doc = frame?.ownerDocument;
    }
    return false;
  }

  /**
   * Whether an animation runs on el or on an element around it, or a
   * script restyled one of them a moment ago.
   * @param {Element} el
   */
  function isAnimating(el) {
    for (const a of el.ownerDocument.getAnimations()) {
      const t = /** @type {KeyframeEffect | null} */ (a.effect)?.target;
      if (a.playState === 'running' && t && (t === el || t.contains(el))) return true;
    }
    // A script that moves it frame by frame runs no animation: its style
    // set a moment ago says it may (page/watch.js, loaded after this).
    return oc.watch?.restyled(el) ?? false;
  }

  /**
   * What takes a click meant for el: the outermost element around the hit
   * that does not hold el (the banner, not its paragraph), and the controls
   * in it that would dismiss it. An ancestor of el that takes the click
   * means el itself lets pointer events through. A banner drawn in an
   * iframe (a consent manager's) has its controls in that frame: those of
   * a same-origin one are read here; a cross-origin one is named by ref
   * (frame) for the service worker to ask.
   * @param {Element} el
   * @param {Element | null} h
   */
  function blockerOf(el, h) {
    if (!h) return {};
    if (composedContains(h, el)) {
      // el lets clicks through (pointer-events: none) to what holds it:
      // named when that does something with them, a control or an element
      // a script listens on; else the page turned el's clicks off.
      for (let e = /** @type {Element | null} */ (h); e && e !== e.ownerDocument.body; e = layoutParent(e)) {
        if (INTERACTIVE.has(roleOf(e)) || e.hasAttribute('onclick') || oc.tree.listenedOn(e)) {
          return { blocker: { ref: refFor(e), name: describe(e) }, passThrough: true };
        }
      }
      return { passThrough: true };
    }
    // A hit inside a same-origin frame that does not hold el: the frame is
    // what covers el.
    /** @type {Element} */
    let root = h;
    while (!holds(root.ownerDocument, el)) {
      /** @type {Element | null | undefined} */
      const frame = root.ownerDocument.defaultView?.frameElement;
      if (!frame) break;
      root = frame;
    }
    const top = root.ownerDocument;
    for (let up = layoutParent(root); up && up !== top.body && up !== top.documentElement && !composedContains(up, el);
      up = layoutParent(up)) {
      root = up;
    }
    // A backdrop drawn apart from its dialog (a sibling under it): the
    // dialog is what a person sees in the way, and closes.
    const modal = isBackdrop(root) ? modalOver(root, el) : undefined;
    // A dialog the page showed modal closes on Escape, whatever its buttons
    // do: the hit is on it or on its ::backdrop, which is its own.
    const dialog = h.closest('dialog');
    const escapes = (!!dialog && shownModal(dialog)) || undefined;
    if (modal) {
      const dismiss = dismissIn(modal);
      return { blocker: { ref: refFor(modal), name: describe(modal) }, dismiss, asks: dismiss.length ? undefined : asksIn(modal), escapes };
    }
    const named = titledIn(root) ?? root;
    const blocker = { ref: refFor(named), name: describe(named) };
    const dismiss = dismissIn(root);
    if (dismiss.length) return { blocker, dismiss, escapes };
    const asks = asksIn(root);
    if (asks) return { blocker, dismiss, asks, escapes };
    const iframe = isFrame(root) ? root : root.querySelector('iframe');
    if (!iframe || !shown(iframe)) return { blocker, dismiss, escapes, pinned: pinned(root) || undefined, unseen: drawsNothing(root) || undefined };
    const inner = sameOriginDocument(iframe);
    if (inner) return { blocker, dismiss: dismissIn(inner.documentElement) };
    return { blocker, dismiss, frame: { ref: refFor(iframe), ...frameSource(iframe) } };
  }

  /** The tags and roles of a page's own header, footer and navigation. */
  const CHROME_TAGS = new Set(['HEADER', 'FOOTER', 'NAV']);
  const CHROME_ROLES = new Set(['banner', 'contentinfo', 'navigation']);

  /**
   * Whether root is the page's own header, footer or navigation, fixed to
   * the window (or stuck to its edge): no Escape or button closes it, and
   * what lies under it where the page ends stays under it.
   * @param {Element} root
   */
  function pinned(root) {
    if (!CHROME_TAGS.has(root.tagName) && !CHROME_ROLES.has(roleOf(root))) return false;
    const { position } = getComputedStyle(root);
    return position === 'fixed' || position === 'sticky';
  }

  /** How many elements of a blocker drawsNothing looks at before it says it draws. */
  const UNSEEN_MAX = 50;

  /**
   * Whether root, a blocker, draws nothing a person sees: no words,
   * pictures or controls (isBackdrop), and no background, border or shadow
   * of its own or of what it holds. A transparent layer left over the page
   * (a click shield, a modal's backdrop its script forgot) takes the clicks
   * meant for what lies under it, where a person sees nothing in the way.
   * @param {Element} root
   */
  function drawsNothing(root) {
    if (!isBackdrop(root)) return false;
    const all = [root, ...root.querySelectorAll('*')];
    if (all.length > UNSEEN_MAX) return false;
    // An unset value ('') is the initial one: nothing drawn.
    const none = (/** @type {string} */ v) => v === '' || v === 'none';
    const clear = (/** @type {string} */ colour) => colour === '' || colour === 'transparent' || /^rgba\(.*,\s*0\)$/.test(colour);
    return all.every((e) => {
      const cs = getComputedStyle(e);
      return clear(cs.backgroundColor) && none(cs.backgroundImage) && none(cs.boxShadow) &&
        ['top', 'right', 'bottom', 'left'].every((side) => none(cs.getPropertyValue(`border-${side}-style`)) ||
          !(Number.parseFloat(cs.getPropertyValue(`border-${side}-width`)) > 0));
    });
  }

  /**
   * Whether el is a <dialog> shown with showModal(), which the browser
   * closes on Escape.
   * @param {Element} el
   */
  function shownModal(el) {
    if (el.tagName !== 'DIALOG' || !el.hasAttribute('open')) return false;
    try {
      return el.matches(':modal');
    } catch {
      return false; // a browser that has no :modal
    }
  }

  /**
   * Whether a blocker is a bare backdrop: a box that says nothing and holds
   * nothing to use or look at.
   * @param {Element} root
   */
  function isBackdrop(root) {
    return !isFrame(root) && !(root.textContent ?? '').trim() && !root.querySelector('iframe, img, svg, video, canvas, input, button, a') &&
      !shadowOf(root);
  }

  /**
   * The dialog a backdrop lies under, not holding el: the last shown modal
   * dialog of its document, or failing one, the last box at the top of the
   * body drawn out of the flow with controls that would close it.
   * @param {Element} backdrop
   * @param {Element} el
   * @returns {Element | undefined}
   */
  function modalOver(backdrop, el) {
    const doc = backdrop.ownerDocument;
    if (doc !== document) return undefined; // hit tests here are the top's
    const under = backdrop.getBoundingClientRect();
    // Drawn over the backdrop: the middle of what shows of it is seen, and
    // the backdrop lies behind it. A banner beside a spinner's cover is not
    // its dialog.
    const over = (/** @type {Element} */ d) => {
      const r = d.getBoundingClientRect();
      const x = (Math.max(r.left, 0) + Math.min(r.right, innerWidth)) / 2;
      const y = (Math.max(r.top, 0) + Math.min(r.bottom, innerHeight)) / 2;
      const h = hitAt(x, y);
      return !!h && composedContains(d, h) && x >= under.left && x < under.right && y >= under.top && y < under.bottom;
    };
    const free = (/** @type {Element} */ d) => d !== backdrop && shown(d) && !composedContains(d, el) && over(d);
    const dialogs = [...doc.querySelectorAll('dialog[open], [aria-modal="true"], [role="dialog"], [role="alertdialog"]')].filter(free);
    if (dialogs.length) return dialogs[dialogs.length - 1];
    const view = doc.defaultView;
    for (const c of [...(doc.body?.children ?? [])].reverse()) {
      if (!free(c) || !view) continue;
      const position = view.getComputedStyle(c).position;
      if ((position === 'fixed' || position === 'absolute') && dismissIn(c).length) return c;
    }
    return undefined;
  }

  /** Roles of what a person calls a banner or a dialog by its name. */
  const TITLED = new Set(['dialog', 'alertdialog', 'region', 'banner', 'complementary', 'contentinfo', 'form']);

  /**
   * What in a blocker (a backdrop and what it holds, a wrapper) a person
   * would name it by: the first shown dialog or named region in it, shadow
   * roots too; undefined when there is none to be found near the top.
   * @param {Element} root
   * @returns {Element | undefined}
   */
  function titledIn(root) {
    /** @type {Element[]} */
    const queue = [root];
    for (let i = 0; i < queue.length && i < TITLED_LOOK; i++) {
      const el = queue[i];
      const role = roleOf(el);
      if (TITLED.has(role) && (role.endsWith('dialog') || nameOf(el, role)) && visible(el)) return el;
      for (const c of childrenOf(el)) if (isElement(c)) queue.push(c);
    }
    return undefined;
  }

  /** How many elements of a blocker titledIn looks at, outermost first. */
  const TITLED_LOOK = 200;

  /**
   * Whether el is in doc, or in a frame of doc's (at any depth).
   * @param {Document} doc
   * @param {Element} el
   */
  function holds(doc, el) {
    for (let d = /** @type {Document | undefined} */ (el.ownerDocument); d; d = d.defaultView?.frameElement?.ownerDocument) {
      if (d === doc) return true;
    }
    return false;
  }

  /**
   * The document of a same-origin frame element; null for a cross-origin one.
   * @param {Element} iframe
   */
  function sameOriginDocument(iframe) {
    try {
      return /** @type {HTMLIFrameElement} */ (iframe).contentDocument;
    } catch {
      return null;
    }
  }

  /**
   * The controls in root that would dismiss it, at most four, with refs,
   * the least a person would agree to first.
   * @param {Element | null} root
   * @returns {Array<{ ref: number, name: string }>}
   */
  function dismissIn(root) {
    if (!root) return [];
    /** @type {Array<{ el: Element, rank: number }>} */
    const found = [];
    for (const c of controlsIn(root)) {
      if (!shown(c)) continue;
      // A styled span has no name of its own: its text is what a person reads.
      const name = (nameOf(c, roleOf(c)) || (c.textContent ?? '').slice(0, 80)).trim();
      if (DISMISS.test(name)) found.push({ el: c, rank: consent(name) });
    }
    // Stable: document order within a rank.
    found.sort((a, b) => a.rank - b.rank);
    return found.slice(0, 4).map(({ el }) => ({ ref: refFor(el), name: describe(el) }));
  }

  /**
   * The buttons of a dialog that none of them plainly dismisses ("Really
   * leave?" with "Stay" and "Leave"): its answers, at most four, for the
   * agent to choose among. Undefined when root is no dialog.
   * @param {Element} root
   */
  function asksIn(root) {
    const dialog = ['dialog', 'alertdialog'].includes(roleOf(root)) ? root : root.querySelector('dialog[open], [role="dialog"], [role="alertdialog"]');
    if (!dialog) return undefined;
    const answers = controlsIn(dialog).filter(shown).slice(0, 4).map((c) => ({ ref: refFor(c), name: describe(c) }));
    return answers.length ? answers : undefined;
  }

  /**
   * How much a dismissing control agrees to, least first: the profile is
   * the person's, and an agent that takes the first way out of a consent
   * banner rejects, or closes it, rather than accepting all on their behalf.
   * @param {string} name
   */
  function consent(name) {
    if (REJECTED.test(name)) return 0;
    if (CLOSED.test(name)) return 1;
    if (ACCEPTED.test(name)) return 3;
    return 2; // ok, got it, continue, save my choices
  }

  const REJECTED = new RegExp(`\\b(?:${REJECTS.join('|')})\\b`, 'i');
  const CLOSED = new RegExp(`^(?:[×✕✖✗╳xX]$|(?:${CLOSES.join('|')})\\b)`, 'i');
  const ACCEPTED = new RegExp(`\\b(?:${ACCEPTS.join('|')})\\b`, 'i');

  /**
   * scrollState: what a wheel at (x, y) would scroll, and where it is: the
   * innermost element around the hit that scrolls (a mail app's message
   * list), else the page. Asked before and after a page scroll, so its
   * account names the pane that moved.
   * @param {{ x: number, y: number }} args
   */
  function scrollState({ x, y }) {
    for (let el = hitAt(x, y); el;
      el = el.parentElement ?? /** @type {ShadowRoot | null} */ (el.parentNode)?.host ?? null) {
      const doc = el.ownerDocument;
      if (el === doc.documentElement || el === doc.body) {
        // A same-origin frame the hit went into scrolls its own document.
        const frame = doc === document ? null : doc.defaultView?.frameElement;
        if (!frame || !doc.defaultView) break;
        const root = doc.scrollingElement ?? doc.documentElement;
        if (root.scrollHeight > root.clientHeight || root.scrollWidth > root.clientWidth) {
          return { pane: describe(frame), ...placeOf(doc.defaultView.scrollY, doc.defaultView.scrollX, root) };
        }
        el = frame; // on to what holds the frame
        continue;
      }
      const cs = getComputedStyle(el);
      const scrolls = /(auto|scroll|overlay)/.test(`${cs.overflowY} ${cs.overflowX}`) &&
        (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
      if (scrolls) return { pane: describe(el), ...placeOf(el.scrollTop, el.scrollLeft, el) };
    }
    return placeOf(scrollY, scrollX, document.scrollingElement ?? document.documentElement);
  }

  /**
   * Where a scroller is, and which ways it can still move.
   * @param {number} top
   * @param {number} left
   * @param {Element} el the scroller (the page's scrolling element for the page)
   */
  function placeOf(top, left, el) {
    return {
      top: Math.round(top), left: Math.round(left), height: el.scrollHeight,
      room: { up: top > 0, down: top + el.clientHeight < el.scrollHeight - 1, left: left > 0, right: left + el.clientWidth < el.scrollWidth - 1 },
    };
  }

  /**
   * dismissers: the controls of this frame's document that would dismiss
   * it: asked of a cross-origin frame that covers an element of the page
   * around it (a consent manager's banner).
   * @param {{ refBase: number, refSkip?: [number, number][] }} args
   */
  function dismissers({ refBase, refSkip }) {
    advance(refBase, refSkip);
    return { dismiss: dismissIn(document.documentElement), ...handed() };
  }

  /** How many of a drawn list's options, or of what a hover showed, an answer names. */
  const MAX_OFFERED = 10;

  /**
   * What an answer offers of els, the next click's choices: the first
   * MAX_OFFERED with refs, and how many more there are.
   * @param {Element[]} els
   */
  function offers(els) {
    const offered = els.slice(0, MAX_OFFERED).map((o) => {
      const role = roleOf(o);
      return { ref: refFor(o), role, name: clip(nameOf(o, role)) };
    });
    return { offered, more: Math.max(0, els.length - MAX_OFFERED) };
  }

  /**
   * listOptions: the options a combobox's own list shows now (a list the
   * page draws: an autocomplete, a styled dropdown), and the one named
   * value, when exactly one is. The list is the one its aria-controls or
   * aria-owns names, or, when it names none, its own listbox, or else the
   * one listbox the page shows.
   * @param {{ ref: number, value: string, refBase: number, refSkip?: [number, number][] }} args
   */
  function listOptions({ ref, value, refBase, refSkip }) {
    advance(refBase, refSkip);
    const el = element(ref);
    const lists = listsOf(el);
    /** @type {Element[]} */
    const options = [];
    for (const list of lists) {
      for (const o of list.querySelectorAll(ITEMS)) {
        if (shown(o) && o.getAttribute('aria-disabled') !== 'true' && !options.includes(o)) options.push(o);
      }
    }
    const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim().toLowerCase();
    const want = norm(value);
    const named = options.filter((o) => norm(nameOf(o, roleOf(o))) === want);
    return {
      match: named.length === 1 ? refFor(named[0]) : undefined,
      listed: lists.length > 0,
      suggests: suggests(el),
      ...offers(options),
      ...handed(),
    };
  }

  /**
   * Whether a combobox says it suggests options as it is typed in: it
   * names its list, or completes in one.
   * @param {Element} el
   */
  function suggests(el) {
    return [el, el.closest('[role="combobox"]')].some((c) => !!c &&
      (c.hasAttribute('aria-controls') || c.hasAttribute('aria-owns') || /^(list|both)$/.test(c.getAttribute('aria-autocomplete') ?? '')));
  }

  /** What a list offers to pick: a listbox's options, a menu's items. */
  const ITEMS = '[role="option"], [role="menuitem"], [role="menuitemcheckbox"], [role="menuitemradio"]';

  /**
   * The lists a combobox shows its options in, or a button the menu or
   * list it opens.
   * @param {Element} el
   * @returns {Element[]}
   */
  function listsOf(el) {
    const role = roleOf(el);
    if (role === 'listbox' || role === 'menu') return [el];
    const doc = el.ownerDocument;
    const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    /** @type {Element[]} */
    const named = [];
    // The combobox role may sit on a wrapper around the input (ARIA 1.1).
    for (const c of [el, el.closest('[role="combobox"]'), el.querySelector('[role="combobox"], input')]) {
      if (!c) continue;
      for (const attr of ['aria-controls', 'aria-owns']) {
        for (const id of (c.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)) {
          const l = root.getElementById?.(id) ?? doc.getElementById(id);
          if (l && !named.includes(l)) named.push(l);
        }
      }
    }
    // A list it names is the one, open or not.
    if (named.length) return named.filter(shown);
    // A menu button's menu, or a combobox's listbox; a button that opens a
    // list may open either.
    const popup = el.getAttribute('aria-haspopup');
    const kind = role === 'combobox' ? '[role="listbox"]'
      : popup === 'listbox' ? '[role="listbox"]' : popup === 'menu' || popup === 'true' ? '[role="menu"]'
        : '[role="listbox"], [role="menu"]';
    const own = el.querySelector(kind) ?? (role === 'combobox' ? null : el.parentElement?.querySelector(kind));
    if (own && shown(own)) return [own];
    const open = [...doc.querySelectorAll(kind)].filter(shown);
    return open.length === 1 ? open : [];
  }

  /** What a person takes for a button: its content is part of it. */
  const CONTROLS = 'button, a[href], [role="button"], [role="link"], input[type="button"], input[type="submit"], [onclick]';
  /**
   * What may be a control, or a container named for assistive technology
   * (a consent banner's region labelled "Cookie banner", a dialog that
   * takes focus): a control only when no control is inside it.
   */
  const MAYBE_CONTROLS = '[aria-label], [tabindex]:not([tabindex="-1"])';

  /**
   * The controls inside root, open shadow roots included, in document
   * order: the elements a person would take for buttons, and those where
   * the hand cursor starts (a close "×" that is a styled span).
   * @param {Element} root
   * @returns {Element[]}
   */
  function controlsIn(root) {
    /** @type {Array<{ el: Element, sure: boolean }>} */
    let out = [];
    let budget = 3000; // a blocker is a banner or a dialog, not a page: stop reading long before one
    /** @param {Element | ShadowRoot} r */
    const walk = (r) => {
      for (const el of r.querySelectorAll('*')) {
        if (--budget < 0) return;
        const sure = el.matches(CONTROLS) || startsPointer(el);
        if (sure || el.matches(MAYBE_CONTROLS)) {
          // A control's content is the control; a labelled container holding
          // one is not a control.
          if (!out.some((o) => o.sure && composedContains(o.el, el))) {
            out = out.filter((o) => o.sure || !composedContains(o.el, el));
            out.push({ el, sure });
          }
        }
        const shadow = shadowOf(el);
        if (shadow) walk(shadow);
      }
    };
    const shadow = shadowOf(root);
    if (shadow) walk(shadow);
    walk(root);
    return out.map((o) => o.el);
  }

  /**
   * appAt: the address a click at (x, y) would hand to another application
   * (the mailto: link there), as locate's app says of an element.
   * @param {{ x: number, y: number }} args
   */
  function appAt({ x, y }) {
    const el = hitAt(x, y);
    return { app: el ? appLink(el) : undefined };
  }

  oc.dom = { locate, dom, deepActive, focused, actionable, guard, unguard, reaches, dismissers, listOptions, offers, scrollState, appAt };
})();
