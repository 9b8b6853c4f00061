package pagetree

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options shape the text of a tree.
type Options struct {
	Base        *url.URL // link targets are written relative to it
	Interactive bool     // only what an agent can act on, with the headings and landmarks around it
	MaxDepth    int      // 0: no limit
	NoValues    bool     // leave out controls' values: for what is written to disk, typed text never is
	FullLinks   bool     // write every link target whole; see linkTarget
	AllOptions  bool     // write every option of a closed select, not the first few
}

// shownOptions is how many of a closed select's options a read of the whole
// page writes: enough to pick from a short list, and a long one (countries)
// costs a line, not a page.
const shownOptions = 8

// Format writes nodes as the lines of read_page's tree, e.g.
//
//	h2 "Login Page"
//	textbox "Username" e4
//	textbox "Password" e5 password
//	button "Login" e6
//	See link "Elemental Selenium" e7 -> /about for more.
//
// An element is its role, its name in quotes, its ref when an agent can act
// on it, its states, and "-> target" for a link. Text and the links and
// other inline elements in it stay on one line, as a reader sees them. A
// node whose content fits one line carries it after a colon, and leaves out
// its name when that line says it (h2: link "Why?" e45). Lists and list
// items print no line of their own: an item's first line takes its place
// and the rest of the item is indented under it, so a nested table of
// contents reads as an outline. Table rows are one line each, "| " and
// their cells joined by " | ".
//
// Refs are written bare (e12, not [e12]): on pages of hundreds of links the
// brackets alone cost a fifth of the tokens. A level of nesting is one space:
// a line of prose that starts with " Word" costs no token more than "Word",
// where two spaces cost one on every line.
//
// A landmark that repeats an earlier one but for its refs (the navigation
// bar many sites put above and below the page) is written as one line,
// "navigation e96: same as e1": its controls do what the first one's do.
func Format(nodes []Node, f Options) []string {
	w := &treeWriter{f: f, landmarks: map[string]int{}, linked: map[string]int{}}
	var note string
	if !f.FullLinks {
		w.numbered, note = numberedLinks(nodes, f)
	}
	w.nodes(nodes, 0)
	if note != "" {
		return append([]string{note}, w.lines...)
	}
	return w.lines
}

type treeWriter struct {
	f     Options
	base  int  // the depth this writer's depth 0 stands at, for maxDepth
	pre   bool // inside code: its line breaks and leading spaces are content
	lines []string
	// landmarks written so far, by their nodes without refs: the ref of the first
	landmarks map[string]int
	// links written so far with a target, by name and href: the ref of the first
	linked map[string]int
	// numbered are the kinds of numbered links said once above the tree; see
	// numberedLinks
	numbered map[numberedKind]bool
	// within is the page (a URL without its fragment) that the link leading
	// the list item around these nodes goes to; lead, the page of the item
	// being written, which its nested items are within. See outlined.
	within, lead string
}

// sub returns a writer for content written apart and placed at depth.
func (w *treeWriter) sub(depth int) *treeWriter {
	return &treeWriter{f: w.f, base: w.base + depth, pre: w.pre, landmarks: w.landmarks, linked: w.linked, numbered: w.numbered,
		within: w.within, lead: w.lead}
}

// nodes writes a run of sibling nodes at depth.
func (w *treeWriter) nodes(ns []Node, depth int) {
	if w.f.MaxDepth > 0 && w.base+depth >= w.f.MaxDepth {
		return
	}
	line := lineBuilder{pre: w.pre}
	flush := func() {
		if s, ok := line.take(); ok {
			w.lines = append(w.lines, indent(depth)+s)
		}
	}
	for i := range ns {
		n := &ns[i]
		switch {
		case n.Role == "":
			if w.f.Interactive {
				continue
			}
			for j, seg := range strings.Split(n.Text, "\n") {
				if j > 0 {
					flush()
				}
				line.text(seg)
			}
		case w.flows(n) && line.open():
			line.element(w.label(n))
		case w.flows(n):
			flush()
			line.element(w.label(n))
		default:
			flush()
			w.node(n, depth)
		}
	}
	flush()
}

// flows reports whether n continues a line of text: an inline element with
// nothing inside it.
func (w *treeWriter) flows(n *Node) bool {
	return n.Inline && len(n.Kids) == 0 && !w.f.Interactive && n.Role != "list" && n.Role != "listitem"
}

