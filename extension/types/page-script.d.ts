// The page script (extension/page/*.js) is a set of classic scripts that share
// one namespace object in a frame's isolated world, globalThis.__openchrome:
// page/namespace.js makes it, each module registers its part, page/entry.js
// adds call. These are the parts, as the modules use one another and as the
// service worker calls them. Types only: this file is not shipped.

/** An error a page method returns with its code (page/namespace.js). */
interface PageErrorInstance extends Error {
  code: string;
  hint?: string;
}

interface PageErrorConstructor {
  new (code: string, message: string, hint?: string): PageErrorInstance;
}

/**
 * A node of the tree sent to the host. Short keys keep large pages cheap to
 * move; host/engine/snapshot.go mirrors them.
 */
interface PageTreeNode {
  role?: string;
  name?: string;
  text?: string;
  ref?: number;
  level?: number;
  checked?: string;
  disabled?: boolean;
  expanded?: boolean;
  selected?: boolean;
  required?: boolean;
  /** Shown and focusable, but takes no typing. */
  readonly?: boolean;
  /** A dialog that makes the rest of the page inert. */
  modal?: boolean;
  /** The tooltip of a control whose name is only a symbol. */
  title?: string;
  /** aria-current: the page, step or tab a person is on. */
  current?: boolean;
  /** The option the focused element points at (aria-activedescendant). */
  active?: boolean;
  /** aria-invalid, or :user-invalid: a field the page or the browser holds invalid. */
  invalid?: boolean;
  /** aria-sort of a header: 'ascending', 'descending' or 'other'. */
  sort?: string;
  value?: string;
  /** A closed select's options, by label (the first MAX_CHOICES). */
  options?: string[];
  /** How many more options it has than options holds. */
  moreOptions?: number;
  /** Why the value is left out: 'password' or 'secret'. */
  secret?: string;
  href?: string;
  frame?: PageFrameRef;
  /** The element flows in a line of text (a link in a paragraph). */
  inline?: boolean;
  /** No role says so, but a script listens for its clicks. */
  clickable?: boolean;
  /** The interact action a clickable answers when a click reaches none of its listeners: 'double_click', 'right_click'. */
  gesture?: string;
  /** A pane a person scrolls for more of what it holds. */
  scrollable?: boolean;
  /** No role says so, but it can be dragged (draggable="true"). */
  draggable?: boolean;
  kids?: PageTreeNode[];
}

/** A frame the tree could not walk into: the service worker fills it in. */
interface PageFrameRef {
  url: string;
  /** Its path from the top window through the frames of each (window.frames), when it has one. */
  path?: number[];
  crossOrigin?: boolean;
  /** scrolling="no": the frame does not scroll, however tall its document. */
  noScroll?: boolean;
}

interface PagePoint {
  x: number;
  y: number;
}

interface PageBox extends PagePoint {
  width: number;
  height: number;
}

/** page/refs.js */
interface PageRefs {
  refFor(el: Element): number;
  /** The live element behind ref; stale_ref when it is gone. */
  element(ref: number): Element;
  lookup(ref: number): Element | undefined;
  advance(refBase: number, refSkip?: [number, number][]): void;
  handed(): { startRef: number; nextRef: number };
}

