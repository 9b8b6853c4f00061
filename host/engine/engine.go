package engine

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/audit"
	"github.com/openchrome/openchrome/host/feedback"
	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Options configure an Engine.
type Options struct {
	// Browsers are the connected browsers; nil means no daemon (the
	// front-end's local engine), and browser tools say so.
	Browsers *bridge.Registry
	Logger   *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// HTTP fetches what tools read outside a tab (sitemaps); nil means
	// http.DefaultClient.
	HTTP *http.Client
	// Home is where sessions, recordings and evidence are kept.
	Home ledger.Home
	// Tasks is the ledger of background tasks; nil keeps none.
	Tasks *ledger.Store
	// Handoffs is the ledger of human handoffs; nil keeps none.
	Handoffs *ledger.Store
	// Audit is the log of every call (~/.openchrome/logs/audit.jsonl); its
	// recent entries are the side panel's activity at start. nil keeps none.
	Audit *audit.Log
	// Redactor masks secrets in everything the engine writes or returns,
	// including values typed into password fields, which it adds. Share it
	// with the logger's redact.NewHandler; nil means a private one.
	Redactor *redact.Redactor
	// Hooks break things on purpose, for tests of what survives.
	Hooks Hooks
	// BrowserWait bounds how long a background task waits for a browser
	// that went away; 0 means DefaultBrowserWait.
	BrowserWait time.Duration
	// Extension is the build of the extension `openchrome install` wrote
	// ([extension.Version]); a browser that runs another build is told to
	// reload it. Empty checks only the release.
	Extension string
}

// Hooks are fault injections for tests; the zero value injects nothing. The
// daemon reads them from OPENCHROME_TEST_HOOKS (see cli), never in normal use.
type Hooks struct {
	// FailOnPage makes a crawl fail on its Nth page: an error, or a panic
	// when Panic is set.
	FailOnPage int
	Panic      bool
}

// Engine runs tool calls: every call passes through [Engine.Call], every
// tool on a tab through one gate ([call.gate]). It implements
// [bridge.Handler].
type Engine struct {
	browsers  *bridge.Registry
	log       *slog.Logger
	now       func() time.Time
	http      *http.Client
	started   time.Time
	tools     map[string]Tool
	snaps     pagetree.Store
	hooks     Hooks
	wait      time.Duration // a background task's patience with a missing browser
	extension string        // the installed extension build; empty: unknown
	home      ledger.Home
	tasks     *task.Runner    // nil when Options.Tasks is
	envelopes *task.Envelopes // nil when Options.Tasks is
	handoffs  *handoff.Keeper // nil when Options.Handoffs is
	questions *feedback.Keeper
	red       *redact.Redactor
	state     stateKeeper
	audit     *audit.Log
	files     ledger.Files // every file a tool writes: text redacted
	config    *configCache // the person's config.json
	inflight  inflight

	// ctx is the engine's life: the work a person's action starts runs
	// under it, and Close ends it and waits for wg.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex // guards the fields below
	agents map[string]*agentState
	closed bool // no more owned goroutines start
}

var _ bridge.Handler = (*Engine)(nil)

// agentState is what the engine remembers between one agent's calls.
type agentState struct {
	mu         sync.Mutex // guards currentTab
	currentTab int
}