func (w *treeWriter) node(n *Node, depth int) {
	if w.f.MaxDepth > 0 && w.base+depth >= w.f.MaxDepth {
		return
	}
	if one, ok := oneBox(*n); ok {
		n = &one
	}
	switch {
	case n.Role == "list" && n.Ref == 0 || n.Role == "group" && n.Name == "" && n.Ref == 0:
		w.nodes(n.Kids, depth)
		return
	case (n.Role == "listitem" || n.Role == "definition") && n.Ref == 0:
		// An item a person can click or drag (a script listens on it or its
		// list) is written as the node it is, ref and all.
		w.item(n.Kids, depth)
		return
	case n.Role == "row":
		w.row(n, depth)
		return
	}
	if w.f.Interactive && n.Ref == 0 && !keepInOutline(n.Role) {
		w.nodes(n.Kids, depth)
		return
	}
	if landmark(n.Role) && n.Ref != 0 && len(n.Kids) > 0 {
		w.landmark(n, depth)
		return
	}
	w.element(n, depth)
}

// oneBox folds a pane that scrolls into the one element it holds, or into
// the one element that holds nothing else: on the screen they are one box,
// so a wheel at either's ref moves the pane, and a line of the pane's own
// would indent all it holds a step further, a token a line. A control alone
// in a pane (a button at the end of a long box) is not the pane: folded,
// its line would say the button scrolls.
func oneBox(n Node) (Node, bool) {
	pane := func(k Node) bool { return k.Role == "generic" && k.Scrollable && k.Name == "" }
	holds := func(k Node) bool { return k.Role != "" && (len(k.Kids) > 0 || k.Ref == 0) }
	switch {
	case pane(n) && len(n.Kids) == 1 && holds(n.Kids[0]):
		k := n.Kids[0]
		k.Scrollable = true
		if k.Ref == 0 {
			k.Ref = n.Ref
		}
		if folded, ok := oneBox(k); ok {
			return folded, true
		}
		return k, true
	case !n.Scrollable && len(n.Kids) == 1 && pane(n.Kids[0]):
		p := n.Kids[0]
		n.Scrollable = true
		if n.Ref == 0 {
			n.Ref = p.Ref
		}
		n.Kids = p.Kids
		return n, true
	}
	return n, false
}

// landmark writes n, or a line that points to the same landmark written before.
func (w *treeWriter) landmark(n *Node, depth int) {
	key := sameness(n)
	if first, ok := w.landmarks[key]; ok {
		w.lines = append(w.lines, fmt.Sprintf("%s%s: same as e%d", indent(depth), w.label(n), first))
		return
	}
	w.landmarks[key] = n.Ref
	w.element(n, depth)
}

// sameness is what two landmarks share when one repeats the other: all but
// their refs.
func sameness(n *Node) string {
	b, _ := json.Marshal(withoutRefs(*n)) // a Node always marshals
	return string(b)
}

func withoutRefs(n Node) Node {
	n.Ref = 0
	if len(n.Kids) > 0 {
		kids := make([]Node, len(n.Kids))
		for i := range n.Kids {
			kids[i] = withoutRefs(n.Kids[i])
		}
		n.Kids = kids
	}
	return n
}

