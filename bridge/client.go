package bridge

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/openchrome/openchrome/protocol"
)

// Client is an agent's connection to the broker. It is safe for concurrent
// use: many calls may be in flight at once.
type Client struct {
	c     *conn
	ready protocol.Ready
	seq   atomic.Uint64
	done  chan struct{} // closed when the connection has dropped

	// life ends when the connection drops: the questions being asked
	// are withdrawn, and readLoop waits for them (asking) before done.
	life   context.Context
	end    context.CancelFunc
	asking sync.WaitGroup

	mu      sync.Mutex // guards the fields below
	pending map[string]*pendingCall
	asks    map[string]context.CancelFunc // questions being asked, by id
}

type pendingCall struct {
	result   chan *protocol.ToolResult
	progress func(protocol.Progress)
	ask      func(context.Context, protocol.Ask) protocol.Answer
}

// Dial connects to the broker d describes and says hello as an agent named
// client. Errors are coded: browser_not_connected when no broker answers,
// unauthorized for a refused token, conflict for a version mismatch.
func Dial(ctx context.Context, d Discovery, client string) (*Client, error) {
	c, ready, err := dial(ctx, d, protocol.Hello{Role: protocol.RoleAgent, Version: protocol.Version, Client: client})
	if err != nil {
		return nil, err
	}
	cl := &Client{c: c, ready: *ready, done: make(chan struct{}), pending: make(map[string]*pendingCall),
		asks: make(map[string]context.CancelFunc)}
	cl.life, cl.end = context.WithCancel(context.Background())
	go cl.readLoop()
	return cl, nil
}

// dial opens the WebSocket, sends hello and returns the broker's ready, or
// the error it refused the session with.
func dial(ctx context.Context, d Discovery, hello protocol.Hello) (*conn, *protocol.Ready, error) {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+d.Token)
	dialer := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	ws, resp, err := dialer.DialContext(ctx, d.URL(), h)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			return nil, nil, protocol.Errorf(protocol.CodeUnauthorized, "the daemon refused our token").
				WithHint("bridge.json is stale or was replaced; restart the browser, or run: openchrome doctor").WithCause(err)
		}
		return nil, nil, protocol.Errorf(protocol.CodeBrowserNotConnected,
			"no browser is connected: the OpenChrome daemon on port %d does not answer", d.Port).
			WithHint("open Chrome with the OpenChrome extension (or run: openchrome launch); run: openchrome doctor").WithCause(err)
	}
	c := newConn(ws)
	ready, err := handshake(c, hello)
	if err != nil {
		_ = c.close()
		return nil, nil, err
	}
	return c, ready, nil
}

func handshake(c *conn, hello protocol.Hello) (*protocol.Ready, error) {
	if err := c.write(hello); err != nil {
		return nil, errLost.WithCause(err)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(helloWait))
	first, err := c.read()
	if err != nil {
		return nil, errLost.WithCause(err)
	}
	_ = c.ws.SetReadDeadline(time.Time{})
	f, err := protocol.DecodeAgentFrame(first)
	if err != nil {
		return nil, err
	}
	switch f := f.(type) {
	case *protocol.Ready:
		return f, nil
	case *protocol.Fail:
		return nil, f.Error
	default:
		return nil, protocol.Errorf(protocol.CodeInternal, "the broker answered hello with a %T", f)
	}
}

// Ready is the broker's answer to hello.
func (cl *Client) Ready() protocol.Ready { return cl.ready }

// Done is closed when the connection has dropped.
func (cl *Client) Done() <-chan struct{} { return cl.done }

// CallOptions tune one call.
type CallOptions struct {
	// Progress, if set, receives the call's progress frames.
	Progress func(protocol.Progress)
	// TimeoutMs bounds the whole call (0: the broker's ceiling, 10 minutes).
	TimeoutMs int64
	// Roots go with the call (protocol.Call's Roots).
	Roots []string
	// AllowedOrigins and BlockedOrigins narrow the site policy for the call
	// (protocol.Call's).
	AllowedOrigins, BlockedOrigins []string
	// Ask, if set, puts the broker's questions for this call to the person
	// at the agent's MCP client (MCP elicitation) and returns what they
	// did; its ctx ends when the broker withdraws the question (another
	// answer came first) or the connection drops, and Ask must then return
	// promptly. Without it the call cannot be asked anything.
	Ask func(ctx context.Context, q protocol.Ask) protocol.Answer
}

