package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/openchrome/openchrome/protocol"
)

// helloWait bounds how long a new connection may take to say hello.
const helloWait = 10 * time.Second

// Handler runs tool calls. The engine implements it.
type Handler interface {
	// Call runs one call and returns its result, errors included (as a
	// result with IsError). ctx ends when the agent cancels the call,
	// disconnects, or the call runs out of time; Call must then return
	// promptly.
	Call(ctx context.Context, call *Call) *protocol.ToolResult
}

// Call is one tool call as the handler sees it.
type Call struct {
	Agent  string // the broker's id for the calling agent, stable for its connection
	Client string // the agent's MCP client, as its hello named it ("claude-code")
	Tool   string
	Args   json.RawMessage
	// Roots are the directories the agent's side lets this call read files
	// from (protocol.Call's Roots).
	Roots []string
	// AllowedOrigins and BlockedOrigins narrow the site policy for this
	// call's agent (protocol.Call's).
	AllowedOrigins, BlockedOrigins []string

	progress func(protocol.Progress)
	ask      func(context.Context, protocol.Ask) (protocol.Answer, error)
}

// CanAsk reports whether the agent can put a question to the person at its
// MCP client during this call ([Call.Ask]): its client declared MCP
// elicitation.
func (c *Call) CanAsk() bool { return c.ask != nil }

// Ask puts q to the person at the agent's MCP client and returns what they
// did with it. When ctx ends first the question is withdrawn (the client's
// prompt goes away) and Ask returns a cancelled or timeout error; so does a
// call whose agent cannot ask. Ask sets q's ID and Call.
func (c *Call) Ask(ctx context.Context, q protocol.Ask) (protocol.Answer, error) {
	if c.ask == nil {
		return protocol.Answer{}, protocol.Errorf(protocol.CodeBadRequest, "this agent's MCP client cannot be asked")
	}
	return c.ask(ctx, q)
}

// WithAsk gives a call made by [NewCall] a way to ask, as a broker gives the
// calls of an agent that can: for running a handler without a broker.
func (c *Call) WithAsk(ask func(context.Context, protocol.Ask) (protocol.Answer, error)) *Call {
	c.ask = ask
	return c
}

// Progress reports progress to the agent when it asked for it; otherwise it
// does nothing.
func (c *Call) Progress(progress, total float64, message string) {
	if c.progress != nil {
		c.progress(protocol.Progress{Progress: progress, Total: total, Message: message})
	}
}

// NewCall returns a call for agent, for running a handler without a broker
// (the front-end's local fallback, tests). progress may be nil.
func NewCall(agent, tool string, args json.RawMessage, progress func(protocol.Progress)) *Call {
	return &Call{Agent: agent, Tool: tool, Args: args, progress: progress}
}

// Options configure a Server.
type Options struct {
	Token   string  // required: the bearer token agents must present
	Handler Handler // required
	// Browsers holds the connected browsers; browsers native hosts relay
	// join it. Default: a new, empty registry.
	Browsers *Registry
	Version  string // default protocol.Version
	Logger   *slog.Logger
}

// Server is the broker.
type Server struct {
	opts     Options
	log      *slog.Logger
	upgrader websocket.Upgrader

	wg sync.WaitGroup // one per session goroutine

	mu      sync.Mutex // guards the fields below
	seq     int
	agents  map[string]*agentSession
	conns   map[*conn]struct{}
	stopped bool
}

// NewServer returns a broker. It panics when a required option is missing: that
// is a programming error, found at start-up.
func NewServer(opts Options) *Server {
	if opts.Token == "" || opts.Handler == nil {
		panic("bridge: NewServer needs a Token and a Handler")
	}
	if opts.Version == "" {
		opts.Version = protocol.Version
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Browsers == nil {
		opts.Browsers = NewRegistry(RegistryOptions{Logger: log})
	}
	return &Server{
		opts: opts,
		log:  log,
		upgrader: websocket.Upgrader{
			// authorize has already refused every request with an Origin.
			CheckOrigin: func(*http.Request) bool { return true },
		},
		agents: make(map[string]*agentSession),
		conns:  make(map[*conn]struct{}),
	}
}

// Serve accepts connections on ln until ctx ends, then closes ln and every
// session and returns once their goroutines have stopped.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	// Sessions get a context of their own, ended only after their
	// connections are closed: an agent then sees the daemon go away, not
	// its calls "cancelled".
	base, stopSessions := context.WithCancel(context.WithoutCancel(ctx))
	defer stopSessions()
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	_ = srv.Close() // closes ln; hijacked WebSockets are ours to close
	s.mu.Lock()
	s.stopped = true
	for c := range s.conns {
		_ = c.close()
	}
	s.mu.Unlock()
	stopSessions()
	s.wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// ServeHTTP upgrades an authorized request and runs its session.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if code := authorize(r, s.opts.Token); code != 0 {
		s.log.Warn("refused connection", "status", code, "remote", r.RemoteAddr)
		http.Error(w, http.StatusText(code), code)
		return
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the request
	}
	c := newConn(ws)
	if !s.track(c) {
		_ = c.close()
		return
	}
	s.wg.Add(1)
	defer s.wg.Done()
	defer s.untrack(c)
	defer c.close()
	s.session(r.Context(), c)
}

func (s *Server) track(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// session reads the hello and runs the connection as an agent or a browser.
func (s *Server) session(ctx context.Context, c *conn) {
	_ = c.ws.SetReadDeadline(time.Now().Add(helloWait))
	b, err := c.read()
	if err != nil {
		return
	}
	_ = c.ws.SetReadDeadline(time.Time{})
	f, err := protocol.DecodeAgentFrame(b)
	hello, ok := f.(*protocol.Hello)
	if err != nil || !ok {
		_ = c.write(protocol.Fail{Error: protocol.Errorf(protocol.CodeBadRequest, "the first frame must be a hello")})
		return
	}
	switch hello.Role {
	case protocol.RoleAgent:
		if hello.Version != s.opts.Version {
			_ = c.write(protocol.Fail{Error: versionMismatch(hello.Version, s.opts.Version)})
			return
		}
		s.serveAgent(ctx, c, hello)
	case protocol.RoleExtension:
		s.serveBrowser(c, hello)
	}
}

func versionMismatch(agent, daemon string) *protocol.Error {
	return protocol.Errorf(protocol.CodeConflict,
		"this openchrome is version %s but the running daemon is %s", agent, daemon).
		WithHint(fmt.Sprintf("stop the running daemon (kill %d): the browser starts this one within seconds; or run: openchrome doctor", os.Getpid()))
}

// serveBrowser runs a browser a native host relays until it disconnects.
func (s *Server) serveBrowser(c *conn, hello *protocol.Hello) {
	reg := s.opts.Browsers
	// Ready goes out before the browser is added: once it is, the engine
	// sends it frames (the side panel's state), which must not overtake
	// the answer to its hello.
	if err := c.write(protocol.Ready{Version: s.opts.Version, Browsers: reg.List()}); err != nil {
		return
	}
	l := reg.Add(hello, c.write)
	defer reg.Remove(l)
	for {
		b, err := c.read()
		if err != nil {
			return
		}
		f, err := protocol.DecodeBrowserFrame(b)
		if err != nil {
			s.log.Warn("bad frame from browser", "browser", l.info.ID, "err", err)
			continue
		}
		l.Deliver(f)
	}
}

// Registry returns the browsers the server routes to.
func (s *Server) Registry() *Registry { return s.opts.Browsers }

// Agents returns how many agents are connected.
func (s *Server) Agents() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.agents)
}