// element writes n and what it holds.
func (w *treeWriter) element(n *Node, depth int) {
	head := indent(depth) + w.label(n)
	if len(n.Kids) == 0 {
		w.lines = append(w.lines, head)
		return
	}
	// Content that fits one line goes on the node's own line.
	sub := w.sub(depth + 1)
	sub.pre = sub.pre || n.Role == "code"
	kids := n.Kids
	numbers := ""
	if n.Role == "code" && !w.pre && n.Ref == 0 && n.Name == "" {
		kids, numbers = w.lineLinks(kids)
	}
	sub.nodes(kids, 0)
	if numbers != "" && len(sub.lines) < minLineLinks {
		// Not lines of code after all: the links are written as they are.
		numbers = ""
		sub = w.sub(depth + 1)
		sub.pre = true
		sub.nodes(n.Kids, 0)
	}
	if len(sub.lines) == 1 && !strings.HasPrefix(sub.lines[0], " ") {
		if n.Name != "" && strings.IndexFunc(sub.lines[0], isWordRune) < 0 {
			// A named control drawn as a sign (× for "Close", >>> for "Hide
			// the prompts"): the name says what the sign shows.
			w.lines = append(w.lines, head)
			return
		}
		if n.Ref == 0 && n.Name != "" && says(sub.lines[0], n.Name) {
			// A heading that is a link, a term that is its code: the line
			// says the name, and writing it twice costs a line's tokens.
			r := *n
			r.Name = ""
			head = indent(depth) + w.label(&r)
		}
		w.lines = append(w.lines, head+": "+sub.lines[0])
		return
	}
	if n.Role == "code" && !w.pre && n.Ref == 0 && n.Name == "" {
		// Lines of code between fences, as Markdown has them: their own
		// indentation is the only one they need.
		fence := indent(depth) + "```"
		if numbers != "" {
			w.lines = append(w.lines, indent(depth)+numbers)
		}
		w.lines = append(append(append(w.lines, fence), sub.lines...), fence)
		return
	}
	w.lines = append(w.lines, head)
	for _, l := range sub.lines {
		w.lines = append(w.lines, indent(depth+1)+l)
	}
}

// lineLinks takes out of a code block's kids the links a source view
// numbers its lines with (rustdoc's, a code browser's: "1", "2", … each to
// its own #1, #L2 on this page), when there are at least minLineLinks,
// numbered one after another with refs one after another, and says them
// in one line: "line numbers 1–1390 are links e16–e1405 (line N: eN+15)".
// A link a line would stand between every two lines of the code, doubling
// what the agent reads; each is still reached by its ref.
func (w *treeWriter) lineLinks(kids []Node) ([]Node, string) {
	var from, to, firstRef, lastRef, count int
	rest := make([]Node, 0, len(kids))
	for _, k := range kids {
		n, ok := lineNumber(&k, w.f.Base)
		switch {
		case !ok:
			rest = append(rest, k)
			continue
		case count == 0:
			from, firstRef = n, k.Ref
		case n != to+1 || k.Ref != lastRef+1:
			return kids, ""
		}
		to, lastRef = n, k.Ref
		count++
	}
	if count < minLineLinks {
		return kids, ""
	}
	return rest, fmt.Sprintf("line numbers %d–%d are links e%d–e%d (line N: eN%+d)", from, to, firstRef, lastRef, firstRef-from)
}

// minLineLinks is how many numbered line links lineLinks folds at least.
const minLineLinks = 3

// lineNumber is the line a link numbers: a link with a ref, named by a
// number, that goes to the anchor of that number on this page (#12, #L12).
func lineNumber(k *Node, base *url.URL) (int, bool) {
	if k.Role != "link" || k.Ref == 0 || len(k.Kids) > 0 || k.Name == "" || !SamePage(base, k.Href) {
		return 0, false
	}
	n, err := strconv.Atoi(k.Name)
	if err != nil || n < 0 || strconv.Itoa(n) != k.Name {
		return 0, false
	}
	_, frag, _ := strings.Cut(k.Href, "#")
	if frag != k.Name && frag != "L"+k.Name {
		return 0, false
	}
	return n, true
}

// item writes a list item: its first line in its place, the rest under it.
func (w *treeWriter) item(kids []Node, depth int) {
	sub := w.sub(depth)
	sub.within = w.lead
	sub.lead = leadPage(kids)
	sub.nodes(kids, 0)
	for i, l := range sub.lines {
		if i == 0 {
			w.lines = append(w.lines, indent(depth)+l)
		} else {
			w.lines = append(w.lines, indent(depth+1)+l)
		}
	}
}