/** page/roles.js */
interface PageRoles {
  isElement(n: unknown): n is Element;
  isInput(n: unknown): n is HTMLInputElement;
  isTextArea(n: unknown): n is HTMLTextAreaElement;
  isSelect(n: unknown): n is HTMLSelectElement;
  isLabel(n: unknown): n is HTMLLabelElement;
  isOption(n: unknown): n is HTMLOptionElement;
  isFrame(n: unknown): n is HTMLIFrameElement;
  /** Starts a call: forgets the labels gathered for the last, and shadow roots kept too long. */
  beginCall(): void;
  /** Ends a call: forgets the shadow roots kept for it. */
  endCall(): void;
  /** Keeps the shadow roots shadowOf finds until the next call ends (sw/clickables.js's roots pass). */
  keepShadows(): void;
  /** Where a link (an HTML or an SVG one) goes, whole; undefined without an href. */
  hrefOf(el: Element): string | undefined;
  /** Roles that are checked or not (a checkbox, radio, switch, or such a menu item). */
  CHECKABLE: Set<string>;
  SVG_NS: string;
  XLINK: string;
  /** The handoff banner's tag name: OpenChrome's element, not the page's. */
  BANNER: string;
  SKIP: ReadonlySet<string>;
  INTERACTIVE: ReadonlySet<string>;
  STRUCTURE: ReadonlySet<string>;
  HEADINGS: string;
  SECTION: ReadonlySet<string>;
  BLOCK: ReadonlySet<string>;
  INLINE: ReadonlySet<string>;
  APART: ReadonlySet<string>;
  /** Input types no text is typed into. */
  UNTYPED: ReadonlySet<string>;
  inBanner(el: Element): boolean;
  roleOf(el: Element): string;
  nameOf(el: Element, role: string): string;
  hasOwnName(el: Element): boolean;
  textOf(root: Element, intoInteractive: boolean | 'links', skip?: Element): string;
  clip(s: string): string;
  /** s cut to at most max characters, at the end of a word, marked cut. */
  words(s: string, max: number): string;
  /** el's shadow root, open or closed (not OpenChrome's banner). */
  shadowOf(el: Element): ShadowRoot | null;
  /** Whether inner is outer or inside it, through shadow roots. */
  composedContains(outer: Element, inner: Element): boolean;
  /** The shadow roots in root (an element's own too), and those in them. */
  shadowRootsIn(root: Document | ShadowRoot | Element): ShadowRoot[];
  childrenOf(el: Element): Iterable<Node>;
  /** The number of each shown item of a numbered list. */
  numbersOf(ol: HTMLOListElement): Map<Element, number>;
  /** Item n's marker in a list-style-type ("3.", "c."); undefined for none and bullets. */
  markerOf(n: number, type: string): string | undefined;
  visible(el: Element): boolean;
  /** Whether a positioned element's clip rectangle has no area. */
  clippedToNothing(cs: CSSStyleDeclaration): boolean;
  /** Whether el shows none of what it holds: no width or height, and it clips its overflow. */
  clipsAll(el: Element): boolean;
  /** Whether a transform (scale(0), edge-on) draws the element it is computed for in no area. */
  flattened(cs: CSSStyleDeclaration): boolean;
  /** What is drawn out of el, a panel that shows nothing it holds: its fixed elements, and absolute ones positioned outside it. */
  drawnOutOf(el: Element): Element[];
  /** Whether el is a pane that scrolls up and down, and holds more than it shows. */
  scrolls(el: Element): boolean;
  /** Whether el draws none of its own words: a closed details (but its summary), an element hidden until found, a canvas's or a player's fallback. */
  drawsNoContent(el: Element): boolean;
  /** Whether el, by its computed style, draws and clips the absolutely positioned elements in it. */
  containsAbsolute(cs: CSSStyleDeclaration): boolean;
  /** Whether an ancestor that clipsAll hides el, as el's containing blocks pass through it. */
  clippedAway(el: Element, memo?: Map<Element, boolean>): boolean;
  /** The element el is laid out in: its slot, its parent, or its shadow root's host. */
  layoutParent(el: Element): Element | null;
  /** The image an area's map is drawn on. */
  mapImage(area: Element): HTMLImageElement | null;
  /** Whether el takes no input now: :disabled, aria-disabled, or inert. */
  isDisabled(el: Element): boolean;
  /** Whether a person sees an aria-hidden element: its box is where the page scrolls to. */
  seenThoughAriaHidden(el: Element): boolean;
  /** Whether el shows the hand cursor and its parent another. */
  startsPointer(el: Element): boolean;
  /** Why a control's value must not be shown: 'password', 'secret', or ''. */
  secretOf(el: Element): string;
  /** Whether an aria-invalid value says invalid ("true", "grammar", "spelling"). */
  isInvalid(v: string | null): boolean;
  valueOf(el: Element, role: string, whole?: boolean): string | undefined;
  choicesOf(el: Element): string[] | undefined;
  readOnly(el: Element): boolean;
  shownLabel(el: Element): HTMLLabelElement | undefined;
  describe(el: Element): string;
  /** Where a frame element shows the document this script cannot walk: its URL and its path from the top window. */
  frameSource(el: Element): { url: string; path?: number[] };
  /** The elements of doc whose ::before or ::after its style sheets may give words. */
  drawnOn(doc: Document): Set<Element>;
  /** drawnOn, found once per call. */
  drawnIn(doc: Document): Set<Element>;
  /** What el's ::before and ::after write, as text before and after its own. */
  drawnAround(el: Element): [string, string];
  /** A selector list's selectors, split at its top-level commas. */
  splitSelectors(list: string): string[];
  /** Whether el is the textarea a code editor (Ace, Monaco, CodeMirror 5) takes keys in. */
  editorInput(el: Element): boolean;
  /** The words a CSS content value writes: strings and attr(), never an image's URL. */
  contentWords(content: string, attr: (name: string) => string | null): string;
}