// New returns an engine serving the whole catalog. Call Close when done.
func New(opts Options) *Engine {
	e := &Engine{
		browsers:  opts.Browsers,
		log:       opts.Logger,
		now:       opts.Now,
		http:      opts.HTTP,
		hooks:     opts.Hooks,
		wait:      cmp.Or(opts.BrowserWait, DefaultBrowserWait),
		extension: opts.Extension,
		home:      opts.Home,
		red:       opts.Redactor,
		audit:     opts.Audit,
		tools:     make(map[string]Tool),
		agents:    make(map[string]*agentState),
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.http == nil {
		e.http = http.DefaultClient
	}
	if e.red == nil {
		e.red = new(redact.Redactor)
	}
	e.files = ledger.Files{Scrub: e.red.File}
	if e.home != "" {
		e.config = &configCache{path: e.home.ConfigFile()}
	}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	e.started = e.now()
	if e.audit != nil {
		// What agents did before this daemon started is still the activity.
		recent, err := audit.Recent(e.audit.Path(), maxActivity)
		if err != nil {
			e.log.Warn("audit log unreadable", "err", err)
		}
		for _, a := range recent {
			e.state.record(activity{At: a.At, Agent: a.Client, Tool: a.Tool, Origin: a.Origin, Ms: a.Ms,
				OK: a.Code == "", Error: a.Code})
		}
	}
	e.questions = feedback.New(feedback.Options{Log: e.log, Now: e.now, Redactor: e.red, Changed: e.changed})
	if opts.Tasks != nil {
		e.tasks = task.NewRunner(task.Options{Store: opts.Tasks, Log: e.log, Now: e.now, Redactor: e.red, Changed: e.changed})
		e.envelopes = task.NewEnvelopes(task.EnvelopeOptions{Store: opts.Tasks, Log: e.log, Now: e.now, Changed: e.changed})
		if e.browsers != nil {
			// The envelopes that are open show in the side panel from
			// the start, with their counts.
			if err := e.envelopes.Load(); err != nil {
				e.log.Warn("envelopes not all loaded", "err", err)
			}
		}
	}
	if opts.Handoffs != nil {
		e.handoffs = handoff.New(handoff.Options{Store: opts.Handoffs, Tasks: opts.Tasks, Log: e.log, Now: e.now,
			Redactor: e.red, Changed: e.changed})
		if e.browsers != nil {
			// A daemon takes over what a dead one left; a front-end
			// reads the ledger and leaves the handoffs to the daemon.
			ctx, done := context.WithTimeout(e.ctx, 10*time.Second)
			if err := e.handoffs.Resume(ctx); err != nil {
				e.log.Warn("handoffs not all resumed", "err", err)
			}
			done()
		}
	}
	for _, t := range Catalog() {
		e.tools[t.Name] = t
	}
	if e.browsers != nil && e.config != nil {
		e.goOwned(func(ctx context.Context) { e.watchConfig(ctx, configEvery) })
	}
	return e
}

// configEvery is how often the daemon looks whether config.json changed.
const configEvery = 2 * time.Second

// Call runs one tool call. Every failure comes back as an error result with a
// code; a panic in a handler is caught, logged and reported as internal. A
// handler runs once: nothing here runs it again.
func (e *Engine) Call(ctx context.Context, bc *bridge.Call) (res *protocol.ToolResult) {
	start := e.now()
	c := &call{engine: e, bc: bc, agent: e.agent(bc.Agent)}
	var ticket *task.Ticket
	var args callArgs
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("tool panicked", "tool", bc.Tool, "panic", p)
			res = protocol.ErrorResult(errors.New("panic"))
		}
		if ticket != nil {
			res = e.endEnvelope(ctx, c, ticket, args, res)
		}
		c.locate(ctx, res)
		e.log.Info("call", "agent", bc.Agent, "tool", bc.Tool, "ms", e.now().Sub(start).Milliseconds(), "error", errorCode(res))
		e.recordCall(c, start, res)
	}()
	t, ok := e.tools[bc.Tool]
	if !ok {
		return protocol.ErrorResult(protocol.Errorf(protocol.CodeBadRequest, "unknown tool %q", bc.Tool).
			WithHint("call tools/list for the tools this server offers"))
	}
	var err error
	if ticket, args, err = e.beginEnvelope(ctx, t, bc.Args); err != nil {
		return protocol.ErrorResult(err) // refused before anything ran
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e.inflight.add(c, cancel)
	defer e.inflight.remove(c)
	r, err := t.run(ctx, c, bc.Args)
	if err != nil {
		switch {
		case errors.Is(context.Cause(ctx), errStopped):
			err = stoppedError(bc.Tool)
		case ctx.Err() != nil && !isCoded(err):
			err = bridge.ContextError(ctx, bc.Tool)
		}
		if e := protocol.AsError(err); e.Code == protocol.CodeInternal {
			c.engine.log.Error("tool failed", "tool", bc.Tool, "err", err)
		}
		err = longerHint(t, err)
		return e.scrub(c.maskProfile(ctx, protocol.ErrorResult(err)))
	}
	return e.scrub(c.maskProfile(ctx, r))
}