// row writes a table row on one line when each of its cells fits one. A
// row a person can click or select says so before its cells. The line
// breaks the page puts between its cells are not cells.
func (w *treeWriter) row(n *Node, depth int) {
	var cells [][]string
	oneLine := true
	for i := range n.Kids {
		if k := &n.Kids[i]; k.Role == "" && strings.TrimSpace(k.Text) == "" {
			continue
		}
		c := w.sub(depth + 1).cell(&n.Kids[i])
		cells = append(cells, c)
		oneLine = oneLine && len(c) <= 1
	}
	head := "row"
	if n.Ref != 0 {
		r := *n
		r.Name = "" // the cells say it
		head = w.label(&r)
	}
	if !oneLine {
		// A cell holding more than a line: the row as an outline of its cells.
		w.lines = append(w.lines, indent(depth)+head)
		for _, ls := range cells {
			for _, l := range ls {
				w.lines = append(w.lines, indent(depth+1)+l)
			}
		}
		return
	}
	// An empty cell keeps the next under its column's header; those after
	// the last that says something keep nothing in place.
	for len(cells) > 0 && len(cells[len(cells)-1]) == 0 {
		cells = cells[:len(cells)-1]
	}
	parts := make([]string, len(cells))
	for i, ls := range cells {
		if len(ls) == 1 {
			// A "|" of the page's is not a cell border.
			parts[i] = strings.ReplaceAll(ls[0], "|", `\|`)
		}
	}
	line := strings.Join(parts, " | ")
	if n.Ref == 0 && (strings.TrimSpace(strings.ReplaceAll(line, "|", "")) == "" ||
		w.f.Interactive && !hasRef(line)) {
		return
	}
	if n.Ref != 0 {
		w.lines = append(w.lines, indent(depth)+head+": | "+line)
		return
	}
	w.lines = append(w.lines, indent(depth)+"| "+line)
}

// cell returns the lines of one cell's content. A cell with a ref (a
// header a person clicks to sort by) is written whole, as any element is.
func (w *treeWriter) cell(c *Node) []string {
	sub := w.sub(0)
	switch {
	case c.Ref == 0 && (c.Role == "cell" || c.Role == "columnheader" || c.Role == "rowheader"):
		if len(c.Kids) == 0 {
			if c.Name == "" {
				return nil
			}
			return []string{c.Name + sorted(c.Sort)}
		}
		sub.nodes(c.Kids, 0)
		if len(sub.lines) > 0 {
			// A header whose button sorts the table: the state is the header's.
			sub.lines[0] += sorted(c.Sort)
		}
	default:
		sub.nodes([]Node{*c}, 0)
	}
	return sub.lines
}

// sorted says which way a table is sorted by a header (aria-sort).
func sorted(sort string) string {
	switch sort {
	case "":
		return ""
	case "ascending", "descending":
		return " sorted " + sort
	default:
		return " sorted"
	}
}

// lineBuilder gathers one line of text and inline elements.
type lineBuilder struct {
	b        strings.Builder
	elements int  // inline elements on the line
	pre      bool // a line of code: written as it is
	after    bool // the last thing written was an element
	target   bool // ... and it ended with a link's target
}

func (l *lineBuilder) open() bool { return l.b.Len() > 0 }

// text adds a segment of text, which carries its own spaces. Next to an
// element, a segment of mere separators (a "|" or "»" between links, the
// "." after one) is dropped: it says nothing. A "?" or "!" turns the
// sentence into a question or a warning and is kept; a bracket or an
// operator is content, and code is written as it is.
func (l *lineBuilder) text(seg string) {
	if l.pre {
		// Only a space of its own keeps code from running into a link's target.
		if l.after && seg != "" && !strings.HasPrefix(seg, " ") {
			l.b.WriteByte(' ')
		}
		l.b.WriteString(seg)
		l.after = false
		return
	}
	if l.b.Len() == 0 {
		seg = strings.TrimLeft(seg, " ")
	}
	if seg == "" || l.elements > 0 && onlySeparators(seg) {
		return
	}
	// Punctuation follows an element closely, except a target, where it
	// would read as part of the URL.
	if l.after && !strings.HasPrefix(seg, " ") && (l.target || !startsWithPunct(seg)) {
		l.b.WriteByte(' ')
	}
	l.b.WriteString(seg)
	l.after = false
}

// element adds an inline element's label.
func (l *lineBuilder) element(label string) {
	if l.b.Len() > 0 && !strings.HasSuffix(l.b.String(), " ") {
		l.b.WriteByte(' ')
	}
	l.b.WriteString(label)
	l.elements++
	l.after, l.target = true, strings.Contains(label, " -> ")
}