interface PageSnapshot {
  url: string;
  title: string;
  tree: PageTreeNode[];
  nextRef: number;
  nodes: number;
  truncated: boolean;
  /** A frame's document is taller than the frame and scrolls (frames only). */
  scrolls?: boolean;
}

/** page/tree.js */
interface PageTree {
  snapshot(args: { refBase: number }): PageSnapshot;
  /** Marks elements a script listens on for clicks, and documents whose tree or window does; how many are new and have no interactive role. */
  markClickable(els: Array<Element | Document>, roots?: Element[], hovers?: Array<Element | Document>, gestures?: string[]): number;
  /** Whether no element was added or removed since the last markClickable. */
  marksFresh(): boolean;
  /** Sets on node the states of el that the tree shows (checked, expanded, selected…). */
  states(el: Element, role: string, node: PageTreeNode): void;
  /** Whether the last marks say a script listens on el for clicks or for the pointer. */
  listenedOn(el: Element): boolean;
  /** The gesture el answers when a click reaches none of its listeners ('double_click', 'right_click'). */
  gestureOf(el: Element): string | undefined;
}

/** page/text.js */
interface PageText {
  text(): { url: string; title: string; markdown: string };
  crawl(args: { output: 'markdown' | 'text' | 'links' }): {
    url: string;
    title: string;
    content: string | undefined;
    links: string[];
  };
}

/** page/find.js */
interface PageFind {
  find(args: { query: string; limit: number; refBase: number }): {
    candidates: Array<{ ref: number; role: string; name: string; why: string; score: number; href?: string; near?: string; option?: string }>;
    hidden?: { name: string; holder?: { ref: string; name: string }; closedIn?: string };
    total: number;
    nextRef: number;
  };
  field(args: { label: string; value?: string; refBase: number }): {
    ref: number;
    role: string;
    name: string;
    alike?: Array<{ ref: number; role: string; name: string; near?: string }>;
    nextRef: number;
  };
  crossFrames(args: { refBase: number }): { frames: Array<{ ref: number; url: string; path?: number[] }>; nextRef: number };
}

