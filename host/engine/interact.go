package engine

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/protocol"
)

// interactActions are the actions of interact and of act's steps; the
// extension's element.act takes the same list (protocol/testdata/
// interact-actions.json, read by both test suites).
func interactActions() []string {
	return []string{
		"click", "double_click", "right_click", "drag", "hover", "focus", "type", "fill", "clear", "select",
		"check", "uncheck", "press", "scroll", "scroll_into_view", "accept_dialog", "dismiss_dialog",
	}
}

// step is one action on one element: interact's arguments, and each of act's steps.
type step struct {
	Ref       string    `json:"ref,omitempty" jsonschema:"e.g. e12"`
	Query     string    `json:"query,omitempty" jsonschema:"or find's best match"`
	Action    string    `json:"action"`
	Text      *string   `json:"text,omitempty" jsonschema:"for type, fill, a prompt dialog"`
	Key       string    `json:"key,omitempty" jsonschema:"for press, e.g. Enter, ctrl+a"`
	Values    []string  `json:"values,omitempty" jsonschema:"for select"`
	Direction string    `json:"direction,omitempty"`
	Amount    int       `json:"amount,omitempty"`
	Target    string    `json:"target,omitempty" jsonschema:"drag: ref or query to drop on"`
	To        []float64 `json:"to,omitempty" jsonschema:"or [x, y], not a ref"`
}

// validate refuses steps that cannot be right, before anything runs.
func (s step) validate() error {
	bad := func(format string, args ...any) *protocol.Error {
		return protocol.Errorf(protocol.CodeBadRequest, format, args...)
	}
	// A key, or text typed, goes to whatever has focus (an editor a double
	// click opened in place); a scroll without an element scrolls the page.
	noTarget := s.Action == "accept_dialog" || s.Action == "dismiss_dialog" || s.Action == "press" || s.Action == "scroll" ||
		s.Action == "type"
	switch {
	case s.Ref != "" && s.Query != "":
		return bad("pass ref or query, not both")
	case s.Ref == "" && s.Query == "" && !noTarget:
		return bad("%s needs ref or query", s.Action).WithHint("call read_page or find for refs")
	case (s.Action == "type" || s.Action == "fill") && s.Text == nil:
		return bad("%s needs text", s.Action)
	case s.Action == "press" && s.Key == "":
		return bad(`press needs key, e.g. "Enter" or "ctrl+a"`)
	case s.Action == "select" && len(s.Values) == 0 && s.Text == nil && s.Query == "":
		return bad(`select needs values, e.g. ["Norway"]`).WithHint("or a query that names the option")
	case s.Action == "drag" && (s.Target == "") == (s.To == nil):
		return bad("drag needs target (the ref or query to drop on) or to ([x, y]), one of them")
	case s.To != nil && len(s.To) != 2:
		return bad("to is [x, y]")
	case s.Target != "":
		// A target that is not a ref is a query: a drop zone is often text
		// no script listens on, so it has no ref to name.
		if s.Ref != "" {
			if _, err := pagetree.ParseRef(s.Ref); err != nil {
				return err
			}
		}
	case s.Ref != "":
		if _, err := pagetree.ParseRef(s.Ref); err != nil {
			return err
		}
	}
	return nil
}

type interactIn struct {
	step
	tabArgs
	Snapshot string `json:"snapshot,omitempty" jsonschema:"after: the tree's diff, or full"`
}

func (in interactIn) target() target { return in.sentTarget() }

func (in *interactIn) validate() error { return in.step.validate() }

func shapeStep(s *jsonschema.Schema) {
	enum(s, "action", interactActions()...)
	enum(s, "direction", "up", "down", "left", "right")
	positive(s, "amount")
}

func interactTool() Tool {
	return defineTab("interact", GroupCore,
		"Act on one element with trusted input; the result says what changed.",
		interact,
		func(s *jsonschema.Schema) {
			shapeStep(s)
			enum(s, "snapshot", "none", "diff", "full")
		})
}

func interact(ctx context.Context, c *call, tab int, in interactIn) (*protocol.ToolResult, error) {
	out, err := c.runStep(ctx, tab, in.step, true)
	if err != nil {
		return nil, err
	}
	return c.actionResult(ctx, tab, &out, out.Error != nil, in.Snapshot)
}

// acted is what interact answers: the extension's account of the action,
// and what the engine adds to it.
type acted struct {
	Error *protocol.Error `json:"error,omitempty"` // nothing was done: what covers the element
	browser.Acted
	Change      *change      `json:"change,omitempty"`
	NextActions []nextAction `json:"nextActions,omitempty"`
	Found       string       `json:"found,omitempty"`    // what a query matched
	Snapshot    string       `json:"snapshot,omitempty"` // the tree after the action, or what changed in it
}