// take returns the line and starts a new one. A line of nothing but the
// marks pages put between links ("|", "»", "·") says nothing and is
// dropped, unless it is code; one of other signs (a rating's ★★★☆☆, a ✓,
// an emoji) is what a person reads there.
func (l *lineBuilder) take() (string, bool) {
	s := strings.TrimSpace(l.b.String())
	keep := s != "" && (l.elements > 0 || l.pre || !onlySeparators(s))
	if l.pre {
		s = strings.TrimRight(l.b.String(), " \t")
	}
	l.b.Reset()
	l.elements, l.after = 0, false
	return s, keep
}

// says reports whether line holds every word of name, in order: the
// words of its text and of its elements' names.
func says(line, name string) bool {
	words := strings.FieldsFunc(strings.ToLower(line), notWordRune)
	for _, w := range strings.FieldsFunc(strings.ToLower(name), notWordRune) {
		i := slices.Index(words, w)
		if i < 0 {
			return false
		}
		words = words[i+1:]
	}
	return true
}

func notWordRune(r rune) bool { return !isWordRune(r) }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// onlySeparators reports whether s holds nothing but spaces and the marks
// pages put between links and after them.
func onlySeparators(s string) bool {
	return strings.Trim(s, " |»«›‹·•/,.;:–—-") == ""
}

func startsWithPunct(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return strings.ContainsRune(".,;:!?)]}'\"", r)
}

// landmark reports whether role marks a region of the page a site may repeat.
func landmark(role string) bool {
	switch role {
	case "navigation", "banner", "contentinfo", "complementary", "search":
		return true
	}
	return false
}

// keepInOutline reports whether a role without a ref stays in the
// interactive outline: headings and landmarks say where the controls are.
func keepInOutline(role string) bool {
	switch role {
	case "heading", "navigation", "main", "banner", "contentinfo", "complementary", "search",
		"form", "region", "dialog", "alertdialog", "iframe":
		return true
	}
	return false
}

// label writes one element: role "name" eN states -> target.
func (w *treeWriter) label(n *Node) string {
	var b strings.Builder
	if n.Role == "heading" && n.Level >= 1 && n.Level <= 6 {
		b.WriteString("h" + strconv.Itoa(n.Level))
	} else {
		b.WriteString(n.Role)
	}
	if n.Name != "" {
		b.WriteString(" " + strconv.Quote(n.Name))
	}
	if n.Ref != 0 {
		fmt.Fprintf(&b, " e%d", n.Ref)
	}
	if n.Role == "heading" && (n.Level < 1 || n.Level > 6) && n.Level != 0 {
		fmt.Fprintf(&b, " level=%d", n.Level)
	}
	switch n.Checked {
	case "":
	case "true":
		b.WriteString(" checked")
	case "false":
		b.WriteString(" unchecked")
	case "mixed":
		b.WriteString(" mixed")
	default:
		b.WriteString(" " + n.Checked) // pressed=true
	}
	if n.Selected {
		b.WriteString(" selected")
	}
	if n.Current {
		b.WriteString(" current")
	}
	if n.Active {
		b.WriteString(" active")
	}
	b.WriteString(sorted(n.Sort))
	if n.Expanded != nil {
		if *n.Expanded {
			b.WriteString(" expanded")
		} else {
			b.WriteString(" collapsed")
		}
	}
	if n.Clickable {
		b.WriteString(" clickable")
		if KnownGesture(n.Gesture) {
			b.WriteString(" (" + n.Gesture + ")")
		}
	}
	if n.Draggable {
		b.WriteString(" draggable")
	}
	if n.Scrollable {
		b.WriteString(" scrollable")
	}
	if n.Disabled {
		b.WriteString(" disabled")
	}
	if n.Required {
		b.WriteString(" required")
	}
	if n.Invalid {
		b.WriteString(" invalid")
	}
	if n.Readonly {
		b.WriteString(" readonly")
	}
	if n.Modal {
		b.WriteString(" modal")
	}
	if n.Title != "" {
		b.WriteString(" title=" + strconv.Quote(n.Title))
	}
	switch {
	case n.Secret != "":
		b.WriteString(" " + n.Secret) // never the value
	case n.Value != "" && !w.f.NoValues:
		b.WriteString(" value=" + strconv.Quote(n.Value))
	}
	if len(n.Options) > 0 {
		b.WriteString(" options=" + w.options(n))
	}
	// A link to a place on the page itself says nothing its name does not:
	// following it does not leave the page; nor does a javascript: one,
	// which only runs the page's script; nor does one named by its URL.
	if n.Href != "" && !SamePage(w.f.Base, n.Href) && !isScriptURL(n.Href) && !w.outlined(n.Href) &&
		!namedByURL(n) && !w.saidAbove(n) && !w.repeated(n) {
		b.WriteString(" -> " + linkTarget(w.f, n.Href))
	}
	if n.Frame != nil {
		// A frame written in place (srcdoc, about:blank) comes from nowhere
		// worth naming.
		if !strings.HasPrefix(n.Frame.URL, "about:") {
			b.WriteString(" -> " + RelativeURL(w.f.Base, n.Frame.URL))
		}
		if n.Frame.Unreadable {
			b.WriteString(" (content not readable)")
		}
	}
	return b.String()
}

