// Package feedback keeps the questions agents put to the person
// (browser_request_feedback): which tab each one holds while it waits, the
// places it may be answered in — the page's overlay or the side panel,
// through the extension, and the agent's own MCP client, through an ask —
// and the rule between them: the first answer wins and the others are
// withdrawn at once.
//
// A question outlives its browser link: when the extension's service worker
// stops, the request waits in the extension's chrome.storage.session, and
// the keeper asks again, for the same request, once a browser is back.
package feedback

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/protocol"
)

// The modes of a question.
const (
	ModeConfirm = "confirm"
	ModeChoose  = "choose"
	ModePoint   = "point"
	ModeElement = "element"
	ModeRegion  = "region"
	ModeComment = "comment"
)

// Modes lists every mode, in the order the tool's schema shows them.
func Modes() []string {
	return []string{ModeConfirm, ModeChoose, ModePoint, ModeElement, ModeRegion, ModeComment}
}

// Where the person answered.
const (
	ViaOverlay = "overlay" // the page's overlay
	ViaPanel   = "panel"   // the side panel
	ViaClient  = "client"  // the agent's MCP client
)

// relinkPoll is how often a question whose browser has gone looks for one
// again, besides being told when a browser connects: the registry may still
// hand out the link that went away for a moment.
const relinkPoll = 2 * time.Second

// Request is one question for the person.
type Request struct {
	TabID   int
	Mode    string
	Prompt  string
	Options []browser.FeedbackOption // choose only
	// Wait is the person's countdown; when it ends the answer is timedOut.
	Wait time.Duration
}

// Result is what the agent gets back: whether the person answered, and if
// not whether the time ran out or they dismissed the question; where they
// answered; and their marks, with refs in read_page's ref space.
type Result struct {
	Responded   bool         `json:"responded"`
	TimedOut    bool         `json:"timedOut"`
	Dismissed   bool         `json:"dismissed"`
	Via         string       `json:"via,omitempty"`
	Annotations []Annotation `json:"annotations"`
}

// Annotation is one of the person's marks as the agent reads it; which
// fields it has depends on Kind (confirm, choice, point, element, region,
// comment). Refs are written as read_page writes them (e12), so interact
// takes them as they are.
type Annotation struct {
	Kind     string        `json:"kind"`
	Value    any           `json:"value,omitempty"`
	Label    string        `json:"label,omitempty"`
	X        *float64      `json:"x,omitempty"`
	Y        *float64      `json:"y,omitempty"`
	Ref      string        `json:"ref,omitempty"`
	Role     string        `json:"role,omitempty"`
	Name     string        `json:"name,omitempty"`
	Selector string        `json:"selector,omitempty"`
	Text     string        `json:"text,omitempty"`
	Rect     *browser.Rect `json:"rect,omitempty"`
	Refs     []string      `json:"refs,omitempty"`
}

// Asker puts a question to the person at the agent's MCP client;
// *bridge.Call is one.
type Asker interface {
	CanAsk() bool
	Ask(ctx context.Context, q protocol.Ask) (protocol.Answer, error)
}

// Shown is a waiting question as the side panel's state lists it: the
// extension withdraws a question it keeps that the state no longer lists.
type Shown struct {
	ID       string    `json:"id"`
	TabID    int       `json:"tabId"`
	Mode     string    `json:"mode"`
	Deadline time.Time `json:"deadline"`
}

// Options configure a Keeper; every field may be left out.
type Options struct {
	Log *slog.Logger
	Now func() time.Time
	// Redactor masks secrets in what the person wrote (a comment's note)
	// before it reaches a result or a log.
	Redactor *redact.Redactor
	// Changed, if set, is told whenever a question starts or ends, so that
	// the side panel shows it.
	Changed func()
}

// Keeper keeps the questions waiting for the person. It is safe for
// concurrent use.
type Keeper struct {
	log     *slog.Logger
	now     func() time.Time
	red     *redact.Redactor
	changed func()

	mu     sync.Mutex // guards the fields below
	byTab  map[int]*waiting
	linked chan struct{} // closed, and replaced, when a browser connects
}

// waiting is a question in flight.
type waiting struct {
	id       string
	req      Request
	deadline time.Time
}