// runStep finds a step's element and runs the step in the extension. A step
// whose every strategy failed comes back as a result with hitl, not an
// error: the agent decides whether to hand the tab to the human. The last
// step of a call brings the site's secrets with its answer (elementAct).
func (c *call) runStep(ctx context.Context, tab int, s step, last bool) (acted, error) {
	a := browser.Act{TabID: tab, Ref: s.Ref, Action: s.Action, Text: s.Text, Key: s.Key,
		Values: s.Values, Direction: s.Direction, Amount: s.Amount, Target: s.Target, To: s.To}
	var found, dropOn *browser.Candidate
	_, notRef := pagetree.ParseRef(s.Target)
	dropQuery := s.Target != "" && notRef != nil
	done, err := refinding(s.Query != "" || dropQuery, func() (browser.Acted, error) {
		if s.Query != "" {
			cand, err := c.findOne(ctx, tab, s.Query, s.Action)
			if err != nil {
				return browser.Acted{}, err
			}
			found = &cand
			a.Ref = fmt.Sprintf("e%d", found.Ref)
			if err := pickOption(&a, cand); err != nil {
				return browser.Acted{}, err
			}
		}
		if dropQuery {
			on, err := c.findOne(ctx, tab, s.Target, "drop")
			if err != nil {
				return browser.Acted{}, err
			}
			dropOn = &on
			a.Target = fmt.Sprintf("e%d", on.Ref)
		}
		return c.elementAct(ctx, a, last)
	})
	if err != nil {
		return acted{}, c.drawnAnew(ctx, tab, s.Ref, err)
	}
	if s.Text != nil {
		c.learnSecret(done, *s.Text)
	}
	// Where the tab is going and where a frame went: the profile's masking
	// knows the secrets of the address the tab is at, not of these.
	done.Navigating, done.FrameNavigated = c.engine.red.URL(done.Navigating), c.engine.red.URL(done.FrameNavigated)
	c.followOpened(done.Opened)
	if done.Closed && done.Opener != 0 {
		c.setCurrentTab(done.Opener) // a sign-in popup done: back where it came from
	}
	out := acted{Acted: done}
	out.Gesture = "" // the change says it
	switch {
	case done.Blocked != nil:
		out.Error = blockedError(done)
	case done.NavigationBlocked != nil:
		out.Error = done.NavigationBlocked.Error()
	case done.Unpicked != "":
		out.Error = unpickedError(done)
	case done.Delivered != nil && !*done.Delivered && done.HITL == nil && done.Changes != "":
		// Nothing was sent, on purpose (a pane at its end, which would pass
		// a wheel on to the page): the page did not change.
		out.Change, out.Changes = &change{Type: "none", Summary: done.Changes}, ""
	case done.Delivered != nil && *done.Delivered:
		ch, next := changeOf(tab, actedEffects(done))
		out.Change, out.NextActions = &ch, next
		if saidIn(ch.Summary, done.Changes) {
			out.Changes = ""
		}
		if out.Navigated != nil && !*out.Navigated {
			out.Navigated = nil // the change's type says what happened
		}
	}
	var matched []string
	if found != nil {
		matched = append(matched, fmt.Sprintf("%q matched %s (%s)", s.Query, a.Ref, found.Why))
	}
	if dropOn != nil {
		matched = append(matched, fmt.Sprintf("%q matched e%d (%s)", s.Target, dropOn.Ref, dropOn.Why))
	}
	out.Found = strings.Join(matched, "; ")
	return out, nil
}

// elementAct runs a on its element. The last action of a call brings the
// site's secrets with its answer, read after it (browser.WithSecrets), and
// they are kept to mask the call's result with.
func (c *call) elementAct(ctx context.Context, a browser.Act, last bool) (browser.Acted, error) {
	var done browser.Acted
	var err error
	if !last {
		done, err = browser.ElementAct(a).Run(ctx, c)
	} else if done, err = browser.WithSecrets(browser.ElementAct(a)).Run(ctx, c); err == nil {
		c.keepSecrets(a.TabID, done)
	}
	var page string
	if done.URL != nil {
		page = *done.URL
	}
	done.RequestErrors, done.FailedRequests = c.requestErrors(page, done.FailedRequests), nil
	return done, err
}

