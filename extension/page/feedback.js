// @ts-check
// The person's marks (browser_request_feedback), in the page script's ref
// space: the overlay (page/overlay.js, in the same isolated world) picks
// elements with pick and inside and keeps them; once the person has
// answered, the service worker calls feedbackMarks, which hands out refs for
// the kept elements as read_page does, so `interact` with one acts on
// exactly that element.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.feedback) return; // injected again: the first copy stays
  const { PageError } = oc;
  const { INTERACTIVE, inBanner, roleOf, nameOf, textOf, clip, visible, secretOf } = oc.roles;

  /** At most this many elements come back for a region. */
  const MAX_INSIDE = 50;
  const TEXT_MAX = 200;

  /**
   * The element under a point of the viewport, OpenChrome's own elements
   * ignored; when it sits in a link, a button or another control, that
   * control: a click on a button's label is a click on the button.
   * @param {number} x
   * @param {number} y
   * @returns {Element | null}
   */
  function pick(x, y) {
    const stack = document.elementsFromPoint ? document.elementsFromPoint(x, y) : [document.elementFromPoint(x, y)];
    const el = stack.find((e) => !!e && !inBanner(e) && e !== document.documentElement) ?? null;
    if (!el) return null;
    for (let e = /** @type {Element | null} */ (el); e && e !== document.body; e = e.parentElement) {
      if (INTERACTIVE.has(roleOf(e))) return e;
    }
    return el;
  }

  /**
   * Every element wholly inside rect (viewport CSS pixels) that means
   * something to a person: one with a role, or one with text of its own;
   * in document order, at most MAX_INSIDE.
   * @param {{ x: number, y: number, width: number, height: number }} rect
   * @returns {Element[]}
   */
  function inside(rect) {
    /** @type {Element[]} */
    const out = [];
    const right = rect.x + rect.width;
    const bottom = rect.y + rect.height;
    for (const el of document.body?.querySelectorAll('*') ?? []) {
      if (inBanner(el) || !(roleOf(el) || ownText(el))) continue;
      const b = el.getBoundingClientRect();
      if (b.width <= 0 || b.height <= 0) continue;
      if (b.left < rect.x || b.top < rect.y || b.right > right || b.bottom > bottom) continue;
      if (!visible(el)) continue;
      out.push(el);
      if (out.length === MAX_INSIDE) break;
    }
    return out;
  }

  /** @param {Element} el */
  function ownText(el) {
    for (const n of el.childNodes) {
      if (n.nodeType === Node.TEXT_NODE && n.textContent?.trim()) return true;
    }
    return false;
  }

  /**
   * A CSS selector for el: its id when that is unique, else the path of
   * tag:nth-of-type steps from the nearest ancestor with one (or the body).
   * @param {Element} el
   * @returns {string}
   */
  function selectorOf(el) {
    // CSS.escape, where the window has one (not every DOM does).
    const css = /** @type {{ CSS?: { escape?: (s: string) => string } }} */ (globalThis).CSS;
    /** @param {string} id */
    const esc = (id) => (css?.escape ? css.escape(id) : id.replace(/^(\d)|[^\w-]/g, (c, d) => (d ? `\\3${d} ` : `\\${c}`)));
    /** @param {string} id */
    const unique = (id) => {
      try {
        return document.querySelectorAll(`#${esc(id)}`).length === 1;
      } catch {
        return false;
      }
    };
    /** @type {string[]} */
    const steps = [];
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) {
      if (e.id && unique(e.id)) {
        steps.unshift(`#${esc(e.id)}`);
        break;
      }
      const tag = e.tagName.toLowerCase();
      if (e === document.body || e === document.documentElement) {
        steps.unshift(tag);
        break;
      }
      const same = e.parentElement ? [...e.parentElement.children].filter((c) => c.tagName === e.tagName) : [e];
      steps.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(e) + 1})` : tag);
    }
    return steps.join(' > ');
  }

  /**
   * What the agent learns of a marked element: role, name, selector and
   * text; a secret field's value is never read.
   * @param {Element} el
   */
  function describe(el) {
    const role = roleOf(el);
    const text = secretOf(el) ? '' : clip(textOf(el, true));
    return {
      role,
      name: nameOf(el, role),
      selector: selectorOf(el),
      text: text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}…` : text,
    };
  }

  /**
   * The elements the overlay kept for a request, with refs handed out from
   * refBase: null for one that has left the page.
   * @param {{ requestId: string, refBase: number, refSkip?: [number, number][] }} args
   */
  function feedbackMarks({ requestId, refBase, refSkip }) {
    const overlay = /** @type {{ marks?: (id: string) => Element[] | undefined } | undefined} */ (
      /** @type {any} */ (globalThis).__openchromeFeedback);
    const kept = overlay?.marks?.(String(requestId));
    if (!kept) throw new PageError('not_found', 'this page holds no marks for that request');
    oc.refs.advance(refBase, refSkip);
    const marks = kept.map((el) => (el?.isConnected ? { ref: oc.refs.refFor(el), ...describe(el) } : null));
    return { marks, ...oc.refs.handed() };
  }

  oc.feedback = { pick, inside, feedbackMarks };
})();