// New returns a keeper with no question waiting.
func New(opts Options) *Keeper {
	k := &Keeper{log: opts.Log, now: opts.Now, red: opts.Redactor, changed: opts.Changed,
		byTab: map[int]*waiting{}, linked: make(chan struct{})}
	if k.log == nil {
		k.log = slog.New(slog.DiscardHandler)
	}
	if k.now == nil {
		k.now = time.Now
	}
	if k.red == nil {
		k.red = new(redact.Redactor)
	}
	if k.changed == nil {
		k.changed = func() {}
	}
	return k
}

// Holding returns the id of the question waiting on tab, or "".
func (k *Keeper) Holding(tab int) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if w := k.byTab[tab]; w != nil {
		return w.id
	}
	return ""
}

// Shown lists the questions waiting, soonest deadline first.
func (k *Keeper) Shown() []Shown {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]Shown, 0, len(k.byTab))
	for _, w := range k.byTab {
		out = append(out, Shown{ID: w.id, TabID: w.req.TabID, Mode: w.req.Mode, Deadline: w.deadline.UTC()})
	}
	slices.SortFunc(out, func(a, b Shown) int { return a.Deadline.Compare(b.Deadline) })
	return out
}

// BrowserConnected tells the questions whose browser went away that one is
// back. Wire it to the registry's OnConnect.
func (k *Keeper) BrowserConnected() {
	k.mu.Lock()
	defer k.mu.Unlock()
	close(k.linked)
	k.linked = make(chan struct{})
}

func (k *Keeper) linkSignal() <-chan struct{} {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.linked
}

// outcome is what one place made of a question.
type outcome struct {
	res Result
	err error
}

// Ask puts req to the person and waits until one place answers it: the
// browser, through d (the overlay in the tab, or the side panel), and, for
// confirm and choose, the agent's MCP client through a when it can ask.
// The first answer wins; the other places are withdrawn at once (the
// command is cancelled, so the extension removes the overlay and the panel
// entry; the ask is withdrawn, so the client takes its prompt away). The
// countdown's end is a Result with TimedOut, the person's Skip one with
// Dismissed. When ctx ends first (the agent cancelled or went away, Stop),
// every place is withdrawn and Ask returns a cancelled or timeout error.
// While the question waits, [Keeper.Holding] names it for its tab.
func (k *Keeper) Ask(ctx context.Context, d browser.Doer, a Asker, req Request) (Result, error) {
	w, err := k.hold(req)
	if err != nil {
		return Result{}, err
	}
	defer k.release(w)
	k.log.Info("feedback asked", "request", w.id, "tab", req.TabID, "mode", req.Mode)

	places, withdraw := context.WithCancel(ctx)
	defer withdraw()
	outcomes := make(chan outcome, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		outcomes <- k.inBrowser(places, d, w)
	}()
	if a != nil && a.CanAsk() && (req.Mode == ModeConfirm || req.Mode == ModeChoose) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if o, ok := k.inClient(places, a, w); ok {
				outcomes <- o
			}
		}()
	}
	// A backstop for a browser that went away and never came back: the
	// question still ends when its countdown does.
	backstop := time.NewTimer(w.deadline.Sub(k.now()) + browser.FeedbackGrace)
	defer backstop.Stop()

	var o outcome
	select {
	case o = <-outcomes:
	case <-backstop.C:
		o = outcome{res: timedOut()}
	case <-ctx.Done():
	}
	withdraw()
	wg.Wait()
	if ctx.Err() != nil {
		return Result{}, contextError(ctx)
	}
	if o.err != nil {
		return Result{}, o.err
	}
	k.log.Info("feedback answered", "request", w.id, "responded", o.res.Responded, "timed_out", o.res.TimedOut,
		"dismissed", o.res.Dismissed, "via", o.res.Via)
	return o.res, nil
}

// hold registers a question on its tab; a tab already asked is a conflict.
func (k *Keeper) hold(req Request) (*waiting, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if w := k.byTab[req.TabID]; w != nil {
		return nil, protocol.Errorf(protocol.CodeConflict, "tab %d already waits for the person's answer (request %s)", req.TabID, w.id).
			WithHint("wait for that browser_request_feedback call to return")
	}
	w := &waiting{id: newID(), req: req, deadline: k.now().Add(req.Wait)}
	k.byTab[req.TabID] = w
	defer k.changed()
	return w, nil
}

func (k *Keeper) release(w *waiting) {
	k.mu.Lock()
	if k.byTab[w.req.TabID] == w {
		delete(k.byTab, w.req.TabID)
	}
	k.mu.Unlock()
	k.changed()
}