// requestErrors writes the requests an input started on the page at
// pageURL that failed as the agent reads them, one line each, their URLs
// masked: "POST /api/save: 500 Internal Server Error".
func (c *call) requestErrors(pageURL string, failed []browser.FailedRequest) []string {
	base, _ := url.Parse(pageURL)
	var lines []string
	for _, f := range failed {
		line := f.Method + " " + requestPath(base, c.engine.red.URL(f.URL)) + ":"
		if f.Status != 0 {
			line += " " + strconv.Itoa(f.Status)
		}
		if f.Error != "" {
			line += " " + c.engine.red.Text(f.Error)
		}
		lines = append(lines, line)
	}
	return lines
}

// requestPath writes a request's URL as its path and query when it went to
// the page's own origin, as the page's script wrote it ("/api/save"), and
// whole otherwise.
func requestPath(page *url.URL, target string) string {
	u, err := url.Parse(target)
	if err != nil || page == nil || u.Scheme != page.Scheme || u.Host != page.Host || u.User != nil {
		return target
	}
	u.Scheme, u.Host = "", ""
	return u.String()
}

// drawnAnew adds to a stale_ref for an element the page removed the ref of
// the one it drew in its place, when exactly one element on the page now
// has the role and name the tab's last read gave the gone one: an app that
// renders a part anew swaps its elements for look-alikes, and the agent
// need not read the whole page again to go on. The look-alike is only
// said, never acted on: it is another element, which may do another thing.
func (c *call) drawnAnew(ctx context.Context, tab int, ref string, err error) error {
	e := protocol.AsError(err)
	if ref == "" || e.Code != protocol.CodeStaleRef || !strings.Contains(e.Message, "is gone") {
		return err // not one of the page's elements gone: the tab left the page
	}
	role, name, ok := c.engine.snaps.Written(tab, ref)
	if !ok || strings.TrimSpace(name) == "" {
		return err
	}
	found, ferr := browser.ElementFind(tab, name, alikeFrom).Run(ctx, c)
	if ferr != nil || found.Total > len(found.Candidates) {
		return err
	}
	var alike []browser.Candidate
	for _, cand := range found.Candidates {
		if cand.Role == role && cand.Name == name {
			alike = append(alike, cand)
		}
	}
	if len(alike) != 1 {
		return err
	}
	return e.WithHint(fmt.Sprintf("the page drew %s %q anew: it is e%d now; act on e%d if it is the one, or call read_page",
		role, name, alike[0].Ref, alike[0].Ref))
}

// alikeFrom is how many of find's candidates drawnAnew weighs: all of them
// on most pages, and on one with more, it says nothing.
const alikeFrom = 50

// unpickedError says that select found no option of the name asked for in
// the list the page draws, and what the list offers. What opened the list
// or typed into it was delivered, once, and stays done.
func unpickedError(a browser.Acted) *protocol.Error {
	e := protocol.Errorf(protocol.CodeNotFound, "%s: nothing was picked", a.Unpicked)
	if len(a.Offers) > 0 {
		return e.WithHint(fmt.Sprintf("select one of its options by name, or click its ref (%s is %s)", a.Offers[0].Ref, a.Offers[0].Name))
	}
	return e.WithHint("read_page shows what its list offers now; select takes an option's whole name")
}

// findOne is the element query names for action: the best of find's
// candidates once one shows, or why there is none.
func (c *call) findOne(ctx context.Context, tab int, query, action string) (browser.Candidate, error) {
	r, err := c.findAppearing(ctx, tab, query)
	if err != nil {
		return browser.Candidate{}, err
	}
	if len(r.Candidates) == 0 && r.Hidden != nil {
		return browser.Candidate{}, protocol.Errorf(protocol.CodeNotFound, "nothing a person sees on the page of tab %d matches %q (waited %s): %s",
			tab, query, appearWait, hiddenWhere(r.Hidden)).WithHint(hiddenHint(r.Hidden))
	}
	if len(r.Candidates) == 0 && r.Elsewhere != nil {
		return browser.Candidate{}, protocol.Errorf(protocol.CodeNotFound, "nothing on the page of tab %d matches %q (waited %s): %s",
			tab, query, appearWait, elsewhereWhat(r.Elsewhere)).WithHint(elsewhereHint)
	}
	if len(r.Candidates) == 0 {
		if fewer := c.fewerWords(ctx, tab, query); fewer != "" {
			return browser.Candidate{}, protocol.Errorf(protocol.CodeNotFound, "nothing on the page of tab %d matches %q (waited %s); %s",
				tab, query, appearWait, fewer).WithHint("nothing was done: act on the ref of the one meant, or call read_page")
		}
		return browser.Candidate{}, protocol.Errorf(protocol.CodeNotFound, "nothing on the page of tab %d matches %q (waited %s)", tab, query, appearWait).
			WithHint("call find or read_page for refs, or tabs_context if it is another tab")
	}
	return pick(tab, query, action, r.Candidates)
}