// options writes a closed select's options as one quoted list,
// "Small|Medium|Large", and how many more there are when not all are written.
func (w *treeWriter) options(n *Node) string {
	opts, more := n.Options, n.MoreOptions
	if !w.f.AllOptions && len(opts) > shownOptions {
		opts, more = opts[:shownOptions], more+len(opts)-shownOptions
	}
	s := strconv.Quote(strings.Join(opts, "|"))
	if more > 0 {
		s += fmt.Sprintf(" (+%d more)", more)
	}
	return s
}

// outlined reports whether href is a place in the page that the link
// leading the list item around it goes to: a table of contents nests a
// page's sections under the page ("math — Mathematical functions" ->
// math.html, then "ceil()", "floor()", ...), and writing "-> math.html#…"
// on each of hundreds of lines says what the outline does. An anchor short
// enough to be written (#abs, #/inbox) still is; a read of the link's ref
// writes every target whole.
func (w *treeWriter) outlined(href string) bool {
	if w.within == "" || w.f.FullLinks {
		return false
	}
	page, _, _ := strings.Cut(href, "#")
	return page == w.within && strings.HasSuffix(linkTarget(w.f, href), "#…")
}

// repeated reports whether a link of n's name to n's place was written
// before, with its target: documentation names a term each time it is used
// ("the try statement ... the try clause ... after try"), and the second
// "-> /reference/compound_stmts.html#try" says what the first did. A read of
// the link's ref writes it whole.
func (w *treeWriter) repeated(n *Node) bool {
	if w.f.FullLinks || n.Name == "" {
		return false
	}
	key := n.Name + "\x00" + n.Href
	if first, ok := w.linked[key]; ok {
		return first != n.Ref // a line written twice over (a heading's) is not a repeat
	}
	w.linked[key] = n.Ref
	return false
}

// namedByURL reports whether a link's name is the URL it goes to, as a
// link written out in prose is ("https://example.com/a"), or the address a
// mailto: or tel: link opens ("docs@python.org").
func namedByURL(n *Node) bool {
	if strings.TrimSuffix(n.Name, "/") == strings.TrimSuffix(n.Href, "/") {
		return true
	}
	scheme, addr, ok := strings.Cut(n.Href, ":")
	if !ok || (scheme != "mailto" && scheme != "tel") || strings.Contains(addr, "?") {
		return false // a mail's subject or body is more than its name says
	}
	if a, err := url.PathUnescape(addr); err == nil {
		addr = a
	}
	return addr == n.Name
}

// leadPage is the page the link that starts a list item goes to, when one
// does.
func leadPage(kids []Node) string {
	for i := range kids {
		k := &kids[i]
		if k.Role == "" && strings.TrimSpace(k.Text) == "" {
			continue
		}
		if k.Role != "link" || isScriptURL(k.Href) {
			return ""
		}
		page, _, _ := strings.Cut(k.Href, "#")
		return page
	}
	return ""
}

// numberedKind is a kind of link named by a mark and a number whose target
// holds that number: "gh-90927" -> https://github.com/python/cpython/issues/90927
// is of the kind {"gh-", "https://github.com/python/cpython/issues/N"}.
type numberedKind struct{ prefix, target string }