// inBrowser asks in the browser and waits for its answer. When the browser
// link drops (its service worker stopped), the request lives on in the
// extension, so inBrowser waits for a browser to connect and asks again for
// the same request, which then attaches to it or returns the answer the
// extension kept; until the countdown ends.
func (k *Keeper) inBrowser(ctx context.Context, d browser.Doer, w *waiting) outcome {
	for {
		left := w.deadline.Sub(k.now())
		if left <= 0 {
			return outcome{res: timedOut()}
		}
		linked := k.linkSignal() // before the command: a browser that connects meanwhile counts
		fb, err := browser.FeedbackRequest(browser.FeedbackAsk{
			TabID: w.req.TabID, RequestID: w.id, Mode: w.req.Mode, Prompt: w.req.Prompt, Options: w.req.Options,
			TimeoutMs: max(left.Milliseconds(), 1),
		}).Run(ctx, d)
		if err == nil {
			return outcome{res: k.result(fb)}
		}
		if ctx.Err() != nil || !errors.Is(err, protocol.ErrBrowserNotConnected) {
			return outcome{err: err}
		}
		k.log.Info("feedback: the browser went away; waiting for it", "request", w.id)
		poll := time.NewTimer(min(relinkPoll, left))
		select {
		case <-linked:
		case <-poll.C:
		case <-ctx.Done():
		}
		poll.Stop()
		if ctx.Err() != nil {
			return outcome{err: ctx.Err()}
		}
	}
}

// inClient asks at the agent's MCP client. A prompt the person closed, or
// one the client could not show, is no answer: ok is false, and the
// browser's places stay open.
func (k *Keeper) inClient(ctx context.Context, a Asker, w *waiting) (outcome, bool) {
	q := protocol.Ask{Message: w.req.Prompt + "\n\n(OpenChrome asks this in the browser too, in tab " +
		strconv.Itoa(w.req.TabID) + "; the first answer counts.)"}
	for _, o := range w.req.Options {
		q.Choices = append(q.Choices, protocol.Choice{Value: o.Value, Label: o.Label})
	}
	ans, err := a.Ask(ctx, q)
	if err != nil {
		return outcome{}, false
	}
	switch ans.Action {
	case protocol.AnswerDecline:
		return outcome{res: Result{Dismissed: true, Via: ViaClient, Annotations: []Annotation{}}}, true
	case protocol.AnswerAccept:
		if w.req.Mode == ModeConfirm {
			return outcome{res: Result{Responded: true, Via: ViaClient,
				Annotations: []Annotation{{Kind: "confirm", Value: true}}}}, true
		}
		for _, o := range w.req.Options {
			if o.Value == ans.Value {
				return outcome{res: Result{Responded: true, Via: ViaClient,
					Annotations: []Annotation{{Kind: "choice", Value: o.Value, Label: o.Label}}}}, true
			}
		}
	}
	return outcome{}, false
}

// result turns the extension's answer into the agent's: refs as read_page
// writes them, and a comment's note through the redaction layer, since the
// person may have pasted anything into it.
func (k *Keeper) result(fb browser.Feedback) Result {
	r := Result{Responded: fb.Responded, TimedOut: fb.TimedOut, Dismissed: fb.Dismissed, Via: fb.Via,
		Annotations: make([]Annotation, 0, len(fb.Annotations))}
	for _, a := range fb.Annotations {
		out := Annotation{Kind: a.Kind, Value: a.Value, Label: a.Label, X: a.X, Y: a.Y, Ref: ref(a.Ref),
			Role: a.Role, Name: a.Name, Selector: a.Selector, Text: a.Text, Rect: a.Rect}
		if a.Kind == "comment" {
			out.Text = k.red.Text(a.Text)
		}
		for _, n := range a.Refs {
			out.Refs = append(out.Refs, ref(n))
		}
		r.Annotations = append(r.Annotations, out)
	}
	return r
}

func ref(n int) string {
	if n <= 0 {
		return ""
	}
	return "e" + strconv.Itoa(n)
}

func timedOut() Result { return Result{TimedOut: true, Annotations: []Annotation{}} }

// contextError is the error of a question whose call ended first.
func contextError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return protocol.Errorf(protocol.CodeTimeout, "the call ended before the person answered").
			WithHint("pass a smaller timeoutMs, so that the person's countdown ends within the call")
	}
	return protocol.Errorf(protocol.CodeCancelled, "the question was withdrawn: the call was cancelled").
		WithCause(fmt.Errorf("feedback: %w", context.Cause(ctx)))
}

// newID returns 16 hex digits naming a question.
func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
