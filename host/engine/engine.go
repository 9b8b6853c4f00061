package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/redact"
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
	// Home is where sessions, recordings and evidence are kept.
	Home ledger.Home
	// Tasks is the ledger of background tasks; nil keeps none.
	Tasks *ledger.Store
	// Handoffs is the ledger of human handoffs; nil keeps none.
	Handoffs *ledger.Store
	// Redactor masks secrets in everything the engine writes or returns,
	// including values typed into password fields, which it adds. Share it
	// with the logger's redact.NewHandler; nil means a private one.
	Redactor *redact.Redactor
	// Hooks break things on purpose, for tests of what survives.
	Hooks Hooks
}

// Hooks are fault injections for tests; the zero value injects nothing. The
// daemon reads them from OPENCHROME_TEST_HOOKS (see cli), never in normal use.
type Hooks struct {
	// FailOnPage makes a crawl fail on its Nth page: an error, or a panic
	// when Panic is set.
	FailOnPage int
	Panic      bool
}

// Engine runs tool calls. It implements [bridge.Handler].
type Engine struct {
	browsers *bridge.Registry
	log      *slog.Logger
	now      func() time.Time
	started  time.Time
	tools    map[string]Tool
	snaps    snapshots
	hooks    Hooks
	home     ledger.Home
	tasks    *taskRunner // nil when Options.Tasks is
	handoffs *handoffs   // nil when Options.Handoffs is
	red      *redact.Redactor
	state    stateKeeper
	inflight inflight

	mu     sync.Mutex // guards agents
	agents map[string]*agentState
}

var _ bridge.Handler = (*Engine)(nil)

// agentState is what the engine remembers between one agent's calls.
type agentState struct {
	mu         sync.Mutex // guards currentTab
	currentTab int
}

// New returns an engine serving the whole catalog.
func New(opts Options) *Engine {
	e := &Engine{
		browsers: opts.Browsers,
		log:      opts.Logger,
		now:      opts.Now,
		hooks:    opts.Hooks,
		home:     opts.Home,
		red:      opts.Redactor,
		tools:    make(map[string]Tool),
		agents:   make(map[string]*agentState),
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.red == nil {
		e.red = new(redact.Redactor)
	}
	e.started = e.now()
	if opts.Tasks != nil {
		e.tasks = newTaskRunner(opts.Tasks, e.log)
	}
	if opts.Handoffs != nil {
		e.handoffs = newHandoffs(opts.Handoffs, e.log, e.now)
		if e.browsers != nil {
			e.resumeHandoffs()
		}
	}
	for _, t := range Catalog() {
		e.tools[t.Name] = t
	}
	return e
}

// Call runs one tool call. Every failure comes back as an error result with a
// code; a panic in a handler is caught, logged and reported as internal.
func (e *Engine) Call(ctx context.Context, bc *bridge.Call) (res *protocol.ToolResult) {
	start := e.now()
	c := &call{engine: e, bc: bc, agent: e.agent(bc.Agent)}
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("tool panicked", "tool", bc.Tool, "panic", p)
			res = protocol.ErrorResult(errors.New("panic"))
		}
		e.log.Info("call", "agent", bc.Agent, "tool", bc.Tool, "ms", e.now().Sub(start).Milliseconds(), "error", errorCode(res))
		e.recordCall(c, start, res)
	}()
	t, ok := e.tools[bc.Tool]
	if !ok {
		return protocol.ErrorResult(protocol.Errorf(protocol.CodeBadRequest, "unknown tool %q", bc.Tool).
			WithHint("call tools/list for the tools this server offers"))
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	e.inflight.add(c, cancel)
	defer e.inflight.remove(c)
	r, err := t.run(ctx, c, bc.Args)
	if c.guessed && (errors.Is(err, protocol.ErrTabNotFound) || errors.Is(err, protocol.ErrTabNotAllowed)) {
		// The current tab was closed or left the group: pick another.
		c.setCurrentTab(0)
		r, err = t.run(ctx, c, bc.Args)
	}
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
		return e.scrub(protocol.ErrorResult(err))
	}
	return e.scrub(r)
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
		r.StructuredContent = json.RawMessage(e.red.Known(string(r.StructuredContent)))
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
	e.state.record(activity{At: start.UTC(), Agent: agent, Tool: c.bc.Tool, TabID: c.touched,
		Ms: e.now().Sub(start).Milliseconds(), OK: code == "", Error: code})
	e.changed()
}

// Close stops the background tasks and waits, at most until ctx ends, for
// them to record how they ended. Handoffs keep running on disk: their
// deadlines hold, and the next daemon enforces them.
func (e *Engine) Close(ctx context.Context) {
	e.state.mu.Lock()
	e.state.closed = true
	e.state.mu.Unlock()
	if e.handoffs != nil {
		e.handoffs.close()
	}
	if e.tasks != nil {
		e.tasks.close(ctx)
	}
}

// resumeHandoffs takes over the handoffs a dead daemon left RUNNING (those
// past their deadline ExpireHandoffs has ended already): it adopts each,
// arms its timer and marks its tab held. The person may be halfway through
// a login; a daemon restart must not throw that away.
func (e *Engine) resumeHandoffs() {
	list, err := e.handoffs.store.List(ledger.Filter{Status: ledger.StatusRunning, Limit: 10_000})
	if err != nil {
		e.log.Warn("handoffs not resumed", "err", err)
		return
	}
	ctx, done := context.WithTimeout(context.Background(), 10*time.Second)
	defer done()
	for _, m := range list {
		d, err := readDetail(m)
		if err != nil {
			continue
		}
		if _, err := e.handoffs.store.Adopt(ctx, m.ID); err != nil && !errors.Is(err, protocol.ErrConflict) {
			e.log.Warn("handoff not adopted", "handoff", m.ID, "err", err)
			continue
		}
		e.handoffs.track(m.ID, d, e.expireHandoff)
	}
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

// jsonResult returns v as compact JSON text: what most tools answer with.
func jsonResult(v any) (*protocol.ToolResult, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return protocol.TextResult(string(b)), nil
}

// marshal is json.Marshal without HTML escaping: results are read by
// models, for whom "->" reads better than "-\u003e".
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