// Call runs tool with args and returns its result; a tool error is a result
// with IsError, not an error. Call returns an error only when the call could
// not complete: the connection dropped (browser_not_connected) or ctx ended
// (cancelled or timeout) — then the broker is told to cancel the call, and
// Call returns at once without waiting for it to wind down.
func (cl *Client) Call(ctx context.Context, tool string, args json.RawMessage, opts CallOptions) (*protocol.ToolResult, error) {
	id := "c" + strconv.FormatUint(cl.seq.Add(1), 10)
	p := &pendingCall{result: make(chan *protocol.ToolResult, 1), progress: opts.Progress, ask: opts.Ask}
	cl.mu.Lock()
	cl.pending[id] = p
	cl.mu.Unlock()
	defer cl.forget(id)

	call := protocol.Call{ID: id, Tool: tool, Args: args, Progress: opts.Progress != nil, TimeoutMs: opts.TimeoutMs,
		Roots: opts.Roots, CanAsk: opts.Ask != nil, AllowedOrigins: opts.AllowedOrigins, BlockedOrigins: opts.BlockedOrigins}
	if err := cl.c.write(call); err != nil {
		return nil, errLost.WithCause(err)
	}
	select {
	case r := <-p.result:
		return r, nil
	case <-cl.done:
		// The daemon had the call: it may have acted on the page.
		return nil, protocol.Errorf(protocol.CodeBrowserNotConnected, "lost the connection to the OpenChrome daemon while it ran %s: it may have been done", tool).
			WithHint("when the daemon is back (the browser's native host starts the next one by itself), look before doing it again: read_page shows where the page is; if it does not come back, run: openchrome doctor")
	case <-ctx.Done():
		_ = cl.c.write(protocol.Cancel{ID: id})
		return nil, ContextError(ctx, tool)
	}
}

// Close closes the connection; calls in flight fail with browser_not_connected.
func (cl *Client) Close() error { return cl.c.close() }

func (cl *Client) readLoop() {
	defer close(cl.done)
	defer cl.asking.Wait()
	defer cl.end()
	for {
		b, err := cl.c.read()
		if err != nil {
			return
		}
		f, err := protocol.DecodeAgentFrame(b)
		if err != nil {
			continue
		}
		switch f := f.(type) {
		case *protocol.CallResult:
			if p := cl.take(f.ID); p != nil {
				p.result <- f.Result
			}
		case *protocol.Progress:
			cl.mu.Lock()
			p := cl.pending[f.ID]
			cl.mu.Unlock()
			if p != nil && p.progress != nil {
				p.progress(*f)
			}
		case *protocol.Ask:
			cl.ask(f)
		case *protocol.Cancel:
			// From the broker, a cancel withdraws a question.
			cl.mu.Lock()
			withdraw := cl.asks[f.ID]
			cl.mu.Unlock()
			if withdraw != nil {
				withdraw()
			}
		case *protocol.Ping:
			_ = cl.c.write(protocol.Pong{})
		}
	}
}

// ask puts q to the call's Ask in its own goroutine, so that the read loop
// goes on (the withdrawal comes through it), and sends the answer unless q
// was withdrawn meanwhile. A call that cannot ask answers cancel at once.
func (cl *Client) ask(q *protocol.Ask) {
	cl.mu.Lock()
	p := cl.pending[q.Call]
	if p == nil || p.ask == nil {
		cl.mu.Unlock()
		_ = cl.c.write(protocol.Answer{ID: q.ID, Action: protocol.AnswerCancel})
		return
	}
	ctx, withdraw := context.WithCancel(cl.life)
	cl.asks[q.ID] = withdraw
	cl.asking.Add(1) // under mu, before readLoop can return and wait
	cl.mu.Unlock()
	go func() {
		defer cl.asking.Done()
		defer func() {
			cl.mu.Lock()
			delete(cl.asks, q.ID)
			cl.mu.Unlock()
			withdraw()
		}()
		ans := p.ask(ctx, *q)
		if ctx.Err() != nil {
			return // withdrawn: the broker no longer waits for it
		}
		ans.ID = q.ID
		_ = cl.c.write(ans)
	}()
}

func (cl *Client) take(id string) *pendingCall {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	p := cl.pending[id]
	delete(cl.pending, id)
	return p
}

func (cl *Client) forget(id string) { cl.take(id) }

var errLost = protocol.Errorf(protocol.CodeBrowserNotConnected, "lost the connection to the OpenChrome daemon").
	WithHint("retry in a moment: the browser's native host starts the next daemon by itself; if it does not, run: openchrome doctor")

// Relay is a native host's connection to the broker: it carries one
// extension's frames, so every Chrome profile's extension reaches the one
// daemon of the home, and a native host Chrome kills takes nothing with it.
type Relay struct {
	c *conn
}

// DialRelay connects to the broker as the browser that said hello.
func DialRelay(ctx context.Context, d Discovery, hello protocol.Hello) (*Relay, error) {
	if hello.Role != protocol.RoleExtension {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "a relay says hello as the extension")
	}
	c, _, err := dial(ctx, d, hello)
	if err != nil {
		return nil, err
	}
	return &Relay{c: c}, nil
}

// Send passes one frame from the extension to the broker.
func (r *Relay) Send(f protocol.Frame) error { return r.c.write(f) }

// Recv returns the next frame the broker sends for the extension.
func (r *Relay) Recv() (protocol.Frame, error) {
	for {
		b, err := r.c.read()
		if err != nil {
			return nil, err
		}
		f, err := protocol.DecodeBrowserFrame(b)
		if err == nil {
			return f, nil
		}
	}
}

// Close closes the relay's connection.
func (r *Relay) Close() error { return r.c.close() }