/** page/dom.js */
interface PageDom {
  locate(args: { ref: number }): Record<string, unknown>;
  dom(args: { ref: number; op: string; value?: string; values?: string[] }): Record<string, unknown>;
  actionable(args: { ref: number; refBase?: number; at?: PagePoint }): Record<string, unknown>;
  /** Stops the trusted events of a click that would reach anything but ref's element, until its last event. */
  guard(args: { ref: number; last: string }): { guard: number };
  /** Ends a guard: what it stopped, and whether anything of the click reached the element. */
  unguard(args: { guard: number }): { stopped?: string; reached: boolean };
  /** Whether a click at (x, y) gets to the iframe ref, for the cross-origin frame in it. */
  reaches(args: { ref: number; x: number; y: number; refBase?: number }): Record<string, unknown>;
  dismissers(args: { refBase: number }): { dismiss: Array<{ ref: number; name: string }>; nextRef: number };
  /** The options a combobox's drawn list (or a button's menu) shows, and the one named value. */
  listOptions(args: { ref: number; value: string; refBase: number; refSkip?: [number, number][] }): {
    match?: number; listed: boolean; suggests: boolean; offered: Offered[]; more: number; startRef: number; nextRef: number;
  };
  /** What an answer offers of els: the first ten with refs, and how many more. */
  offers(els: Element[]): { offered: Offered[]; more: number };
  /** The focused element with a ref, unless it is the page itself. */
  focused(args: { refBase?: number; refSkip?: [number, number][] }): { ref?: number; name?: string; startRef: number; nextRef: number };
  scrollState(args: { x: number; y: number }): ScrollState;
  appAt(args: { x: number; y: number }): { app?: string };
  /** The focused element, through shadow roots and same-origin frames. */
  deepActive(): Element | null;
}

/** The states of an element an action may change, as the tree writes them. */
interface ElementState {
  checked?: string;
  expanded?: boolean;
  selected: boolean;
  /** aria-sort of a header. */
  sort?: string;
}

/** An option or menu item a list shows. */
interface Offered {
  ref: number;
  role: string;
  name: string;
}

/** What wait_for waits for (page/watch.js's check). */
interface PageCondition {
  text?: string;
  textGone?: string;
  ref?: number;
  selector?: string;
  predicate?: string;
  state?: string;
}

/** page/watch.js */
interface PageWatch {
  watch(args: { ref?: number, ownMoves?: boolean, keys?: boolean }): { watch: number, url: string, stillMs: number };
  changes(args: { watch: number; stop?: boolean }): Record<string, unknown>;
  check(c: PageCondition): { ok: boolean; seen: string };
  shownControls(args: { watch: number; refBase: number; refSkip?: [number, number][] }): {
    offered: Array<{ ref: number; role: string; name: string }>;
    more: number;
    nextRef: number;
  };
  successor(args: { watch: number; refBase: number; refSkip?: [number, number][] }): {
    offered: Array<{ ref: number; role: string; name: string }>;
    more: number;
    nextRef: number;
  };
  restyled(el: Element): boolean;
}

/** page/handoff.js */
interface PageHandoff {
  handoffState(): { storageKeys: string[]; domFingerprint: string };
}

/** A mark of the person's, as feedbackMarks describes it; null when it left the page. */
type PageMark = { ref: number; role: string; name: string; selector: string; text: string } | null;

/** page/feedback.js */
interface PageFeedback {
  /** The element under a viewport point, or the control it sits in. */
  pick(x: number, y: number): Element | null;
  /** The elements wholly inside a box of the viewport that mean something. */
  inside(rect: PageBox): Element[];
  feedbackMarks(args: { requestId: string; refBase: number }): { marks: PageMark[]; nextRef: number };
}

/** What call answers: errors come back as values (chrome.scripting loses an exception's fields). */
type PageResult =
  | { ok: unknown; error?: undefined }
  | { ok?: undefined; error: { code: string; message: string; hint?: string } };

/** globalThis.__openchrome once every file has run. */
interface PageNamespace {
  version: number;
  PageError: PageErrorConstructor;
  refs: PageRefs;
  roles: PageRoles;
  tree: PageTree;
  text: PageText;
  find: PageFind;
  dom: PageDom;
  watch: PageWatch;
  handoff: PageHandoff;
  feedback: PageFeedback;
  /** A PageResult as JSON. Absent until page/entry.js, the last file, has run. */
  call?: (method: string, args: unknown) => string;
}

declare var __openchrome: PageNamespace | undefined;

/** Where what a wheel scrolls is: a pane (named) or the page. */
interface ScrollState {
  pane?: string;
  top: number;
  left: number;
  height: number;
  /** The directions it can still move in. */
  room?: { up: boolean, down: boolean, left: boolean, right: boolean };
}