// longerHint tells a timeout of a tool that takes timeoutMs that a larger
// one may do. Only the tool knows it takes one: interact's own waits are
// fixed, and an agent told to pass it would be refused an unknown argument.
func longerHint(t Tool, err error) error {
	e := protocol.AsError(err)
	if e.Code != protocol.CodeTimeout || strings.Contains(e.Hint, "timeoutMs") || t.InputSchema.Properties["timeoutMs"] == nil {
		return err
	}
	if e.Hint == "" {
		return e.WithHint("pass a larger timeoutMs")
	}
	return e.WithHint(e.Hint + ", or pass a larger timeoutMs")
}

// scrub masks the secrets the engine has seen typed in a result, whatever
// tool produced it: a page that echoes a password, a script that reads one.
// Patterns are not applied here; page text is what the agent asked for.
func (e *Engine) scrub(r *protocol.ToolResult) *protocol.ToolResult {
	if r == nil {
		return r
	}
	for i := range r.Content {
		if r.Content[i].Type == "text" {
			r.Content[i].Text = e.red.Known(r.Content[i].Text)
		}
	}
	if len(r.StructuredContent) > 0 {
		r.StructuredContent = []byte(e.red.Known(string(r.StructuredContent)))
	}
	return r
}

// recordCall adds a finished call to the side panel's activity.
func (e *Engine) recordCall(c *call, start time.Time, res *protocol.ToolResult) {
	agent := c.bc.Client
	if agent == "" {
		agent = c.bc.Agent
	}
	code := errorCode(res)
	ms := e.now().Sub(start).Milliseconds()
	origin := audit.Origin(c.touchedURL)
	e.state.record(activity{At: start.UTC(), Agent: agent, Tool: c.bc.Tool, TabID: c.touched,
		Ms: ms, OK: code == "", Error: code, Detail: e.red.Text(c.detail), Origin: origin})
	if e.audit != nil {
		err := e.audit.Append(audit.Entry{At: start.UTC(), Client: agent, Tool: c.bc.Tool, Origin: origin, Code: code, Ms: ms})
		if err != nil {
			e.log.Warn("audit log", "err", err)
		}
	}
	e.changed()
}

// Close stops the background tasks and waits, at most until ctx ends, for
// them to record how they ended, and for the work people's actions started.
// Handoffs keep running on disk: their deadlines hold, and the next daemon
// enforces them.
func (e *Engine) Close(ctx context.Context) {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	if e.handoffs != nil {
		e.handoffs.Close()
	}
	if e.tasks != nil {
		e.tasks.Close(ctx)
	}
	e.cancel()
	done := make(chan struct{})
	go func() { e.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// goOwned runs f in a goroutine Close waits for, unless the engine has
// closed already.
func (e *Engine) goOwned(f func(ctx context.Context)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return
	}
	e.wg.Add(1) // under mu: Close cannot be waiting yet
	go func() {
		defer e.wg.Done()
		f(e.ctx)
	}()
}

func (e *Engine) agent(id string) *agentState {
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.agents[id]
	if a == nil {
		a = &agentState{}
		e.agents[id] = a
	}
	return a
}

func isCoded(err error) bool {
	var e *protocol.Error
	return errors.As(err, &e)
}

func errorCode(r *protocol.ToolResult) string {
	if e := protocol.ResultError(r); e != nil {
		return string(e.Code)
	}
	return ""
}
