// @ts-check
// snapshot: the frame's tree, the compact accessibility-style tree that
// read_page shows (host/engine/snapshot.go mirrors its nodes).

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.tree) return; // injected again: the first copy stays
  const { refFor, advance, handed } = oc.refs;
  const {
    isElement, isInput, isTextArea, isSelect, isOption, SKIP, INTERACTIVE, STRUCTURE, SECTION, BLOCK, INLINE,
    CHECKABLE, hrefOf, roleOf, nameOf, hasOwnName, shadowOf, childrenOf, numbersOf, markerOf, visible, clipsAll, drawnOutOf, scrolls, drawsNoContent, seenThoughAriaHidden, isDisabled, startsPointer, shownLabel, secretOf, isInvalid, valueOf, choicesOf, readOnly, drawnOn, drawnIn, drawnAround, frameSource, editorInput,
  } = oc.roles;

  const MAX_NODES = 60000;
  /** A closed select's options sent with it; read_page shows fewer. */
  const MAX_CHOICES = 100;
  /** Text a person sees struck through. */
  const STRUCK = new Set(['DEL', 'S', 'STRIKE']);
  /** A table's cells that are not controls: an empty one holds its column's place. */
  const CELLS = new Set(['cell', 'columnheader', 'rowheader']);
  /** Roles an aria-activedescendant points at. */
  const ACTIVE_ROLES = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'gridcell', 'row', 'tab']);

  /**
   * @typedef {{ count: number, truncated: boolean, labels: Set<string>, pre: number, listened: number,
   *   controls: number, pointed: number, numbers: Map<Element, Map<Element, number>>, drawn: Set<Element> }} WalkState
   *   labels: ids of elements that name a control through aria-labelledby;
   *   pre: how many <pre> elements the walk is inside;
   *   listened: how many of the walk's ancestors (its document counts) listen for clicks;
   *   controls: how many interactive elements the walk is inside;
   *   pointed: how many elements it found clickable by their hand cursor;
   *   numbers: the item numbers of each numbered list met, by list;
   *   drawn: elements a style sheet may write words before or after (roles.drawnOn)
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
      // A button named by a label and its own words (Headless UI's
      // aria-labelledby="label button") is not its own label.
      for (const id of (el.getAttribute('aria-labelledby') ?? '').split(/\s+/)) if (id && id !== el.id) ids.add(id);
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
    return st.labels.size > 0 && !!el.id && st.labels.has(el.id) && !INTERACTIVE.has(roleOf(el)) &&
      !el.querySelector('a, button, input, select, textarea');
  }

  /** @param {Element} el */
  function emptyBox(el) {
    const r = el.getBoundingClientRect();
    return r.width === 0 || r.height === 0;
  }

  /**
   * Walks the children of parent into out, lifting generic elements.
   * @param {Element | DocumentFragment} parent
   * @param {PageTreeNode[]} out
   * @param {WalkState} st
   */
  function walkChildren(parent, out, st) {
    // firstChild/nextSibling, not childNodes: iterating a NodeList from the
    // isolated world costs a wrapper per step, and this loop runs for every
    // node of the page.
    const el = isElement(parent) ? /** @type {Element} */ (parent) : null;
    if (el && drawsNoContent(el)) {
      // Of a closed details only its summary shows; of an element hidden
      // until found, nothing. checkVisibility hides their child elements,
      // not their own words.
      walkShownChildren(el, out, st);
      return;
    }
    // Words a style sheet writes before and after the element's own.
    const [before, after] = el && st.drawn.has(el) ? drawnAround(el) : ['', ''];
    if (before) addText(out, before, st.pre > 0);
    if (el && (el.tagName === 'SLOT' || shadowOf(el))) {
      for (const child of childrenOf(el)) walkNode(child, out, st);
    } else {
      for (let child = parent.firstChild; child; child = child.nextSibling) {
        if (st.count > MAX_NODES) {
          st.truncated = true;
          return;
        }
        walkNode(child, out, st);
      }
    }
    if (after) addText(out, after, st.pre > 0);
  }

  /**
   * The element children of an element whose own text is hidden:
   * visibility:hidden, a closed details, hidden until found.
   * @param {Element} el
   * @param {PageTreeNode[]} out
   * @param {WalkState} st
   */
  function walkShownChildren(el, out, st) {
    for (const child of childrenOf(el)) {
      if (st.count > MAX_NODES) {
        st.truncated = true;
        return;
      }
      if (child.nodeType === 1) walkElement(/** @type {Element} */ (child), out, st);
    }
  }

  /**
   * @param {Node} child
   * @param {PageTreeNode[]} out
   * @param {WalkState} st
   */
  function walkNode(child, out, st) {
    const type = child.nodeType;
    if (type === 3) addText(out, /** @type {string} */ (child.nodeValue), st.pre > 0); // Node.TEXT_NODE
    else if (type === 1) walkElement(/** @type {Element} */ (child), out, st); // Node.ELEMENT_NODE
  }

  /**
   * Appends text to out, joining it to a text node just before. Text keeps
   * "\n" where a block of the page ends, so the host can tell text that
   * flows around a link from text on a line of its own. Preformatted text
   * (code) keeps its line breaks and spaces: they are its content.
   * @param {PageTreeNode[]} out
   * @param {string} text
   * @param {boolean} pre
   */
  function addText(out, text, pre) {
    const t = pre ? text.replace(/\r\n?/g, '\n') : text.replace(/\s+/g, ' ');
    if (!t) return;
    const last = out[out.length - 1];
    if (last && last.text !== undefined) {
      last.text += t;
    } else if (pre || t.trim() || (last && last.inline)) {
      out.push({ text: t }); // a space after an inline element still separates
    }
  }

  /** Ends a run of inline content: a block of the page starts or ends. @param {PageTreeNode[]} out */
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
   * @param {PageTreeNode[]} out
   * @param {WalkState} st
   */
  function walkElement(el, out, st) {
    if (!clickables.has(el) && !delegating.has(el)) {
      visitElement(el, out, st);
      return;
    }
    st.listened++;
    try {
      visitElement(el, out, st);
    } finally {
      st.listened--;
    }
  }

  /**
   * @param {Element} el
   * @param {PageTreeNode[]} out
   * @param {WalkState} st
   */
  function visitElement(el, out, st) {
    const tag = el.tagName;
    if (SKIP.has(tag) || (el.getAttribute('aria-hidden') === 'true' && !seenThoughAriaHidden(el))) return;
    if (tag === 'INPUT' && /** @type {HTMLInputElement} */ (el).type === 'hidden') return;
    if (!visible(el)) {
      // A display:contents element has no box of its own but shows its
      // children; checkVisibility says false for it.
      if (getComputedStyle(el).display !== 'contents') {
        // visibility:hidden hides the element and its text, not a child
        // that sets visibility:visible again: a person sees that one.
        if (el.checkVisibility()) walkShownChildren(el, out, st);
        return;
      }
    }
    // A collapsed panel (max-height: 0, overflow: hidden): nothing of it
    // shows but what is drawn out of it.
    if (clipsAll(el)) {
      for (const c of drawnOutOf(el)) walkElement(c, out, st);
      // A code editor's textarea kept in a box of no size (CodeMirror 5's)
      // is where the editor's keys go: its one textbox.
      for (const t of el.querySelectorAll('textarea')) if (editorInput(t)) walkElement(t, out, st);
      return;
    }
    st.count++;
    const role = roleOf(el);
    // A pane a person scrolls is one they act on: it has a ref to scroll by.
    const scroller = scrolls(el);
    const plain = !INTERACTIVE.has(role) && el !== el.ownerDocument.body && el !== el.ownerDocument.documentElement;
    const clicks = plain && clicked(el, role, st);
    const drags = plain && el.getAttribute('draggable') === 'true';
    const hovers = plain && !clicks && !drags && hoverables.has(el);
    const clickable = clicks || drags || hovers;
    // Labels are often styled as blocks, one above each control.
    const block = BLOCK.has(tag) || (tag === 'LABEL' && !getComputedStyle(el).display.startsWith('inline'));
    if (block) breakText(out);
    if (namesOnly(el, tag, st)) return;
    if (!clickable && !scroller && (!role || (!STRUCTURE.has(role) && !INTERACTIVE.has(role) && !hasOwnName(el)))) {
      // Generic: its children take its place.
      if (tag === 'BR') {
        breakText(out);
        return;
      }
      const control = tag === 'LABEL' ? /** @type {HTMLLabelElement} */ (el).control : null;
      const standIn = !!control && !visible(control) && shownLabel(control) === el;
      if (control && (standIn || visible(control))) {
        // Its text is its control's name: the control says it. A control the
        // page hides to draw its own in the label is said here, where a
        // person sees and clicks it.
        if (standIn) out.push(controlNode(control, el, st));
        /** @type {PageTreeNode[]} */
        const kids = [];
        walkChildren(el, kids, st);
        out.push(...kids.filter((k) => k.text === undefined));
        return;
      }
      if (STRUCK.has(tag)) {
        // A price struck through is not the price: written as Markdown has it.
        out.push({ text: '~~' });
        walkChildren(el, out, st);
        out.push({ text: '~~' });
        return;
      }
      walkChildren(el, out, st);
      if (block) breakText(out);
      return;
    }
    /** @type {PageTreeNode} */
    const node = { role: role || 'generic' };
    // Whether it flows in a line of text is its CSS display's to say (a
    // label or input styled as a block is not); asked only of the
    // elements that become nodes, which are few.
    // A link around a card's heading and text is laid out as the blocks it
    // holds: a line of its own, not one with the buttons after it.
    if (INLINE.has(tag) && getComputedStyle(el).display.startsWith('inline') && !holdsBlock(el)) node.inline = true;
    const name = nameOf(el, role);
    // A link or button with no name, nothing in it and no size (one the
    // HTML parser left empty when it closed a paragraph around a card) is
    // nothing a person sees or clicks.
    if (!name && (role === 'link' || role === 'button') && !el.firstElementChild && emptyBox(el)) return;
    if (name) node.name = name;
    if (INTERACTIVE.has(role) || SECTION.has(role) || el.tagName === 'IFRAME') node.ref = refFor(el);
    states(el, role, node);
    if (scroller) {
      node.ref ??= refFor(el);
      node.scrollable = true;
    }
    const choices = choicesOf(el);
    if (choices?.length) {
      node.options = choices.slice(0, MAX_CHOICES);
      if (choices.length > MAX_CHOICES) node.moreOptions = choices.length - MAX_CHOICES;
    }

    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
      frameInto(/** @type {HTMLIFrameElement} */ (el), node, st);
    } else if (role === 'listbox') {
      // A list of options shows them, each with its ref; a closed select
      // (combobox) lists its options' labels on itself (above).
      /** @type {PageTreeNode[]} */
      const kids = [];
      walkChildren(el, kids, st);
      const options = kids.filter((k) => k.role);
      if (options.length) node.kids = options;
    } else if (INTERACTIVE.has(role) || role === 'img') {
      // Its content is its name; only controls nested inside remain.
      /** @type {PageTreeNode[]} */
      const kids = [];
      st.controls++;
      // A closed select's options are not shown; a combobox drawn with
      // elements may hold the textbox a person types in.
      if (el.tagName !== 'SELECT') walkChildren(el, kids, st);
      st.controls--;
      const inner = kids.filter((k) => k.ref !== undefined || k.kids?.some((x) => x.ref !== undefined));
      // A button only by its handler or tab stop around one control and
      // nothing else (<div onclick><button>Save</button></div>): the
      // control is what a person clicks, and the click reaches the handler
      // too. It is not a second "Save".
      if (inner.length === 1 && inner[0].ref !== undefined && inner[0].name === name && byHandler(el, role)) {
        out.push(inner[0]);
        return;
      }
      if (inner.length) node.kids = inner;
    } else {
      /** @type {PageTreeNode[]} */
      const kids = [];
      const pre = tag === 'PRE';
      const pointedBefore = st.pointed;
      if (pre) st.pre++;
      walkChildren(el, kids, st);
      if (pre) st.pre--;
      if (st.pre > 0 || pre) trimPre(kids);
      else trimText(kids);
      if (tag === 'LI') numbered(el, kids, st);
      // A node whose only content is its own name says it once.
      if (kids.length === 1 && kids[0].text !== undefined && node.name &&
          kids[0].text.trim() === node.name) {
        kids.length = 0;
      }
      if (clickable && !node.name && kids.every((k) => k.text !== undefined)) {
        // A span or div that is only its text: the text is its name.
        const text = kids.map((k) => k.text).join(' ').replace(/\s+/g, ' ').trim();
        if (text.length <= 80) {
          if (text) node.name = text;
          kids.length = 0;
        }
      }
      // A listener around one control and nothing else (a div that counts
      // its button's clicks) is that control's: the click reaches it too.
      if (clicks && !drags && !role && !scroller && !node.name && kids.length === 1 && kids[0].ref !== undefined && kids[0].role) {
        out.push(kids[0]);
        if (block) breakText(out);
        return;
      }
      // A listener whose elements below show the hand cursor is theirs.
      // Hovered, it is what opens; a control inside it is what is used.
      if (clickable && refsIn(kids) <= (hovers ? 0 : MAX_CLICKABLE_REFS) && st.pointed === pointedBefore) {
        node.ref = refFor(el);
        if (clicks || hovers) markClicks(node, el);
        if (drags) node.draggable = true;
      } else if (clickable && !role && !scroller) {
        // A container listening for its many controls' clicks, or for
        // those of the elements below it that show the hand cursor: its
        // children take its place, as any generic element's.
        out.push(...kids);
        if (block) breakText(out);
        return;
      }
      if (kids.length) node.kids = kids;
    }
    if (clickable && role === 'img') {
      node.ref = refFor(el);
      if (clicks || hovers) markClicks(node, el);
      if (drags) node.draggable = true;
    }
    if (!node.name && !node.kids && node.ref === undefined && node.value === undefined &&
        node.checked === undefined && node.level === undefined && role !== 'separator' && !CELLS.has(role)) {
      return; // an empty status, region or list says nothing; an empty cell keeps the next under its header
    }
    out.push(node);
    if (block) breakText(out);
  }

  /**
   * Says that a script listens on el's node for a person's clicks, and for
   * which gesture when a click is not it.
   * @param {PageTreeNode} node
   * @param {Element} el
   */
  function markClicks(node, el) {
    node.clickable = true;
    const gesture = onlyBy.get(el);
    if (gesture) node.gesture = gesture;
  }

  /**
   * Puts the number a person sees before an item of a numbered list: "3."
   * of a step, "b." of a clause. Bullets, and numbers the page's style
   * takes away (a breadcrumb's <ol>), are not written.
   * @param {Element} li
   * @param {PageTreeNode[]} kids its content
   * @param {WalkState} st
   */
  function numbered(li, kids, st) {
    const ol = li.parentElement;
    if (ol?.tagName !== 'OL') return;
    let numbers = st.numbers.get(ol);
    if (!numbers) st.numbers.set(ol, (numbers = numbersOf(/** @type {HTMLOListElement} */ (ol))));
    const n = numbers.get(li);
    if (n === undefined) return;
    const marker = markerOf(n, getComputedStyle(li).listStyleType);
    if (!marker) return;
    if (kids[0]?.text !== undefined) kids[0].text = `${marker} ${kids[0].text}`;
    else kids.unshift({ text: `${marker} ` });
  }

  /**
   * Whether el is a <dialog> opened with showModal().
   * @param {Element} el
   */
  function isModal(el) {
    try {
      return el.matches(':modal');
    } catch {
      return false; // a browser that predates :modal
    }
  }

  /**
   * The node of a control the page hides behind its label, in the label's
   * place.
   * @param {Element} control
   * @param {Element} label
   * @param {WalkState} st
   */
  function controlNode(control, label, st) {
    st.count++;
    const role = roleOf(control);
    /** @type {PageTreeNode} */
    const node = { role, ref: refFor(control) };
    const name = nameOf(control, role);
    if (name) node.name = name;
    if (getComputedStyle(label).display.startsWith('inline')) node.inline = true;
    states(control, role, node);
    return node;
  }

  /**
   * Tidies the text nodes of kids: spaces around line breaks go, runs of
   * breaks become one, and nothing but a break at either end is left.
   * @param {PageTreeNode[]} kids
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
   * Tidies the text of preformatted kids: blank lines at either end go,
   * every other space stays.
   * @param {PageTreeNode[]} kids
   */
  function trimPre(kids) {
    const first = kids[0];
    if (first?.text !== undefined) first.text = first.text.replace(/^\s*\n/, '');
    const last = kids[kids.length - 1];
    if (last?.text !== undefined) last.text = last.text.replace(/\s+$/, '');
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i].text === '') kids.splice(i, 1);
  }

  /**
   * Whether the browser holds el invalid after a person (or an agent) used
   * it: :user-invalid, which a field matches once it was edited or its form
   * was submitted, not while it stands untouched.
   * @param {Element} el
   */
  function userInvalid(el) {
    if (!(isInput(el) || isTextArea(el) || isSelect(el))) return false;
    try {
      return el.matches(':user-invalid');
    } catch {
      return false; // a browser (or jsdom) without it
    }
  }

  /**
   * The states that matter, on node.
   * @param {Element} el
   * @param {string} role
   * @param {PageTreeNode} node
   */
  function states(el, role, node) {
    const aria = (/** @type {string} */ n) => el.getAttribute(`aria-${n}`);
    if (role === 'heading') {
      const level = Number(aria('level') || el.tagName.slice(1));
      if (level) node.level = level;
    }
    if (isInput(el) && (el.type === 'checkbox' || el.type === 'radio')) {
      node.checked = el.indeterminate ? 'mixed' : String(el.checked);
    } else if (aria('checked') !== null && CHECKABLE.has(role)) {
      node.checked = /** @type {string} */ (aria('checked'));
    }
    if (aria('pressed') !== null && role === 'button') node.checked = `pressed=${aria('pressed')}`;
    if (isDisabled(el)) node.disabled = true;
    const expanded = aria('expanded');
    if (expanded !== null) node.expanded = expanded === 'true';
    else if (el.tagName === 'DETAILS') node.expanded = /** @type {HTMLDetailsElement} */ (el).open;
    else if (el.tagName === 'SUMMARY' && el.parentElement?.tagName === 'DETAILS') {
      // The summary is what a person clicks to open or close its details.
      node.expanded = /** @type {HTMLDetailsElement} */ (el.parentElement).open;
    } else if (/** @type {HTMLButtonElement} */ (el).popoverTargetElement) {
      // A button that shows a popover (popovertarget), as Chrome says it.
      node.expanded = /** @type {Element} */ (/** @type {HTMLButtonElement} */ (el).popoverTargetElement).matches(':popover-open');
    }
    if (isOption(el) ? el.selected : aria('selected') === 'true') node.selected = true;
    // The column a table is sorted by: a person sees its arrow.
    if (role === 'columnheader' || role === 'rowheader') {
      const sort = aria('sort');
      if (sort && sort !== 'none') node.sort = sort;
    }
    // The option a combobox or list points at as the keys move (what Enter
    // would take): the focused element names it by aria-activedescendant.
    if (el.id && ACTIVE_ROLES.has(role)) {
      const owner = el.ownerDocument.activeElement;
      if (owner && owner.getAttribute('aria-activedescendant') === el.id) node.active = true;
    }
    // The page, step or tab a navigation marks as the one a person is on.
    const current = aria('current');
    if (current !== null && current !== 'false' && INTERACTIVE.has(role)) node.current = true;
    if ((/** @type {HTMLInputElement} */ (el)).required || aria('required') === 'true') node.required = true;
    // A field the page's own check marked, or one the browser's refused a
    // submit for: a person sees it outlined red, with why beside it.
    if (isInvalid(aria('invalid')) || userInvalid(el)) node.invalid = true;
    if (readOnly(el)) node.readonly = true;
    // A control named by a symbol (×, 🗑, ⋮) says what it does in its
    // tooltip: the title a person sees on hovering it.
    if (INTERACTIVE.has(role) && node.name && !/[\p{L}\p{N}]/u.test(node.name)) {
      const title = el.getAttribute('title')?.trim();
      if (title && title !== node.name) node.title = title.slice(0, 100);
    }
    // A modal dialog makes the rest of the page inert until it closes.
    if ((role === 'dialog' || role === 'alertdialog') && (aria('modal') === 'true' || isModal(el))) node.modal = true;
    if (role === 'link') node.href = hrefOf(el);
    const secret = secretOf(el);
    if (secret) {
      node.secret = secret;
      return;
    }
    const value = valueOf(el, role);
    if (value !== undefined && value !== node.name) node.value = value;
  }

  /**
   * Walks into a same-origin frame in place; a cross-origin one is left for
   * the service worker, which injects into it separately.
   * @param {HTMLIFrameElement} el
   * @param {PageTreeNode} node
   * @param {WalkState} st
   */
  function frameInto(el, node, st) {
    let doc = null;
    try {
      doc = el.contentDocument;
    } catch {
      // cross-origin
    }
    const noScroll = el.getAttribute('scrolling') === 'no';
    if (doc?.body) {
      if (!noScroll && docScrolls(doc)) node.scrollable = true;
      for (const id of labelIds(doc)) st.labels.add(id);
      for (const drawn of drawnOn(doc)) st.drawn.add(drawn);
      /** @type {PageTreeNode[]} */
      const kids = [];
      // A click in a frame does not reach the listeners of the page around it.
      const { listened } = st;
      st.listened = listening.has(doc) ? 1 : 0;
      walkBody(doc, kids, st);
      st.listened = listened;
      if (kids.length) node.kids = kids;
      return;
    }
    // Its page script says whether its document scrolls (snapshot's
    // scrolls); whether the frame lets it is said here.
    node.frame = { ...frameSource(el), crossOrigin: true };
    if (noScroll) node.frame.noScroll = true;
  }

  /**
   * Whether a frame's document is taller than the frame and scrolls as a
   * pane does: not when it is made not to (overflow hidden).
   * @param {Document} doc
   */
  function docScrolls(doc) {
    const root = doc.scrollingElement ?? doc.documentElement;
    const held = [doc.documentElement, doc.body].some((e) => e && /hidden|clip/.test(getComputedStyle(e).overflowY));
    return !held && root.scrollHeight > root.clientHeight + 1;
  }

  /**
   * Walks doc's body into out. A body that is itself editable (a rich text
   * editor's frame: TinyMCE, CKEditor, designMode) is one textbox, its text
   * the value, as a person sees one box to type in.
   * @param {Document} doc
   * @param {PageTreeNode[]} out
   * @param {WalkState} st
   */
  function walkBody(doc, out, st) {
    const body = /** @type {HTMLElement} */ (doc.body);
    if (body.isContentEditable) {
      st.count++;
      /** @type {PageTreeNode} */
      const node = { role: 'textbox', ref: refFor(body) };
      const name = nameOf(body, 'textbox');
      if (name) node.name = name;
      const value = valueOf(body, 'textbox');
      if (value) node.value = value;
      out.push(node);
      return;
    }
    walkChildren(body, out, st);
    trimText(out);
  }

  /**
   * snapshot: the frame's tree.
   * @param {{ refBase: number, refSkip?: [number, number][] }} args
   */
  function snapshot({ refBase, refSkip }) {
    advance(refBase, refSkip);
    /** @type {WalkState} */
    const st = {
      count: 0, truncated: false, labels: labelIds(document), pre: 0, listened: listening.has(document) ? 1 : 0, controls: 0,
      pointed: 0, numbers: new Map(), drawn: new Set(drawnIn(document)), // frames add theirs
    };
    /** @type {PageTreeNode[]} */
    const kids = [];
    if (document.body) walkBody(document, kids, st);
    return {
      url: location.href,
      title: document.title,
      tree: kids,
      // Chrome's PDF viewer, whose text no script of the page reaches.
      ...(document.contentType === 'application/pdf' ? { pdf: true } : {}),
      ...handed(),
      nodes: st.count,
      truncated: st.truncated,
      // A frame's: the iframe around it in the page is the pane. The top
      // document's own scroll is the page's, never marked.
      ...(window !== window.top ? { scrolls: !!document.body && docScrolls(document) } : {}),
    };
  }

  /**
   * Whether an element laid out inline holds a block (a heading, a
   * paragraph), which breaks the line it is in.
   * @param {Element} el
   */
  function holdsBlock(el) {
    for (const c of el.children) {
      const d = getComputedStyle(c).display;
      if (d !== 'none' && d !== 'contents' && !d.startsWith('inline')) return true;
    }
    return false;
  }

  /** More refs than this inside, and a listener is a container's. */
  const MAX_CLICKABLE_REFS = 5;

  /**
   * Whether el is a button only because an onclick attribute or a tab stop
   * says so: no role of its own, not a <button>, <summary> or input.
   * @param {Element} el
   * @param {string} role roleOf(el)
   */
  function byHandler(el, role) {
    return role === 'button' && !el.hasAttribute('role') && !['BUTTON', 'SUMMARY', 'INPUT'].includes(el.tagName);
  }

  /**
   * How many refs nodes hold, at any depth.
   * @param {PageTreeNode[]} nodes
   * @returns {number}
   */
  function refsIn(nodes) {
    let n = 0;
    for (const k of nodes) n += (k.ref !== undefined ? 1 : 0) + (k.kids ? refsIn(k.kids) : 0);
    return n;
  }

  /**
   * Elements a script listens on for clicks (sw/clickables.js finds them
   * with the DOM debugger, which this world cannot ask).
   * @type {WeakSet<Element>}
   */
  const clickables = new WeakSet();

  /**
   * Elements a script listens on for the pointer coming over them (a menu
   * that opens so): one with no control of its own inside is shown as
   * clickable, since a click brings the pointer over it first.
   * @type {WeakSet<Element>}
   */
  const hoverables = new WeakSet();

  /**
   * Documents that, or whose window, listen for clicks.
   * @type {WeakSet<Document>}
   */
  const listening = new WeakSet();

  /**
   * Elements a framework hears every event of its tree on (React's root):
   * they listen as a document does, for the elements below them, and are
   * nothing to click themselves.
   * @type {WeakSet<Element>}
   */
  const delegating = new WeakSet();

  /**
   * Clickables that answer only another gesture than a click: a title a
   * double click renames, a row a right click opens a menu on. The tree
   * says which, so that the agent's first try is the one that works.
   * @type {WeakMap<Element, string>}
   */
  const onlyBy = new WeakMap();

  /**
   * Marks els as clickable, documents as listening, and roots as listening
   * for their trees, and hovers, the elements that listen for the pointer
   * coming over them (a menu that opens so), as clickable too: a click
   * brings the pointer over first. Returns how many are new and have no
   * interactive role, so would show differently now.
   * gestures[i] is the gesture els[i] answers when a click reaches none of
   * its listeners ('double_click', 'right_click'; '' or absent: a click).
   * @param {Array<Element | Document>} els
   * @param {Element[]} [roots]
   * @param {Array<Element | Document>} [hovers]
   * @param {string[]} [gestures]
   */
  function markClickable(els, roots = [], hovers = [], gestures = []) {
    let fresh = 0;
    for (const el of hovers) {
      if (!isElement(el) || hoverables.has(el)) continue;
      hoverables.add(el);
      if (!INTERACTIVE.has(roleOf(el))) fresh++;
    }
    for (const root of roots) {
      if (!isElement(root) || delegating.has(root)) continue;
      delegating.add(root);
      fresh++;
    }
    for (const [i, el] of els.entries()) {
      if (el?.nodeType === 9) { // Node.DOCUMENT_NODE
        if (!listening.has(/** @type {Document} */ (el))) fresh++;
        listening.add(/** @type {Document} */ (el));
        continue;
      }
      if (!isElement(el)) continue;
      if (gestures[i]) onlyBy.set(el, gestures[i]);
      else onlyBy.delete(el);
      if (clickables.has(el)) continue;
      clickables.add(el);
      if (!INTERACTIVE.has(roleOf(el))) fresh++;
    }
    // Until the document changes, the marks stand and the next read need
    // not ask the debugger again. The first change ends the watch.
    scanned = true;
    markedAt = performance.now();
    changes ??= new MutationObserver(() => {
      scanned = false;
      changes?.disconnect();
    });
    changes.observe(document, { childList: true, subtree: true });
    // A shadow root's or a frame's changes do not reach the document's
    // observer: watch the ones a mark was found in.
    for (const el of [...els, ...hovers]) {
      const root = isElement(el) ? el.getRootNode() : el;
      if (root && root !== document) changes.observe(root, { childList: true, subtree: true });
    }
    return fresh;
  }

  /**
   * Whether the marks are those of the document as it is now: nothing was
   * added to it since, and they are recent. A script may listen on an
   * element without changing the document (a server-rendered page that
   * hydrates after its first read, a handler set on a timer), so a read
   * seconds later asks again.
   */
  function marksFresh() {
    return scanned && performance.now() - markedAt < MARKS_KEPT_MS;
  }

  /** How long marks stand when nothing is added to the document. */
  const MARKS_KEPT_MS = 2000;
  let scanned = false;
  let markedAt = 0;
  /** @type {MutationObserver | undefined} */
  let changes;

  /**
   * Whether a person could click el though no role says so: a script
   * listens on it, its list or table listens for its items, or a script
   * above it listens for the clicks of everything below (React's root,
   * jQuery's document) and the page gives el the hand cursor, which is what
   * tells a person it can be clicked.
   * @param {Element} el
   * @param {string} role
   * @param {WalkState} st
   */
  function clicked(el, role, st) {
    return clickables.has(el) || delegated(el, role) || pointed(el, st);
  }

  /**
   * Whether el is where the hand cursor starts under a listening ancestor.
   * A label's control and a control's content have refs of their own; code
   * is text, and its many spans are not asked.
   * @param {Element} el
   * @param {WalkState} st
   */
  function pointed(el, st) {
    if (st.listened === 0 || st.controls > 0 || st.pre > 0 || !startsPointer(el)) return false;
    if (el.tagName === 'LABEL' && /** @type {HTMLLabelElement} */ (el).control) return false;
    st.pointed++;
    return true;
  }

  /**
   * An item of a list or table whose container listens for the clicks of
   * all its items (a sortable list, a clickable table): the item is what a
   * person clicks or drags.
   * @param {Element} el
   * @param {string} role
   */
  function delegated(el, role) {
    return (role === 'listitem' || role === 'row') && !!el.parentElement && clickables.has(el.parentElement);
  }

  /**
   * Whether the last marks say a script listens on el for clicks or for
   * the pointer.
   * @param {Element} el
   */
  function listenedOn(el) {
    return clickables.has(el) || hoverables.has(el);
  }

  /**
   * The gesture el answers when a click reaches none of its listeners
   * ('double_click', 'right_click'), as the last marks say; undefined when a
   * click is it.
   * @param {Element} el
   */
  function gestureOf(el) {
    return onlyBy.get(el);
  }

  oc.tree = { snapshot, markClickable, marksFresh, states, listenedOn, gestureOf };
})();
