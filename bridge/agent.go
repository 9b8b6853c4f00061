package bridge

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// agentSession is one connected agent and its calls in flight.
type agentSession struct {
	id     string
	client string // its MCP client's name
	c      *conn
	srv    *Server

	wg sync.WaitGroup // one per call goroutine

	mu     sync.Mutex // guards the fields below
	calls  map[string]context.CancelFunc
	asks   map[string]chan protocol.Answer // questions waiting for the agent's answer
	askSeq int
}

// serveAgent answers hello with ready, then runs calls until the agent
// disconnects; that cancels every call it still has in flight.
func (s *Server) serveAgent(ctx context.Context, c *conn, hello *protocol.Hello) {
	s.mu.Lock()
	s.seq++
	a := &agentSession{id: "a" + strconv.Itoa(s.seq), client: hello.Client, c: c, srv: s,
		calls: make(map[string]context.CancelFunc), asks: make(map[string]chan protocol.Answer)}
	s.agents[a.id] = a
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.agents, a.id)
		s.mu.Unlock()
	}()
	s.log.Info("agent connected", "agent", a.id, "client", hello.Client)

	ctx, cancel := context.WithCancel(ctx)
	defer a.wg.Wait()
	defer cancel() // the agent is gone: cancel what it left running

	if err := c.write(protocol.Ready{Version: s.opts.Version, Agent: a.id, Browsers: s.opts.Browsers.List()}); err != nil {
		return
	}
	for {
		b, err := c.read()
		if err != nil {
			s.log.Info("agent disconnected", "agent", a.id)
			return
		}
		f, err := protocol.DecodeAgentFrame(b)
		if err != nil {
			s.log.Warn("bad frame from agent", "agent", a.id, "err", err)
			_ = c.write(badFrame(b, err))
			continue
		}
		switch f := f.(type) {
		case *protocol.Call:
			a.start(ctx, f)
		case *protocol.Cancel:
			a.cancel(f.ID)
		case *protocol.Answer:
			a.answered(f)
		case *protocol.Ping:
			_ = c.write(protocol.Pong{})
		}
	}
}

// badFrame is the answer to a frame that does not decode: a call's result
// when it is a call with an id (its caller waits for one), else an error
// frame. The session goes on.
func badFrame(b []byte, err error) protocol.Frame {
	e := protocol.Errorf(protocol.CodeBadRequest, "malformed frame: %v", err).WithHint("see docs/wire.md for the agent channel's frames")
	var head struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	if json.Unmarshal(b, &head) == nil && head.Type == protocol.TypeCall && head.ID != "" {
		return protocol.CallResult{ID: head.ID, Result: protocol.ErrorResult(e)}
	}
	return protocol.Fail{Error: e}
}

// start runs call in its own goroutine under a context the agent can cancel.
func (a *agentSession) start(ctx context.Context, call *protocol.Call) {
	limit := protocol.MaxCommandTimeout
	if call.TimeoutMs > 0 {
		limit = protocol.ClampTimeout(call.TimeoutMs)
	}
	ctx, cancel := context.WithTimeout(ctx, limit)

	a.mu.Lock()
	if _, dup := a.calls[call.ID]; dup {
		a.mu.Unlock()
		cancel()
		_ = a.c.write(protocol.CallResult{ID: call.ID, Result: protocol.ErrorResult(
			protocol.Errorf(protocol.CodeBadRequest, "call id %q is already in flight", call.ID))})
		return
	}
	a.calls[call.ID] = cancel
	a.mu.Unlock()

	c := &Call{Agent: a.id, Client: a.client, Tool: call.Tool, Args: call.Args, Roots: call.Roots,
		AllowedOrigins: call.AllowedOrigins, BlockedOrigins: call.BlockedOrigins}
	if call.Progress {
		c.progress = func(p protocol.Progress) {
			p.ID = call.ID
			_ = a.c.write(p)
		}
	}
	if call.CanAsk {
		c.ask = func(ctx context.Context, q protocol.Ask) (protocol.Answer, error) { return a.ask(ctx, call.ID, q) }
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer a.forget(call.ID)
		defer cancel()
		start := time.Now()
		r := a.srv.opts.Handler.Call(ctx, c)
		if r == nil {
			r = protocol.ErrorResult(protocol.Errorf(protocol.CodeInternal, "the tool %s returned nothing", call.Tool))
		}
		a.srv.log.Debug("call", "agent", a.id, "tool", call.Tool, "ms", time.Since(start).Milliseconds(), "error", errorCode(r))
		_ = a.c.write(protocol.CallResult{ID: call.ID, Result: r})
	}()
}

func (a *agentSession) cancel(id string) {
	a.mu.Lock()
	cancel := a.calls[id]
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// ask sends q for call and waits for the agent's answer; when ctx ends
// first it withdraws q with a cancel frame, so that the client's prompt goes
// away.
func (a *agentSession) ask(ctx context.Context, call string, q protocol.Ask) (protocol.Answer, error) {
	ch := make(chan protocol.Answer, 1)
	a.mu.Lock()
	a.askSeq++
	q.ID, q.Call = "q"+strconv.Itoa(a.askSeq), call
	a.asks[q.ID] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.asks, q.ID)
		a.mu.Unlock()
	}()
	if err := a.c.write(q); err != nil {
		return protocol.Answer{}, protocol.Errorf(protocol.CodeCancelled, "the agent went away").WithCause(err)
	}
	select {
	case ans := <-ch:
		return ans, nil
	case <-ctx.Done():
		_ = a.c.write(protocol.Cancel{ID: q.ID}) // best effort: the agent may be gone
		return protocol.Answer{}, ContextError(ctx, "the question")
	}
}

// answered hands the agent's answer to the ask waiting for it; an answer
// to a question withdrawn meanwhile is dropped.
func (a *agentSession) answered(ans *protocol.Answer) {
	a.mu.Lock()
	ch := a.asks[ans.ID]
	delete(a.asks, ans.ID)
	a.mu.Unlock()
	if ch != nil {
		ch <- *ans // buffered, and each id is answered at most once
	}
}

func (a *agentSession) forget(id string) {
	a.mu.Lock()
	delete(a.calls, id)
	a.mu.Unlock()
}

func errorCode(r *protocol.ToolResult) string {
	if e := protocol.ResultError(r); e != nil {
		return string(e.Code)
	}
	return ""
}