// kindOf is n's numbered kind; the zero kind when it is of none. The
// number follows a mark that sets it apart ("gh-", "Page ", "#"), not a
// name's own letters (BOM_UTF8, c_int16), and shows in the target as the
// link writes it: once, whole, and not in an anchor left out as "#…".
func kindOf(n *Node, f Options) numberedKind {
	if n.Role != "link" || n.Href == "" || SamePage(f.Base, n.Href) || isScriptURL(n.Href) || namedByURL(n) {
		return numberedKind{}
	}
	num := n.Name[strings.LastIndexFunc(n.Name, notDigit)+1:]
	prefix := n.Name[:len(n.Name)-len(num)]
	if num == "" {
		return numberedKind{}
	}
	if last, _ := utf8.DecodeLastRuneInString(prefix); prefix == "" || isWordRune(last) {
		return numberedKind{}
	}
	t := linkTarget(f, n.Href)
	i := strings.Index(t, num)
	if i < 0 || strings.Contains(t[i+len(num):], num) || isDigitAt(t, i-1) || isDigitAt(t, i+len(num)) {
		return numberedKind{}
	}
	return numberedKind{prefix, t[:i] + "N" + t[i+len(num):]}
}

// saidAbove reports whether n is of a numbered kind numberedLinks said
// above the tree.
func (w *treeWriter) saidAbove(n *Node) bool {
	return len(w.numbered) > 0 && n.Role == "link" && w.numbered[kindOf(n, w.f)]
}

func isDigitAt(s string, i int) bool { return i >= 0 && i < len(s) && !notDigit(rune(s[i])) }

func notDigit(r rune) bool { return r < '0' || r > '9' }

// numberedLinks finds the kinds of numbered links a page has at least
// minNumbered of, each to its own target, and says them in one line:
// "links "gh-N" go to https://github.com/python/cpython/issues/N". A
// changelog's hundreds of issue links then cost their names and refs, not
// an address each that says again what the line did; each is still
// followed by its ref, and a read of its ref writes its target whole.
func numberedLinks(nodes []Node, f Options) (map[numberedKind]bool, string) {
	count := map[numberedKind]int{}
	seen := map[string]bool{}
	var order []numberedKind
	var walk func([]Node)
	walk = func(ns []Node) {
		for i := range ns {
			if k := kindOf(&ns[i], f); k != (numberedKind{}) && !seen[ns[i].Href] {
				seen[ns[i].Href] = true
				if count[k] == 0 {
					order = append(order, k)
				}
				count[k]++
			}
			walk(ns[i].Kids)
		}
	}
	walk(nodes)
	kinds := map[numberedKind]bool{}
	var said []string
	for _, k := range order {
		if count[k] >= minNumbered {
			kinds[k] = true
			said = append(said, fmt.Sprintf("%s go to %s", strconv.Quote(k.prefix+"N"), k.target))
		}
	}
	if len(said) == 0 {
		return nil, ""
	}
	return kinds, "links " + strings.Join(said, ", ")
}

// minNumbered is how many links of a numbered kind numberedLinks says at least.
const minNumbered = 3

// linkTarget writes a link's target relative to the page. An anchor into
// another page (documentation sites name them for the whole qualified
// name: #importlib.abc.Loader.exec_module) is written "#…": the page says
// where the link goes, the ref follows it exactly, and a read of the
// link's ref writes it whole. A fragment that routes an app (#/inbox,
// #!/a, #tab=2) or is short is always written.
func linkTarget(f Options, href string) string {
	t := RelativeURL(f.Base, href)
	if f.FullLinks {
		return t
	}
	i := strings.IndexByte(t, '#')
	if i < 0 || len(t)-i-1 <= maxAnchor || strings.HasPrefix(t, "#") {
		return t
	}
	if strings.IndexFunc(t[i+1:], func(r rune) bool { return !isAnchorRune(r) }) >= 0 {
		return t
	}
	return t[:i] + "#…"
}

// maxAnchor is the longest anchor written whole: "#…" costs about what a
// word does.
const maxAnchor = 8

func isAnchorRune(r rune) bool {
	return r < utf8.RuneSelf && (isWordRune(r) || strings.ContainsRune("._-:~", r))
}

func indent(depth int) string { return strings.Repeat(" ", depth) }

var refPattern = regexp.MustCompile(`\be\d+\b`)

// hasRef reports whether a written line holds a ref.
func hasRef(line string) bool { return refPattern.MatchString(line) }

// isScriptURL reports whether href is a javascript: URL.
func isScriptURL(href string) bool {
	return len(href) >= 11 && strings.EqualFold(href[:11], "javascript:")
}