// pickOption makes a step whose query named an option of a closed select
// pick it: a person opens the list and clicks the option, but the list is
// the browser's own, out of reach of input to the page. A select by query
// takes its option from the query too.
func pickOption(a *browser.Act, c browser.Candidate) error {
	noValues := len(a.Values) == 0 && a.Text == nil
	switch {
	case c.Option != "" && (a.Action == "click" || a.Action == "select" && noValues):
		a.Action, a.Values = "select", []string{c.Option}
	case a.Action == "select" && noValues:
		return protocol.Errorf(protocol.CodeBadRequest, `select needs values, e.g. ["Norway"]: the query named %s, not one of its options`, describeCandidate(c)).
			WithHint("read_page lists its options on its line")
	}
	return nil
}

// How long a step's query waits for something on the page to match it, and
// how often it looks: as long as the extension waits for a matched element
// to become actionable. A page that keeps changing under a query is looked
// at maxRefinds times at most.
const (
	appearWait = 5 * time.Second
	appearPoll = 100 * time.Millisecond
	maxRefinds = 3
)

// refinding runs act, an element's lookup and the action on it, again when
// the action says stale_ref and the element was looked up (by query or
// label), maxRefinds times at most. stale_ref means the page changed between
// the lookup and the action and nothing reached the page (the extension
// says conflict when it may have); an element the agent named by ref is the
// agent's, never another.
func refinding(lookedUp bool, act func() (browser.Acted, error)) (browser.Acted, error) {
	for tries := 1; ; tries++ {
		done, err := act()
		if err == nil || !lookedUp || protocol.AsError(err).Code != protocol.CodeStaleRef {
			return done, err
		}
		if tries == maxRefinds {
			// Each ref was gone before it could be used: the agent's next
			// read would hold one no longer than these did.
			return done, protocol.Errorf(protocol.CodeStaleRef, "the page drew the element anew %d times as the action waited for it, and nothing was sent (%s)",
				tries, protocol.AsError(err).Message).WithHint("wait_for the page to settle, or for what enables the element, then try again")
		}
	}
}

// findAppearing asks for query's candidates until one shows or appearWait
// has passed: a button a script adds a moment after the page loads is acted
// on when it comes, as a disabled one is once it is enabled.
func (c *call) findAppearing(ctx context.Context, tab int, query string) (browser.Found, error) {
	return appearing(ctx, c, func() (browser.Found, bool, error) {
		r, err := browser.ElementFind(tab, query, pickFrom).Run(ctx, c)
		return r, err == nil && len(r.Candidates) > 0, err
	})
}

// appearing runs look until it finds what it looks for, fails otherwise
// than not_found, or appearWait has passed; it answers look's last answer.
func appearing[T any](ctx context.Context, c *call, look func() (T, bool, error)) (T, error) {
	deadline := c.engine.now().Add(appearWait)
	for {
		r, found, err := look()
		missing := !found && (err == nil || protocol.AsError(err).Code == protocol.CodeNotFound)
		if !missing || !c.engine.now().Before(deadline) {
			return r, err
		}
		t := time.NewTimer(appearPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return r, ctx.Err()
		case <-t.C:
		}
	}
}

// followOpened makes the last tab an action opened the current one, as
// Chrome brings it to the front for the person: a popup's sign-in form is
// where the agent goes on. The result names it; a popup that closes itself
// leaves the agent on the tab Chrome shows.
func (c *call) followOpened(tabs []int) {
	if n := len(tabs); n > 0 {
		c.setCurrentTab(tabs[n-1])
	}
}

// learnSecret makes the engine mask text from now on when the extension
// says it went into a secret field (a password, a one-time code): a page
// that echoes it, an agent that repeats it in a memo, a log line.
func (c *call) learnSecret(done browser.Acted, text string) {
	if done.ValueSet {
		c.engine.red.Add(text)
	}
}

func (a *acted) setSnapshot(s string) { a.Snapshot = s }

// actionResult writes what an action did, with the tree after it when
// asked. A failed action is an error result that still says everything it
// tried.
func (c *call) actionResult(ctx context.Context, tab int, out interface{ setSnapshot(string) }, failed bool, want string) (*protocol.ToolResult, error) {
	if !failed && (want == "diff" || want == "full") {
		before := c.engine.snaps.Last(tab)
		snap, err := c.readTree(ctx, tab, treeRead{})
		if err != nil {
			return nil, err
		}
		text := snap.Full()
		if want == "diff" {
			text = pagetree.Describe(before, snap)
		}
		out.setSnapshot(text)
	}
	r, err := jsonResult(out)
	if err != nil {
		return nil, err
	}
	r.IsError = failed
	return r, nil
}
