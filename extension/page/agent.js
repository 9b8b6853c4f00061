// @ts-check
// The page agent: sw/agent.js injects this file into a frame's isolated
// world (chrome.scripting, world ISOLATED), then calls it by name. It reads
// the page — a compact accessibility-style tree, readable Markdown — keeps
// the refs it hands out, and finds, locates and watches elements for the
// actions the service worker drives with trusted input.
//
// A classic script, not a module: chrome.scripting injects files as
// scripts, and an import() from the isolated world needs the file to be web
// accessible, which would let any site detect the extension. So everything
// here is self-contained. The isolated world lives as long as the document,
// so the ref registry below does too: a ref means the same element until the
// element goes away or the frame navigates.

(() => {
  const VERSION = 2;
  const g = /** @type {any} */ (globalThis);
  if (g.__openchrome?.version === VERSION) return;

  /**
   * A node of the tree sent to the host. Short keys keep large pages cheap to
   * move; host/engine/snapshot.go mirrors them.
   * @typedef {{
   *   role?: string, name?: string, text?: string, ref?: number,
   *   level?: number, checked?: string, disabled?: boolean,
   *   expanded?: boolean, selected?: boolean, required?: boolean,
   *   value?: string, secret?: string, href?: string, frame?: FrameRef,
   *   inline?: boolean, kids?: TreeNode[],
   * }} TreeNode
   *   inline: the element flows in a line of text (a link in a paragraph)
   * @typedef {{ url: string, crossOrigin?: boolean }} FrameRef
   */

  // --- refs ---------------------------------------------------------------

  /** Ref number -> the element, for as long as it lives. @type {Map<number, WeakRef<Element>>} */
  const byRef = new Map();
  /** @type {WeakMap<Element, number>} */
  const refOf = new WeakMap();
  /** The next ref to hand out; the service worker keeps the tab's counter. */
  let nextRef = 1;

  /** @param {Element} el */
  function refFor(el) {
    let r = refOf.get(el);
    if (r === undefined) {
      r = nextRef++;
      refOf.set(el, r);
      byRef.set(r, new WeakRef(el));
    }
    return r;
  }

  /**
   * The live element behind ref, or a reason it is gone.
   * @param {number} ref
   * @returns {Element}
   */
  function element(ref) {
    const el = byRef.get(ref)?.deref();
    if (!el || !el.isConnected) {
      byRef.delete(ref);
      throw new AgentError('stale_ref', `ref e${ref} is gone: the element was removed from the page`,
        'call read_page for fresh refs');
    }
    return el;
  }

  class AgentError extends Error {
    /**
     * @param {string} code
     * @param {string} message
     * @param {string} [hint]
     */
    constructor(code, message, hint) {
      super(message);
      this.code = code;
      this.hint = hint;
    }
  }

  // --- element kinds ----------------------------------------------------------
  //
  // Tag checks, not instanceof: an element of a same-origin frame is made
  // by that frame's constructors, so `isInput(el)` is false
  // for it in ours.

  /**
   * @param {unknown} n
   * @param {string} tag
   */
  function tagIs(n, tag) {
    return !!n && /** @type {Node} */ (n).nodeType === Node.ELEMENT_NODE && /** @type {Element} */ (n).tagName === tag;
  }
  /** @param {unknown} n @returns {n is HTMLInputElement} */
  const isInput = (n) => tagIs(n, 'INPUT');
  /** @param {unknown} n @returns {n is HTMLTextAreaElement} */
  const isTextArea = (n) => tagIs(n, 'TEXTAREA');
  /** @param {unknown} n @returns {n is HTMLSelectElement} */
  const isSelect = (n) => tagIs(n, 'SELECT');
  /** @param {unknown} n @returns {n is HTMLLabelElement} */
  const isLabel = (n) => tagIs(n, 'LABEL');
  /** @param {unknown} n @returns {n is HTMLOptionElement} */
  const isOption = (n) => tagIs(n, 'OPTION');
  /** @param {unknown} n @returns {n is HTMLIFrameElement} */
  const isFrame = (n) => tagIs(n, 'IFRAME');
  /** @param {unknown} n @returns {n is HTMLProgressElement | HTMLMeterElement} */
  const isGauge = (n) => tagIs(n, 'PROGRESS') || tagIs(n, 'METER');
  /** @param {unknown} n @returns {n is Element} */
  const isElement = (n) => !!n && /** @type {Node} */ (n).nodeType === Node.ELEMENT_NODE;
  /** Controls whose labels name them (the "labelable" elements). @param {Element} el */
  const labelable = (el) => ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'METER', 'PROGRESS', 'OUTPUT'].includes(el.tagName);

  // --- roles and names ----------------------------------------------------

  // The handoff banner's element (page/banner.js): OpenChrome's, not the
  // page's, so no tree, text, search or fingerprint shows it.
  const BANNER = 'OPENCHROME-BANNER';
  /** @param {Element} el */
  const inBanner = (el) => !!el.closest('openchrome-banner');
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'BASE', BANNER]);
  const INTERACTIVE = new Set([
    'link', 'button', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton',
    'treeitem', 'gridcell',
  ]);
  // Roles kept as a node even without a name: they structure the page.
  const STRUCTURE = new Set([
    'navigation', 'main', 'banner', 'contentinfo', 'complementary', 'search', 'form', 'region',
    'dialog', 'alertdialog', 'alert', 'status', 'log', 'list', 'listitem', 'table', 'row', 'cell',
    'columnheader', 'rowheader', 'grid', 'heading', 'group', 'radiogroup', 'menu', 'menubar',
    'tablist', 'tabpanel', 'toolbar', 'tree', 'img', 'figure', 'iframe', 'code', 'blockquote',
    'term', 'definition', 'separator', 'progressbar', 'meter', 'article', 'math', 'note',
  ]);
  // Containers that get a ref, so read_page can read just them.
  const SECTION = new Set([
    'navigation', 'main', 'banner', 'contentinfo', 'complementary', 'search', 'form', 'region',
    'dialog', 'alertdialog', 'table', 'grid', 'iframe', 'menu', 'listbox', 'tablist', 'tabpanel', 'tree',
  ]);
  const NAME_FROM_CONTENT = new Set([
    'link', 'button', 'heading', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'treeitem', 'cell', 'gridcell', 'columnheader', 'rowheader', 'checkbox', 'radio', 'switch',
    'tooltip', 'term', 'status',
  ]);
  const BLOCK = new Set([
    'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT',
    'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
    'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TD',
    'TH', 'TR', 'UL', 'CAPTION', 'TBODY', 'THEAD', 'TFOOT',
  ]);
  // Elements that flow within a line of text.
  const INLINE = new Set([
    'A', 'ABBR', 'B', 'BDI', 'BDO', 'BUTTON', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'I', 'IMG',
    'INPUT', 'KBD', 'LABEL', 'MARK', 'OUTPUT', 'Q', 'S', 'SAMP', 'SELECT', 'SMALL', 'SPAN',
    'STRONG', 'SUB', 'SUP', 'TEXTAREA', 'TIME', 'U', 'VAR',
  ]);
  const NAME_MAX = 150;
  const VALUE_MAX = 200;

  /**
   * The element's ARIA role: explicit, else implicit; '' for generic.
   * @param {Element} el
   * @returns {string}
   */
  function roleOf(el) {
    const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
    if (explicit && explicit !== 'presentation' && explicit !== 'none') return explicit;
    if (explicit) return '';
    const tag = el.tagName;
    switch (tag) {
      case 'A':
      case 'AREA':
        return el.hasAttribute('href') ? 'link' : '';
      case 'BUTTON':
        return 'button';
      case 'INPUT':
        return inputRole(/** @type {HTMLInputElement} */ (el));
      case 'SELECT': {
        const s = /** @type {HTMLSelectElement} */ (el);
        return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
      }
      case 'OPTION':
        return 'option';
      case 'TEXTAREA':
        return 'textbox';
      case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6':
        return 'heading';
      case 'NAV':
        return 'navigation';
      case 'MAIN':
        return 'main';
      case 'HEADER':
        return landmarkScoped(el) ? '' : 'banner';
      case 'FOOTER':
        return landmarkScoped(el) ? '' : 'contentinfo';
      case 'ASIDE':
        return 'complementary';
      case 'FORM':
        return hasOwnName(el) ? 'form' : '';
      case 'SECTION':
        return hasOwnName(el) ? 'region' : '';
      case 'SEARCH':
        return 'search';
      case 'UL': case 'OL': case 'MENU':
        return 'list';
      case 'LI':
        return 'listitem';
      case 'DT':
        return 'term';
      case 'DD':
        return 'definition';
      case 'TABLE':
        return 'table';
      case 'TR':
        return 'row';
      case 'TD':
        return 'cell';
      case 'TH':
        return el.closest('thead') || el.getAttribute('scope') === 'col' ? 'columnheader' : 'rowheader';
      case 'IMG':
        return el.getAttribute('alt') === '' ? '' : 'img';
      case 'DIALOG':
        return 'dialog';
      case 'FIELDSET':
        return 'group';
      case 'DETAILS':
        return 'group';
      case 'SUMMARY':
        return 'button';
      case 'PROGRESS':
        return 'progressbar';
      case 'METER':
        return 'meter';
      case 'HR':
        return 'separator';
      case 'FIGURE':
        return 'figure';
      case 'IFRAME':
      case 'FRAME':
        return 'iframe';
      case 'PRE':
        return 'code';
      case 'BLOCKQUOTE':
        return 'blockquote';
      case 'OUTPUT':
        return 'status';
    }
    if (el.hasAttribute('contenteditable') && /** @type {HTMLElement} */ (el).isContentEditable &&
        !el.parentElement?.isContentEditable) {
      return 'textbox';
    }
    if (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.getAttribute('tabindex') !== '-1')) {
      return 'button';
    }
    return '';
  }

  /** @param {HTMLInputElement} el */
  function inputRole(el) {
    switch (el.type) {
      case 'hidden':
        return '';
      case 'checkbox':
        return el.getAttribute('role') === 'switch' ? 'switch' : 'checkbox';
      case 'radio':
        return 'radio';
      case 'range':
        return 'slider';
      case 'number':
        return 'spinbutton';
      case 'button': case 'submit': case 'reset': case 'image':
        return 'button';
      case 'search':
        return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      case 'file':
        return 'button';
      default:
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  }

  /** A header or footer inside an article or section is not a landmark. @param {Element} el */
  function landmarkScoped(el) {
    return !!el.parentElement?.closest('article, aside, main, nav, section');
  }

  /** @param {Element} el */
  function hasOwnName(el) {
    return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title');
  }

  /**
   * The accessible name, simplified from accname-1.2: labelledby, label,
   * the control's own labels, content for the roles that take it, alt,
   * placeholder, title.
   * @param {Element} el
   * @param {string} role
   * @returns {string}
   */
  function nameOf(el, role) {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
      const text = by.split(/\s+/)
        .map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id))
        .map((t) => (t ? textOf(t, false) : ''))
        .join(' ');
      if (text.trim()) return clip(text);
    }
    const label = el.getAttribute('aria-label');
    if (label?.trim()) return clip(label);
    if (labelable(el)) {
      const control = /** @type {HTMLInputElement} */ (el);
      const labels = control.labels ? [...control.labels].map((l) => textOf(l, true, el)).join(' ') : '';
      if (labels.trim()) return clip(labels);
      if (isInput(el)) {
        if (['button', 'submit', 'reset'].includes(el.type)) {
          return clip(el.value || { submit: 'Submit', reset: 'Reset' }[el.type] || '');
        }
        if (el.type === 'image') return clip(el.alt || el.value || 'Submit');
        if (el.type === 'file') return clip(el.title || 'Choose file');
      }
    }
    if (el.tagName === 'FIELDSET') {
      const legend = el.querySelector(':scope > legend');
      if (legend) return clip(textOf(legend, true));
    }
    if (el.tagName === 'TABLE') {
      const caption = /** @type {HTMLTableElement} */ (el).caption;
      if (caption) return clip(textOf(caption, true));
    }
    if (el.tagName === 'FIGURE') {
      const caption = el.querySelector(':scope > figcaption');
      if (caption) return clip(textOf(caption, true));
    }
    if (el.tagName === 'IMG' || el.tagName === 'AREA') {
      const alt = el.getAttribute('alt');
      if (alt?.trim()) return clip(alt);
    }
    if (el.tagName === 'IFRAME') {
      const title = el.getAttribute('title');
      if (title?.trim()) return clip(title);
    }
    if (NAME_FROM_CONTENT.has(role)) {
      // A heading's name leaves out the links inside it (they are listed
      // as its children); a link or button takes all its content.
      const text = textOf(el, role !== 'heading');
      if (text) return clip(text);
    }
    const placeholder = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
    if (placeholder?.trim()) return clip(placeholder);
    const title = el.getAttribute('title');
    if (title?.trim()) return clip(title);
    return '';
  }

  /**
   * The text an element shows, for names: text nodes, alt text and labels
   * of its visible descendants, white space collapsed, at most NAME_MAX
   * characters gathered.
   * @param {Element} root
   * @param {boolean} intoInteractive whether to include the text of
   *   interactive descendants
   * @param {Element} [skip] an element to leave out (a control inside its label)
   */
  function textOf(root, intoInteractive, skip) {
    let out = '';
    /** @param {Node} node */
    const visit = (node) => {
      if (out.length > NAME_MAX) return;
      if (node.nodeType === Node.TEXT_NODE) {
        out += node.nodeValue;
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const el = /** @type {Element} */ (node);
      if (el === skip || SKIP.has(el.tagName) || el.getAttribute('aria-hidden') === 'true') return;
      if (el !== root && !visible(el)) return;
      if (el !== root && !intoInteractive && INTERACTIVE.has(roleOf(el))) return;
      const label = el !== root ? el.getAttribute('aria-label') : null;
      if (label) {
        out += ` ${label} `;
        return;
      }
      if (el.tagName === 'IMG') {
        out += el.getAttribute('alt') ?? '';
        return;
      }
      if (isInput(el) && el !== root && !secretOf(el)) {
        out += ` ${el.value} `;
        return;
      }
      const block = BLOCK.has(el.tagName);
      if (block) out += ' ';
      for (const child of childrenOf(el)) visit(child);
      if (block) out += ' ';
    };
    visit(root);
    return out.replace(/\s+/g, ' ').trim();
  }

  /** @param {string} s */
  function clip(s) {
    const t = s.replace(/\s+/g, ' ').trim();
    return t.length > NAME_MAX ? `${t.slice(0, NAME_MAX)}…` : t;
  }

  /**
   * The children to walk: a shadow root's (open ones), a slot's assigned
   * nodes, an element's own otherwise.
   * @param {Element} el
   * @returns {Iterable<Node>}
   */
  function childrenOf(el) {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el.tagName === 'SLOT') {
      const assigned = /** @type {HTMLSlotElement} */ (el).assignedNodes({ flatten: true });
      if (assigned.length) return assigned;
    }
    return el.childNodes;
  }

  /** @param {Element} el */
  function visible(el) {
    // checkVisibility is one native call: display:none anywhere above,
    // content-visibility, visibility:hidden.
    return el.checkVisibility({ visibilityProperty: true });
  }

  /**
   * Why a control's value must not be shown: 'password', 'secret', or ''.
   * @param {Element} el
   */
  function secretOf(el) {
    if (!(isInput(el) || isTextArea(el))) return '';
    if (isInput(el) && el.type === 'password') return 'password';
    const ac = (el.getAttribute('autocomplete') ?? '').toLowerCase();
    if (/password|one-time-code|cc-number|cc-csc|cc-exp/.test(ac)) return 'secret';
    const id = `${el.name} ${el.id}`.toLowerCase();
    if (/pass(word|wd|code)?\b|pwd|secret|token|otp|\bpin\b|cvv|cvc|ssn|api[-_]?key/.test(id)) return 'secret';
    return '';
  }

  // --- the tree -----------------------------------------------------------

  const MAX_NODES = 60000;

  /**
   * @typedef {{ count: number, truncated: boolean, labels: Set<string> }} WalkState
   *   labels: ids of elements that name a control through aria-labelledby
   */

  /**
   * The ids of elements that name a control through aria-labelledby: their
   * text is the control's name, which the control says.
   * @param {Document} doc
   */
  function labelIds(doc) {
    const ids = new Set();
    for (const el of doc.querySelectorAll('[aria-labelledby]')) {
      if (!INTERACTIVE.has(roleOf(el))) continue;
      for (const id of (el.getAttribute('aria-labelledby') ?? '').split(/\s+/)) if (id) ids.add(id);
    }
    return ids;
  }

  /**
   * Reports whether el only names something the tree already names: a
   * fieldset's legend, a table's caption, a figure's caption, a control's
   * aria-labelledby label.
   * @param {Element} el
   * @param {string} tag its tagName
   * @param {WalkState} st
   */
  function namesOnly(el, tag, st) {
    if (tag === 'LEGEND') return el.parentElement?.tagName === 'FIELDSET';
    if (tag === 'CAPTION') return el.parentElement?.tagName === 'TABLE';
    if (tag === 'FIGCAPTION') return el.parentElement?.tagName === 'FIGURE';
    return st.labels.size > 0 && !!el.id && st.labels.has(el.id) && !el.querySelector('a, button, input, select, textarea');
  }

  /**
   * Walks the children of parent into out, lifting generic elements.
   * @param {Element | DocumentFragment} parent
   * @param {TreeNode[]} out
   * @param {WalkState} st
   */
  function walkChildren(parent, out, st) {
    // firstChild/nextSibling, not childNodes: iterating a NodeList from the
    // isolated world costs a wrapper per step, and this loop runs for every
    // node of the page.
    const el = isElement(parent) ? /** @type {Element} */ (parent) : null;
    if (el && (el.shadowRoot || el.tagName === 'SLOT')) {
      for (const child of childrenOf(el)) walkNode(child, out, st);
      return;
    }
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (st.count > MAX_NODES) {
        st.truncated = true;
        return;
      }
      walkNode(child, out, st);
    }
  }

  /**
   * @param {Node} child
   * @param {TreeNode[]} out
   * @param {WalkState} st
   */
  function walkNode(child, out, st) {
    const type = child.nodeType;
    if (type === 3) addText(out, /** @type {string} */ (child.nodeValue)); // Node.TEXT_NODE
    else if (type === 1) walkElement(/** @type {Element} */ (child), out, st); // Node.ELEMENT_NODE
  }

  /**
   * Appends text to out, joining it to a text node just before. Text keeps
   * "\n" where a block of the page ends, so the host can tell text that
   * flows around a link from text on a line of its own.
   * @param {TreeNode[]} out
   * @param {string} text
   */
  function addText(out, text) {
    const t = text.replace(/\s+/g, ' ');
    if (!t) return;
    const last = out[out.length - 1];
    if (last && last.text !== undefined) {
      last.text += t;
    } else if (t.trim() || (last && last.inline)) {
      out.push({ text: t }); // a space after an inline element still separates
    }
  }

  /** Ends a run of inline content: a block of the page starts or ends. @param {TreeNode[]} out */
  function breakText(out) {
    const last = out[out.length - 1];
    if (!last) return;
    if (last.text !== undefined) {
      if (!last.text.endsWith('\n')) last.text += '\n';
    } else {
      out.push({ text: '\n' });
    }
  }

  /**
   * @param {Element} el
   * @param {TreeNode[]} out
   * @param {WalkState} st
   */
  function walkElement(el, out, st) {
    const tag = el.tagName;
    if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true') return;
    if (tag === 'INPUT' && /** @type {HTMLInputElement} */ (el).type === 'hidden') return;
    if (!visible(el)) {
      // A display:contents element has no box of its own but shows its
      // children; checkVisibility says false for it.
      if (getComputedStyle(el).display !== 'contents') return;
    }
    st.count++;
    const role = roleOf(el);
    // Labels are often styled as blocks, one above each control.
    const block = BLOCK.has(tag) || (tag === 'LABEL' && !getComputedStyle(el).display.startsWith('inline'));
    if (block) breakText(out);
    if (namesOnly(el, tag, st)) return;
    if (!role || (!STRUCTURE.has(role) && !INTERACTIVE.has(role) && !hasOwnName(el))) {
      // Generic: its children take its place.
      if (tag === 'BR') {
        breakText(out);
        return;
      }
      if (tag === 'LABEL' && /** @type {HTMLLabelElement} */ (el).control &&
          visible(/** @type {HTMLElement} */ (/** @type {HTMLLabelElement} */ (el).control))) {
        // Its text is its control's name: the control says it.
        /** @type {TreeNode[]} */
        const kids = [];
        walkChildren(el, kids, st);
        out.push(...kids.filter((k) => k.text === undefined));
        return;
      }
      walkChildren(el, out, st);
      if (block) breakText(out);
      return;
    }
    /** @type {TreeNode} */
    const node = { role };
    // Whether it flows in a line of text is its CSS display's to say (a
    // label or input styled as a block is not); asked only of the
    // elements that become nodes, which are few.
    if (INLINE.has(tag) && getComputedStyle(el).display.startsWith('inline')) node.inline = true;
    const name = nameOf(el, role);
    if (name) node.name = name;
    if (INTERACTIVE.has(role) || SECTION.has(role) || el.tagName === 'IFRAME') node.ref = refFor(el);
    states(el, role, node);

    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
      frameInto(/** @type {HTMLIFrameElement} */ (el), node, st);
    } else if (role === 'listbox') {
      // A list of options shows them; a closed select (combobox) shows only
      // its value, and its options when one is asked for.
      /** @type {TreeNode[]} */
      const kids = [];
      walkChildren(el, kids, st);
      const options = kids.filter((k) => k.role);
      if (options.length) node.kids = options;
    } else if (INTERACTIVE.has(role) || role === 'img') {
      // Its content is its name; only controls nested inside remain.
      /** @type {TreeNode[]} */
      const kids = [];
      if (role !== 'combobox') walkChildren(el, kids, st);
      const inner = kids.filter((k) => k.ref !== undefined || k.kids?.some((x) => x.ref !== undefined));
      if (inner.length) node.kids = inner;
    } else {
      /** @type {TreeNode[]} */
      const kids = [];
      walkChildren(el, kids, st);
      trimText(kids);
      // A node whose only content is its own name says it once.
      if (kids.length === 1 && kids[0].text !== undefined && node.name &&
          kids[0].text.trim() === node.name) {
        kids.length = 0;
      }
      if (kids.length) node.kids = kids;
    }
    if (!node.name && !node.kids && node.ref === undefined && node.value === undefined &&
        node.checked === undefined && node.level === undefined && role !== 'separator') {
      return; // an empty status, region or list says nothing
    }
    out.push(node);
    if (block) breakText(out);
  }

  /**
   * Tidies the text nodes of kids: spaces around line breaks go, runs of
   * breaks become one, and nothing but a break at either end is left.
   * @param {TreeNode[]} kids
   */
  function trimText(kids) {
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i];
      if (k.text === undefined) continue;
      let t = k.text.replace(/[ \t]*\n[\s]*/g, '\n').replace(/[ \t]+/g, ' ');
      if (i === 0) t = t.replace(/^\s+/, '');
      if (i === kids.length - 1) t = t.replace(/\s+$/, '');
      if (t === '' || (t === ' ' && !(kids[i - 1]?.inline && kids[i + 1]?.inline))) kids.splice(i, 1);
      else k.text = t;
    }
  }

  /**
   * The states that matter, on node.
   * @param {Element} el
   * @param {string} role
   * @param {TreeNode} node
   */
  function states(el, role, node) {
    const aria = (/** @type {string} */ n) => el.getAttribute(`aria-${n}`);
    if (role === 'heading') {
      const level = Number(aria('level') || el.tagName.slice(1));
      if (level) node.level = level;
    }
    if (isInput(el) && (el.type === 'checkbox' || el.type === 'radio')) {
      node.checked = el.indeterminate ? 'mixed' : String(el.checked);
    } else if (aria('checked') !== null && ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
      node.checked = /** @type {string} */ (aria('checked'));
    }
    if (aria('pressed') !== null && role === 'button') node.checked = `pressed=${aria('pressed')}`;
    if ((/** @type {HTMLButtonElement} */ (el)).disabled || aria('disabled') === 'true') node.disabled = true;
    const expanded = aria('expanded');
    if (expanded !== null) node.expanded = expanded === 'true';
    else if (el.tagName === 'DETAILS') node.expanded = /** @type {HTMLDetailsElement} */ (el).open;
    if (isOption(el) ? el.selected : aria('selected') === 'true') node.selected = true;
    if ((/** @type {HTMLInputElement} */ (el)).required || aria('required') === 'true') node.required = true;
    if (role === 'link') {
      const href = el.getAttribute('href');
      if (href !== null) node.href = /** @type {HTMLAnchorElement} */ (el).href || href;
    }
    const secret = secretOf(el);
    if (secret) {
      node.secret = secret;
      return;
    }
    const value = valueOf(el, role);
    if (value !== undefined && value !== node.name) node.value = value;
  }

  /**
   * A control's current value, when it has one worth showing.
   * @param {Element} el
   * @param {string} role
   * @returns {string | undefined}
   */
  function valueOf(el, role) {
    if (isSelect(el)) {
      const picked = [...el.selectedOptions].map((o) => o.label || o.text);
      return el.multiple ? picked.join(', ') : picked[0];
    }
    if (isInput(el)) {
      if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(el.type)) return undefined;
      if (el.type === 'file') return el.files?.length ? `${el.files.length} file(s)` : undefined;
      return el.value ? clipValue(el.value) : undefined;
    }
    if (isTextArea(el)) return el.value ? clipValue(el.value) : undefined;
    if (role === 'textbox' && /** @type {HTMLElement} */ (el).isContentEditable) {
      const t = /** @type {HTMLElement} */ (el).innerText.trim();
      return t ? clipValue(t) : undefined;
    }
    if (isGauge(el)) return String(el.value);
    const now = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
    return now ?? undefined;
  }

  /** @param {string} v */
  function clipValue(v) {
    return v.length > VALUE_MAX ? `${v.slice(0, VALUE_MAX)}…` : v;
  }

  /**
   * Walks into a same-origin frame in place; a cross-origin one is left for
   * the service worker, which injects into it separately.
   * @param {HTMLIFrameElement} el
   * @param {TreeNode} node
   * @param {WalkState} st
   */
  function frameInto(el, node, st) {
    let doc = null;
    try {
      doc = el.contentDocument;
    } catch {
      // cross-origin
    }
    if (doc?.body) {
      for (const id of labelIds(doc)) st.labels.add(id);
      /** @type {TreeNode[]} */
      const kids = [];
      walkChildren(doc.body, kids, st);
      trimText(kids);
      if (kids.length) node.kids = kids;
      return;
    }
    node.frame = { url: el.src || 'about:blank', crossOrigin: true };
  }

  /**
   * snapshot: the frame's tree.
   * @param {{ refBase: number }} args
   */
  function snapshot({ refBase }) {
    nextRef = Math.max(nextRef, refBase);
    /** @type {WalkState} */
    const st = { count: 0, truncated: false, labels: labelIds(document) };
    /** @type {TreeNode[]} */
    const kids = [];
    if (document.body) walkChildren(document.body, kids, st);
    trimText(kids);
    return {
      url: location.href,
      title: document.title,
      tree: kids,
      nextRef,
      nodes: st.count,
      truncated: st.truncated,
    };
  }

  // --- text (Markdown) ------------------------------------------------------

  /**
   * The readable main content as Markdown.
   */
  function text() {
    const root = document.querySelector('main, [role="main"], article') ?? document.body;
    const md = new Markdown(location.href);
    if (root) md.block(root);
    return { url: location.href, title: document.title, markdown: md.done() };
  }

  class Markdown {
    /** @param {string} base */
    constructor(base) {
      this.base = base;
      /** @type {string[]} */
      this.out = [];
      this.line = '';
      this.indent = '';
    }

    flush() {
      const t = this.line.replace(/[ \t]+/g, ' ').trim();
      if (t) this.out.push(this.indent + t);
      this.line = '';
    }

    gap() {
      this.flush();
      if (this.out.length && this.out[this.out.length - 1] !== '') this.out.push('');
    }

    /** @param {Node} node */
    block(node) {
      for (const child of isElement(node) ? childrenOf(/** @type {Element} */ (node)) : node.childNodes) this.node(child);
    }

    /** @param {Node} node */
    node(node) {
      if (node.nodeType === Node.TEXT_NODE) {
        this.line += (node.nodeValue ?? '').replace(/\s+/g, ' ');
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const el = /** @type {Element} */ (node);
      if (SKIP.has(el.tagName) || el.getAttribute('aria-hidden') === 'true' || !visible(el)) return;
      const tag = el.tagName;
      if (/^H[1-6]$/.test(tag)) {
        this.gap();
        this.out.push(`${'#'.repeat(Number(tag[1]))} ${this.inline(el)}`);
        this.gap();
        return;
      }
      switch (tag) {
        case 'P': case 'DIV': case 'SECTION': case 'ARTICLE': case 'MAIN': case 'HEADER': case 'FOOTER':
        case 'ASIDE': case 'NAV': case 'FORM': case 'FIELDSET': case 'FIGURE': case 'DETAILS':
          this.gap();
          this.block(el);
          this.gap();
          return;
        case 'BR':
          this.flush();
          return;
        case 'HR':
          this.gap();
          this.out.push('---');
          this.gap();
          return;
        case 'UL': case 'OL':
          this.list(el, tag === 'OL');
          return;
        case 'PRE':
          this.gap();
          this.out.push('```', ...(/** @type {HTMLElement} */ (el).innerText.replace(/\n$/, '').split('\n')), '```');
          this.gap();
          return;
        case 'BLOCKQUOTE': {
          this.gap();
          const inner = new Markdown(this.base);
          inner.block(el);
          for (const l of inner.done().split('\n')) this.out.push(`> ${l}`.trimEnd());
          this.gap();
          return;
        }
        case 'TABLE':
          this.table(/** @type {HTMLTableElement} */ (el));
          return;
        case 'DL':
          this.gap();
          for (const item of el.children) {
            if (item.tagName === 'DT') this.out.push(`**${this.inline(item)}**`);
            else if (item.tagName === 'DD') this.out.push(`: ${this.inline(item)}`);
          }
          this.gap();
          return;
        case 'IFRAME':
          return;
      }
      this.line += this.inlineNode(el);
    }

    /**
     * @param {Element} el
     * @param {boolean} ordered
     */
    list(el, ordered) {
      this.flush();
      let n = 1;
      for (const li of el.children) {
        if (li.tagName !== 'LI' || !visible(li)) continue;
        const sub = new Markdown(this.base);
        sub.block(li);
        const lines = sub.done().split('\n').filter((l) => l !== '');
        const bullet = ordered ? `${n++}. ` : '- ';
        lines.forEach((l, i) => this.out.push(this.indent + (i === 0 ? bullet : '  ') + l));
      }
      this.gap();
    }

    /** @param {HTMLTableElement} table */
    table(table) {
      this.gap();
      const rows = [...table.rows].filter((r) => visible(r));
      rows.forEach((row, i) => {
        const cells = [...row.cells].map((c) => this.inline(c).replace(/\|/g, '\\|'));
        this.out.push(`| ${cells.join(' | ')} |`);
        if (i === 0) this.out.push(`|${cells.map(() => ' --- ').join('|')}|`);
      });
      this.gap();
    }

    /**
     * An element's content as one line of inline Markdown.
     * @param {Element} el
     * @returns {string}
     */
    inline(el) {
      let s = '';
      for (const child of childrenOf(el)) s += this.inlineNode(child);
      return s.replace(/\s+/g, ' ').trim();
    }

    /**
     * One node as inline Markdown: text as it is, an element with its
     * markup around its content.
     * @param {Node} child
     * @returns {string}
     */
    inlineNode(child) {
      if (child.nodeType === Node.TEXT_NODE) return child.nodeValue ?? '';
      if (child.nodeType !== Node.ELEMENT_NODE) return '';
      const c = /** @type {Element} */ (child);
      if (SKIP.has(c.tagName) || !visible(c)) return '';
      const inner = this.inline(c);
      switch (c.tagName) {
        case 'A': {
          const href = c.getAttribute('href');
          return href && inner ? `[${inner}](${relative(this.base, /** @type {HTMLAnchorElement} */ (c).href)})` : inner;
        }
        case 'STRONG': case 'B':
          return inner ? `**${inner}**` : '';
        case 'EM': case 'I':
          return inner ? `*${inner}*` : '';
        case 'CODE': case 'KBD': case 'SAMP':
          return inner ? `\`${inner}\`` : '';
        case 'IMG': {
          const alt = c.getAttribute('alt');
          return alt ? `![${alt}]` : '';
        }
        case 'BR':
          return ' ';
        default:
          return BLOCK.has(c.tagName) ? ` ${inner} ` : inner;
      }
    }

    done() {
      this.flush();
      while (this.out.length && this.out[this.out.length - 1] === '') this.out.pop();
      return this.out.join('\n');
    }
  }

  /**
   * url relative to base, as short as it stays unambiguous.
   * @param {string} base
   * @param {string} url
   */
  function relative(base, url) {
    try {
      const b = new URL(base);
      const u = new URL(url, b);
      if (u.origin !== b.origin) return u.href;
      if (u.pathname === b.pathname && u.search === b.search) return u.hash || u.pathname;
      const from = b.pathname.split('/').slice(0, -1);
      const to = u.pathname.split('/');
      let i = 0;
      while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
      return '../'.repeat(from.length - i) + to.slice(i).join('/') + u.search + u.hash;
    } catch {
      return url;
    }
  }

  // --- find -------------------------------------------------------------------

  /**
   * find: ranked candidates for a query: a role and/or a name, text, label,
   * placeholder or title, or a CSS selector.
   * @param {{ query: string, limit: number, refBase: number }} args
   */
  function find({ query, limit, refBase }) {
    nextRef = Math.max(nextRef, refBase);
    const q = query.trim();
    /** @type {Map<Element, { score: number, why: string }>} */
    const hits = new Map();
    const add = (/** @type {Element} */ el, /** @type {number} */ score, /** @type {string} */ why) => {
      const had = hits.get(el);
      if (!had || had.score < score) hits.set(el, { score, why });
    };

    // "button Save", "link 'Next page'": a role, then a name.
    const words = q.match(/^([a-z]+)\s+(.+)$/i);
    const wantRole = words && (INTERACTIVE.has(words[1].toLowerCase()) || STRUCTURE.has(words[1].toLowerCase()))
      ? words[1].toLowerCase() : '';
    const wantName = unquote(wantRole ? /** @type {RegExpMatchArray} */ (words)[2] : q).toLowerCase();
    const roleOnly = INTERACTIVE.has(q.toLowerCase()) || STRUCTURE.has(q.toLowerCase()) ? q.toLowerCase() : '';

    for (const el of allElements(document)) {
      if (!visible(el)) continue;
      const role = roleOf(el);
      if (!role && !el.hasAttribute('placeholder') && !el.hasAttribute('title')) {
        // Plain text containers match on their own text only.
        const own = ownText(el).toLowerCase();
        if (wantName && own.includes(wantName) && !wantRole) {
          add(actionable(el), own.trim() === wantName ? 40 : 20, `text contains "${wantName}"`);
        }
        continue;
      }
      const name = nameOf(el, role).toLowerCase();
      if (roleOnly && role === roleOnly) add(el, 30, `role ${role}`);
      if (wantRole && role !== wantRole) continue;
      const bonus = (INTERACTIVE.has(role) ? 5 : 0) + (wantRole ? 10 : 0);
      if (name && name === wantName) add(el, 90 + bonus, wantRole ? `${role} named "${name}"` : `name is "${name}"`);
      else if (name && wantName && name.includes(wantName)) add(el, 60 + bonus, `name contains "${wantName}"`);
      else if (wantName) {
        for (const [attr, label] of [['placeholder', 'placeholder'], ['title', 'title'], ['aria-label', 'label'], ['name', 'name attribute'], ['id', 'id']]) {
          const v = el.getAttribute(attr)?.toLowerCase();
          if (v && (v === wantName || v.includes(wantName))) {
            add(el, (v === wantName ? 50 : 35) + bonus, `${label} ${v === wantName ? 'is' : 'contains'} "${wantName}"`);
            break;
          }
        }
      }
    }
    // A query that is a valid selector also matches as CSS.
    try {
      for (const el of document.querySelectorAll(q)) {
        if (visible(el) && !inBanner(el)) add(el, 45, `matches selector ${q}`);
      }
    } catch {
      // not a selector
    }
    const ranked = [...hits].sort((a, b) => b[1].score - a[1].score ||
      (a[0].compareDocumentPosition(b[0]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    const candidates = ranked.slice(0, limit).map(([el, { score, why }]) => {
      const role = roleOf(el);
      return { ref: refFor(el), role: role || el.tagName.toLowerCase(), name: nameOf(el, role), why, score };
    });
    return { candidates, total: hits.size, nextRef };
  }

  /** @param {string} s */
  function unquote(s) {
    return s.trim().replace(/^["'](.*)["']$/, '$1');
  }

  /**
   * The nearest ancestor (or self) an agent could act on; a label's control.
   * @param {Element} el
   */
  function actionable(el) {
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) {
      if (INTERACTIVE.has(roleOf(e))) return e;
      if (isLabel(e) && e.control) return e.control;
    }
    return el;
  }

  /** @param {Element} el */
  function ownText(el) {
    let s = '';
    for (const c of el.childNodes) if (c.nodeType === Node.TEXT_NODE) s += c.nodeValue;
    return s.replace(/\s+/g, ' ');
  }

  /**
   * Every element of doc, through open shadow roots and same-origin frames.
   * @param {Document | ShadowRoot} doc
   * @returns {Generator<Element>}
   */
  function* allElements(doc) {
    /** @type {Element | null} */
    let banner = null;
    for (const el of doc.querySelectorAll('*')) {
      // Document order: a banner's descendants come right after it.
      if (banner?.contains(el)) continue;
      if (el.tagName === BANNER) {
        banner = el;
        continue;
      }
      yield el;
      if (el.shadowRoot) yield* allElements(el.shadowRoot);
      if (el.tagName === 'IFRAME') {
        let inner = null;
        try {
          inner = /** @type {HTMLIFrameElement} */ (el).contentDocument;
        } catch {
          // cross-origin
        }
        if (inner) yield* allElements(inner);
      }
    }
  }

  // --- form fields -------------------------------------------------------------

  const CONTROL_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton']);

  /**
   * field: the form control a person would call label. A group's label (a
   * fieldset legend, a radiogroup's name) with a value picks the radio or
   * checkbox of that group named value.
   * @param {{ label: string, value?: string, refBase: number }} args
   */
  function field({ label, value, refBase }) {
    nextRef = Math.max(nextRef, refBase);
    const want = unquote(label).toLowerCase();
    /** @type {Array<{ el: Element, score: number }>} */
    const found = [];
    for (const el of allElements(document)) {
      const role = roleOf(el);
      const isGroup = role === 'group' || role === 'radiogroup';
      if (!CONTROL_ROLES.has(role) && !isGroup && !(isInput(el) && el.type === 'file')) continue;
      if (!visible(el)) continue;
      const names = [nameOf(el, role), el.getAttribute('placeholder'), el.getAttribute('name'), el.id]
        .filter(Boolean).map((n) => /** @type {string} */ (n).toLowerCase().trim());
      let score = 0;
      for (const [i, n] of names.entries()) {
        const w = i === 0 ? 1 : 0.6;
        if (n === want) score = Math.max(score, 100 * w);
        else if (n.startsWith(want)) score = Math.max(score, 70 * w);
        else if (n.includes(want)) score = Math.max(score, 50 * w);
      }
      if (!score) continue;
      if (isGroup) {
        const pick = value === undefined ? undefined : pickInGroup(el, value);
        if (pick) found.push({ el: pick, score: score + 1 });
        continue;
      }
      found.push({ el, score });
    }
    if (!found.length) {
      throw new AgentError('not_found', `no form field labelled "${label}"`, 'call find or read_page to see the fields');
    }
    found.sort((a, b) => b.score - a.score);
    const { el } = found[0];
    const role = roleOf(el);
    return {
      ref: refFor(el), role, name: nameOf(el, role),
      others: found.filter((f) => f.score === found[0].score).length - 1,
      nextRef,
    };
  }

  /**
   * The radio or checkbox in group whose name is value.
   * @param {Element} group
   * @param {string} value
   */
  function pickInGroup(group, value) {
    const want = unquote(value).toLowerCase();
    let partial = null;
    for (const el of group.querySelectorAll('input[type=radio], input[type=checkbox], [role=radio], [role=checkbox], [role=switch]')) {
      const n = nameOf(el, roleOf(el)).toLowerCase();
      if (n === want || (isInput(el) && el.value.toLowerCase() === want)) return el;
      if (!partial && n.includes(want)) partial = el;
    }
    return partial;
  }

  // --- locating and acting ---------------------------------------------------

  /**
   * The element's box in this frame's top-level viewport (same-origin parent
   * frames included), in CSS pixels.
   * @param {Element} el
   */
  function boxOf(el) {
    const r = el.getBoundingClientRect();
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
   * locate: where ref's element is and what state it is in.
   * @param {{ ref: number }} args
   */
  function locate({ ref }) {
    const el = element(ref);
    const role = roleOf(el);
    const box = boxOf(el);
    const html = /** @type {HTMLInputElement} */ (el);
    return {
      tag: el.tagName.toLowerCase(),
      type: isInput(el) ? el.type : undefined,
      role,
      name: nameOf(el, role),
      box,
      visible: visible(el) && box.width > 0 && box.height > 0,
      inViewport: box.x + box.width > 0 && box.y + box.height > 0 && box.x < innerWidth && box.y < innerHeight,
      disabled: !!html.disabled || el.getAttribute('aria-disabled') === 'true',
      editable: editable(el),
      checked: isInput(el) && (el.type === 'checkbox' || el.type === 'radio')
        ? el.checked : el.getAttribute('aria-checked') === 'true' ? true : undefined,
      value: secretOf(el) ? undefined : valueOf(el, role),
      secret: secretOf(el) || undefined,
      focused: deepActive() === el,
      viewport: { width: innerWidth, height: innerHeight },
      content: el.tagName === 'IFRAME' ? contentOrigin(el, box) : undefined,
    };
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
    if (isTextArea(el)) return !el.readOnly && !el.disabled;
    if (isInput(el)) {
      return !el.readOnly && !el.disabled &&
        !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden'].includes(el.type);
    }
    return /** @type {HTMLElement} */ (el).isContentEditable;
  }

  /** The focused element, through shadow roots and same-origin frames. */
  function deepActive() {
    let a = document.activeElement;
    for (;;) {
      if (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      else if (isFrame(a) && a.contentDocument?.activeElement) a = a.contentDocument.activeElement;
      else return a;
    }
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
      // Into open shadow roots...
      while (hit?.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(px, py);
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
   * hit: whether a click at (x, y) lands on ref's element (or inside it),
   * and what it lands on otherwise.
   * @param {{ ref: number, x: number, y: number }} args
   */
  function hit({ ref, x, y }) {
    const el = element(ref);
    const h = hitAt(x, y);
    const ok = !!h && (h === el || el.contains(h) || composedContains(el, h) ||
      // A label forwards its clicks to its control.
      (isLabel(h) && h.control === el));
    return { ok, on: ok || !h ? undefined : describe(h) };
  }

  /**
   * @param {Element} outer
   * @param {Element} inner
   */
  function composedContains(outer, inner) {
    for (let n = /** @type {Node | null} */ (inner); n; ) {
      if (n === outer) return true;
      n = n.parentNode ?? (n.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? /** @type {ShadowRoot} */ (n).host ?? null : null);
    }
    return false;
  }

  /** A short, safe description of an element: role or tag, and its name. @param {Element} el */
  function describe(el) {
    const role = roleOf(el) || el.tagName.toLowerCase();
    const name = nameOf(el, role) || clip(textOf(el, true)).slice(0, 40);
    return name ? `${role} "${name}"` : role;
  }

  /**
   * points: places inside ref's box where a click lands on it, best first:
   * the centre, then a grid over the box. Each is checked with a hit test.
   * @param {{ ref: number }} args
   */
  function points({ ref }) {
    const el = element(ref);
    const b = boxOf(el);
    const out = [];
    for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) {
      for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        const x = b.x + b.width * fx;
        const y = b.y + b.height * fy;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        if (hit({ ref, x, y }).ok) out.push({ x, y });
        if (out.length >= 3) return { points: out };
      }
    }
    return { points: out };
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
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        return {};
      case 'focus':
        html.focus({ preventScroll: false });
        return { focused: deepActive() === el };
      case 'click':
        html.click();
        return {};
      case 'selectText':
        if (isInput(el) || isTextArea(el)) {
          el.focus();
          el.select();
        } else if (html.isContentEditable) {
          html.focus();
          const range = el.ownerDocument.createRange();
          range.selectNodeContents(el);
          const sel = el.ownerDocument.getSelection();
          sel?.removeAllRanges();
          sel?.addRange(range);
        }
        return {};
      case 'setValue':
        return setValue(el, value ?? '');
      case 'select':
        return selectOptions(el, values ?? []);
    }
    throw new AgentError('bad_request', `unknown dom op ${op}`);
  }

  /**
   * Sets a control's value the way a framework sees it: through the
   * prototype's setter (React tracks the instance's own), then input and
   * change events.
   * @param {Element} el
   * @param {string} value
   */
  function setValue(el, value) {
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
      throw new AgentError('bad_request', `${describe(el)} has no value to set`, 'use interact with click or type');
    }
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: secretOf(el) ? undefined : valueOf(el, roleOf(el)) };
  }

  /**
   * Selects options of a select by label, text or value.
   * @param {Element} el
   * @param {string[]} wanted
   */
  function selectOptions(el, wanted) {
    if (!(isSelect(el))) {
      throw new AgentError('bad_request', `${describe(el)} is not a select`,
        'for a custom listbox, click the option instead (find it with find)');
    }
    if (!el.multiple && wanted.length > 1) {
      throw new AgentError('bad_request', `${describe(el)} takes one option, not ${wanted.length}`);
    }
    const opts = [...el.options];
    const picked = wanted.map((w) => {
      const lw = w.trim().toLowerCase();
      const o = opts.find((o) => o.value === w) ?? opts.find((o) => o.label.trim().toLowerCase() === lw) ??
        opts.find((o) => o.text.trim().toLowerCase() === lw);
      if (!o) {
        throw new AgentError('bad_request', `${describe(el)} has no option "${w}"`,
          `options: ${opts.slice(0, 20).map((o) => o.label || o.text).join(', ')}`);
      }
      if (o.disabled) throw new AgentError('bad_request', `option "${w}" is disabled`);
      return o;
    });
    for (const o of opts) o.selected = picked.includes(o);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: valueOf(el, roleOf(el)) };
  }

  // --- watching for effects ---------------------------------------------------

  /** @type {Map<number, Watch>} */
  const watches = new Map();
  let watchSeq = 0;

  class Watch {
    /** @param {Element | null} el */
    constructor(el) {
      this.el = el;
      this.trustedClicks = 0;
      this.clicks = 0;
      this.added = 0;
      this.removed = 0;
      this.attrs = 0;
      this.texts = 0;
      /** @type {string[]} */
      this.dialogs = [];
      this.url = location.href;
      this.title = document.title;
      this.onClick = (/** @type {Event} */ e) => {
        this.clicks++;
        if (e.isTrusted) this.trustedClicks++;
      };
      if (el) el.addEventListener('click', this.onClick, { capture: true });
      this.observer = new MutationObserver((records) => this.count(records));
      // The element's own document: a same-origin frame's, for its elements.
      this.observer.observe(el?.ownerDocument ?? document, {
        subtree: true, childList: true, characterData: true, attributes: true,
        attributeFilter: ['open', 'aria-expanded', 'aria-hidden', 'hidden', 'class', 'style', 'disabled', 'aria-checked', 'aria-selected'],
      });
    }

    /** @param {MutationRecord[]} records */
    count(records) {
      for (const r of records) {
        if (r.type === 'attributes') {
          this.attrs++;
          continue;
        }
        if (r.type === 'characterData') {
          this.texts++;
          continue;
        }
        for (const n of r.addedNodes) {
          if (n.nodeType === Node.TEXT_NODE) {
            this.texts++;
            continue;
          }
          if (n.nodeType !== Node.ELEMENT_NODE) continue;
          this.added++;
          const d = /** @type {Element} */ (n);
          const dlg = d.matches('dialog[open], [role="dialog"], [role="alertdialog"]')
            ? d : d.querySelector('dialog[open], [role="dialog"], [role="alertdialog"]');
          if (dlg) this.dialogs.push(describe(dlg));
        }
        for (const n of r.removedNodes) {
          if (n.nodeType === Node.ELEMENT_NODE) this.removed++;
          else if (n.nodeType === Node.TEXT_NODE) this.texts++;
        }
      }
    }

    report() {
      this.count(this.observer.takeRecords());
      const el = this.el;
      const alive = !!el?.isConnected;
      return {
        trustedClicks: this.trustedClicks,
        clicks: this.clicks,
        added: this.added,
        removed: this.removed,
        attributes: this.attrs,
        texts: this.texts,
        dialogs: this.dialogs,
        urlChanged: location.href !== this.url,
        titleChanged: document.title !== this.title,
        url: location.href,
        title: document.title,
        elementGone: el ? !alive : undefined,
        value: alive && el && !secretOf(el) ? valueOf(el, roleOf(el)) : undefined,
        checked: alive && isInput(el) && (el.type === 'checkbox' || el.type === 'radio')
          ? el.checked : undefined,
        focused: alive ? deepActive() === el : undefined,
      };
    }

    stop() {
      if (this.el) this.el.removeEventListener('click', this.onClick, { capture: true });
      this.observer.disconnect();
    }
  }

  /**
   * watch: starts recording what happens to the page, and whether ref's
   * element receives a click, until changes stops it.
   * @param {{ ref?: number }} args
   */
  function watch({ ref }) {
    const id = ++watchSeq;
    watches.set(id, new Watch(ref === undefined ? null : element(ref)));
    return { watch: id };
  }

  /**
   * changes: what a watch has seen so far; stop ends it.
   * @param {{ watch: number, stop?: boolean }} args
   */
  function changes({ watch: id, stop }) {
    const w = watches.get(id);
    if (!w) return { lost: true };
    const r = w.report();
    if (stop) {
      w.stop();
      watches.delete(id);
    }
    return r;
  }

  // --- waiting ------------------------------------------------------------------

  /**
   * check: whether a wait_for condition holds now, and what was seen.
   * @param {{ text?: string, textGone?: string, ref?: number, selector?: string,
   *   predicate?: string, state?: string }} c
   */
  function check(c) {
    const body = document.body?.innerText ?? '';
    if (c.text !== undefined) {
      const found = body.includes(c.text);
      return { ok: found, seen: found ? `text "${c.text}" is on the page` : `no text "${c.text}" on the page` };
    }
    if (c.textGone !== undefined) {
      const found = body.includes(c.textGone);
      return { ok: !found, seen: found ? `text "${c.textGone}" is still on the page` : `text "${c.textGone}" is gone` };
    }
    if (c.selector !== undefined) {
      let els;
      try {
        els = [...document.querySelectorAll(c.selector)].filter((e) => !inBanner(e));
      } catch {
        throw new AgentError('bad_request', `selector ${c.selector} is not valid CSS`);
      }
      const shown = els.filter((e) => visible(e));
      return stateCheck(c.state ?? 'visible', els.length, shown.length, `selector ${c.selector}`, shown[0] ?? els[0]);
    }
    if (c.ref !== undefined) {
      const el = byRef.get(c.ref)?.deref();
      const attached = !!el?.isConnected;
      const shown = attached && el ? visible(el) : false;
      return stateCheck(c.state ?? 'visible', attached ? 1 : 0, shown ? 1 : 0, `ref e${c.ref}`, el);
    }
    throw new AgentError('bad_request', 'nothing to wait for');
  }

  /**
   * @param {string} state visible | hidden | attached | detached | enabled
   * @param {number} attached how many match
   * @param {number} shown how many of them are visible
   * @param {string} what
   * @param {Element | undefined} first
   */
  function stateCheck(state, attached, shown, what, first) {
    const disabled = !!first && (/** @type {HTMLButtonElement} */ (first).disabled || first.getAttribute('aria-disabled') === 'true');
    switch (state) {
      case 'visible':
        return { ok: shown > 0, seen: `${what}: ${attached} attached, ${shown} visible` };
      case 'hidden':
        return { ok: shown === 0, seen: `${what}: ${shown} visible` };
      case 'attached':
        return { ok: attached > 0, seen: `${what}: ${attached} attached` };
      case 'detached':
        return { ok: attached === 0, seen: `${what}: ${attached} attached` };
      case 'enabled':
        return { ok: shown > 0 && !disabled, seen: `${what}: ${shown} visible, ${disabled ? 'disabled' : 'enabled'}` };
    }
    throw new AgentError('bad_request', `unknown state ${state}`, 'use visible, hidden, attached, detached or enabled');
  }

  // --- crawling ------------------------------------------------------------------

  /**
   * crawl: what a crawl keeps of a page: its content in the form asked for,
   * and where its links go (absolute http(s) URLs, without fragments, each
   * once, in document order).
   * @param {{ output: 'markdown' | 'text' | 'links' }} args
   */
  function crawl({ output }) {
    /** @type {Set<string>} */
    const links = new Set();
    for (const a of document.querySelectorAll('a[href], area[href]')) {
      if (inBanner(a)) continue;
      try {
        const u = new URL(/** @type {HTMLAnchorElement} */ (a).href, location.href);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
        u.hash = '';
        links.add(u.href);
      } catch {
        // not a URL
      }
    }
    let content;
    if (output === 'markdown') content = text().markdown;
    else if (output === 'text') {
      const root = document.querySelector('main, [role="main"], article') ?? document.body;
      content = /** @type {HTMLElement | null} */ (root)?.innerText.trim() ?? '';
    }
    return { url: location.href, title: document.title, content, links: [...links] };
  }

  // --- handoff snapshots -------------------------------------------------------

  const MAX_STORAGE_KEYS = 200;
  const MAX_KEY_CHARS = 200;
  const MAX_FINGERPRINT_ELEMENTS = 100000;

  /**
   * handoffState: what a handoff's before and after snapshots need from the
   * page (docs/human.md): the top frame's localStorage key names, never
   * their values, and the fingerprint of its element structure.
   */
  function handoffState() {
    return { storageKeys: storageKeys(), domFingerprint: domFingerprint(document.documentElement) };
  }

  /**
   * localStorage's key names, sorted, at most 200, each cut to 200
   * characters; [] when the page's storage cannot be read (an opaque
   * origin, storage blocked).
   * @returns {string[]}
   */
  function storageKeys() {
    try {
      const keys = [];
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k !== null) keys.push(k);
      }
      return keys.sort().slice(0, MAX_STORAGE_KEYS).map((k) => k.slice(0, MAX_KEY_CHARS));
    } catch {
      return [];
    }
  }

  /**
   * 'fnv1a64:' and 16 hex digits: FNV-1a 64 over the UTF-8 of one token per
   * element of root's subtree in document order, joined by "\n". A token is
   * `depth:tag` (`depth:input[type]` for inputs), so text, values and every
   * other attribute leave it unchanged. The banner and everything under it
   * are skipped; after 100,000 elements a last token 'truncated' ends it.
   * page/agent.test.js checks it against a reference implementation.
   * @param {Element | null} root
   * @returns {string}
   */
  function domFingerprint(root) {
    const hash = new Fnv1a64();
    let count = 0;
    let depth = 0;
    let el = root;
    while (el) {
      let down = false;
      if (el.tagName !== BANNER) {
        if (count === MAX_FINGERPRINT_ELEMENTS) {
          hash.token('truncated', count);
          break;
        }
        let tag = el.tagName.toLowerCase();
        if (tag === 'input') tag = `input[${(el.getAttribute('type') ?? 'text').toLowerCase()}]`;
        hash.token(`${depth}:${tag}`, count++);
        down = !!el.firstElementChild;
      }
      if (down) {
        el = el.firstElementChild;
        depth++;
        continue;
      }
      // The next element in document order outside el's subtree.
      while (el && el !== root && !el.nextElementSibling) {
        el = el.parentElement;
        depth--;
      }
      el = el && el !== root ? el.nextElementSibling : null;
    }
    return `fnv1a64:${hash.hex()}`;
  }

  /**
   * FNV-1a 64 in two 32-bit halves (no BigInt on the hot path). The prime is
   * 2^40 + 0x1b3, so h * prime = h * 0x1b3 + (h << 40), mod 2^64.
   */
  class Fnv1a64 {
    constructor() {
      this.hi = 0xcbf29ce4;
      this.lo = 0x84222325;
    }

    /** @param {number} b a byte */
    byte(b) {
      const lo = (this.lo ^ b) >>> 0;
      const low = lo * 0x1b3;
      this.lo = low >>> 0;
      this.hi = (this.hi * 0x1b3 + Math.floor(low / 0x100000000) + ((lo << 8) >>> 0)) >>> 0;
    }

    /**
     * Feeds token, after a "\n" unless it is the first.
     * @param {string} token
     * @param {number} index how many tokens came before
     */
    token(token, index) {
      if (index) this.byte(0x0a);
      for (const ch of token) {
        let c = /** @type {number} */ (ch.codePointAt(0));
        if (c < 0x80) {
          this.byte(c);
          continue;
        }
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate, as TextEncoder
        if (c < 0x800) {
          this.byte(0xc0 | (c >> 6));
        } else if (c < 0x10000) {
          this.byte(0xe0 | (c >> 12));
          this.byte(0x80 | ((c >> 6) & 0x3f));
        } else {
          this.byte(0xf0 | (c >> 18));
          this.byte(0x80 | ((c >> 12) & 0x3f));
          this.byte(0x80 | ((c >> 6) & 0x3f));
        }
        this.byte(0x80 | (c & 0x3f));
      }
    }

    hex() {
      return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
    }
  }

  // --- entry ----------------------------------------------------------------------

  /** @type {Record<string, (args: any) => unknown>} */
  const METHODS = {
    snapshot, text, find, field, locate, hit, points, dom, watch, changes, check, crawl, handoffState,
  };

  /**
   * Runs one method; errors come back as values, since chrome.scripting
   * loses an exception's fields.
   * @param {string} method
   * @param {any} args
   */
  function call(method, args) {
    const fn = METHODS[method];
    if (!fn) return { error: { code: 'bad_request', message: `the page agent has no method ${method}` } };
    try {
      return { ok: fn(args ?? {}) };
    } catch (err) {
      if (err instanceof AgentError) return { error: { code: err.code, message: err.message, hint: err.hint } };
      return { error: { code: 'internal', message: `page agent: ${String(/** @type {Error} */ (err)?.message ?? err).split('\n')[0].slice(0, 300)}` } };
    }
  }

  g.__openchrome = { version: VERSION, call };
})();
