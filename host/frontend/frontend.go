// Package frontend is the MCP server an agent's client runs (`openchrome mcp`).
//
// It is a thin adapter: it lists the tools of the compiled-in catalog and
// forwards each call to the daemon's broker, passing progress and
// cancellation both ways. Tools that only read the ledger run here when no
// daemon is up. go-sdk types never leave this package.
package frontend

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/engine"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Options configure a Server.
type Options struct {
	Home   ledger.Home
	Groups []string // tool groups; nil: engine.DefaultGroups
	Logger *slog.Logger
	// Redactor is the local engine's; share it with Logger's redact handler.
	Redactor *redact.Redactor
	// ReconnectGrace is how long a call waits for a daemon that has just
	// died to be replaced; default 3 s. The native host starts the next one
	// at once, within a second or two; the bridge.json the dead one left
	// behind tells us one was running.
	ReconnectGrace time.Duration
	// UploadRoots are directories upload_file may read besides the MCP
	// client's roots and ~/.openchrome/uploads: the directory `openchrome
	// mcp` runs in, and its --upload-root directories.
	UploadRoots []string
	// AllowedOrigins and BlockedOrigins narrow the person's site policy for
	// this client's calls (--allowed-origins, --blocked-origins).
	AllowedOrigins, BlockedOrigins []string
}

// Server is the MCP front-end.
type Server struct {
	home  ledger.Home
	grace time.Duration
	log   *slog.Logger
	mcp   *mcp.Server
	local *engine.Engine // runs Local tools when no daemon is up

	roots            []string // Options.UploadRoots
	allowed, blocked []string

	mu     sync.Mutex // guards client
	client *bridge.Client
}

// New returns a front-end serving the tools of opts.Groups.
func New(opts Options) (*Server, error) {
	tools, err := engine.Select(opts.Groups)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	grace := opts.ReconnectGrace
	if grace == 0 {
		grace = 3 * time.Second
	}
	s := &Server{home: opts.Home, grace: grace, log: log, roots: opts.UploadRoots,
		allowed: opts.AllowedOrigins, blocked: opts.BlockedOrigins}
	// With no daemon, tools that only read the ledger run here.
	var tasks, handoffs *ledger.Store
	if opts.Home != "" {
		tasks, err = ledger.Open(opts.Home.Tasks(), ledger.TaskLifecycle(), ledger.Options{Scrub: redact.File})
		if err != nil {
			return nil, err
		}
		handoffs, err = ledger.Open(opts.Home.Handoffs(), ledger.HandoffLifecycle(), ledger.Options{Scrub: redact.File})
		if err != nil {
			return nil, err
		}
	}
	s.local = engine.New(engine.Options{Logger: log, Home: opts.Home, Tasks: tasks, Handoffs: handoffs, Redactor: opts.Redactor})
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "openchrome", Title: "OpenChrome", Version: protocol.Version}, &mcp.ServerOptions{
		Instructions: "Drive the user's real Chrome. You work only in the tabs of the OpenChrome tab group; " +
			"tabId defaults to your current tab. Errors carry a code and a hint naming the call that fixes them. " +
			"When the person must act (login, 2FA, CAPTCHA), call oc_handoff_start and wait with oc_handoff_status. " +
			"For a task of many steps, open an envelope (oc_task_start with objective and budgets) and pass its task_id " +
			"as taskId on each browser call: the result then says how the budget stands and what to do next.",
		Logger: log,
	})
	for _, t := range tools {
		s.mcp.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema,
			Annotations: annotations(t.Hints)}, s.handler(t))
	}
	return s, nil
}

// ServeStdio serves MCP on stdin and stdout until the client goes away or
// ctx ends.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.run(ctx, &mcp.StdioTransport{})
}

func (s *Server) run(ctx context.Context, t mcp.Transport) error {
	defer s.disconnect()
	// When ctx ends (SIGTERM: the client is going), the go-sdk closes the
	// session but waits for the calls in flight, which may wait for the
	// person for minutes. Dropping the broker's connection ends them now:
	// the broker cancels what they started (an overlay, a wait).
	defer context.AfterFunc(ctx, s.disconnect)()
	defer func() {
		closing, done := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer done()
		s.local.Close(closing)
	}()
	return s.mcp.Run(ctx, t)
}

func (s *Server) handler(t engine.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var progress func(protocol.Progress)
		if token := req.Params.GetProgressToken(); token != nil {
			progress = func(p protocol.Progress) {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: p.Progress, Total: p.Total, Message: p.Message,
				})
			}
		}
		client := "mcp"
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
			client = p.ClientInfo.Name
		}
		opts := bridge.CallOptions{Progress: progress, Ask: asker(req.Session),
			AllowedOrigins: s.allowed, BlockedOrigins: s.blocked}
		if t.ReadsFiles {
			opts.Roots = s.uploadRoots(ctx, req.Session)
		}
		return toMCP(s.call(ctx, client, t, req.Params.Arguments, opts), !showsOnlyStructured(client)), nil
	}
}

// uploadRoots are the directories a tool may read files from, from this
// side: the MCP client's roots, when it has any (asked afresh, for they
// change as the person opens folders), and Options.UploadRoots.
func (s *Server) uploadRoots(ctx context.Context, ss *mcp.ServerSession) []string {
	roots := slices.Clone(s.roots)
	ctx, cancel := context.WithTimeout(ctx, rootsWait)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return roots // a client without roots says so at once
	}
	for _, r := range res.Roots {
		u, err := url.Parse(r.URI)
		if err == nil && u.Scheme == "file" && u.Path != "" {
			roots = append(roots, filepath.FromSlash(u.Path))
		}
	}
	return roots
}

// rootsWait bounds how long a call waits for the client to list its roots.
const rootsWait = 2 * time.Second

// showsOnlyStructured reports whether an MCP client is known to hand its
// model a result's structuredContent instead of its content when both are
// there: Claude Code does (anthropics/claude-code#54450), which would trade
// read_page's compact tree for a JSON string and drop screenshots. Such a
// client gets the content alone, exactly what the model should read.
func showsOnlyStructured(client string) bool {
	return client == "claude-code"
}

// call runs one tool through the daemon, or here when the tool is local and
// no daemon answers.
func (s *Server) call(ctx context.Context, client string, t engine.Tool, args json.RawMessage, opts bridge.CallOptions) *protocol.ToolResult {
	cl, err := s.connect(ctx, client)
	if err != nil {
		if t.Local {
			return s.local.Call(ctx, bridge.NewCall("local", t.Name, args, opts.Progress))
		}
		return protocol.ErrorResult(err)
	}
	r, err := cl.Call(ctx, t.Name, args, opts)
	if errors.Is(err, protocol.ErrBrowserNotConnected) {
		// The daemon went away under us (Chrome restarts it). A read-only
		// call is safe to send again to the next one; any other call might
		// have run, so the agent decides.
		s.drop(cl)
		if t.Hints.ReadOnly && ctx.Err() == nil {
			if cl, err = s.connect(ctx, client); err == nil {
				r, err = cl.Call(ctx, t.Name, args, opts)
			}
		}
	}
	if err != nil {
		return protocol.ErrorResult(err)
	}
	return r
}

// drop forgets cl, so that the next call dials afresh.
func (s *Server) drop(cl *bridge.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == cl {
		_ = cl.Close()
		s.client = nil
	}
}

// connect returns the connection to the broker, dialling when there is none
// or the last one dropped.
func (s *Server) connect(ctx context.Context, client string) (*bridge.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		select {
		case <-s.client.Done():
			s.client = nil
		default:
			return s.client, nil
		}
	}
	deadline := time.Now().Add(s.grace)
	for {
		cl, err := s.dial(ctx, client)
		if err == nil {
			s.client = cl
			return cl, nil
		}
		// Only a daemon that was running (its bridge.json is still there)
		// is worth waiting for; with none, say so at once.
		stale := errors.Is(err, protocol.ErrBrowserNotConnected) && fileExists(s.home.BridgeFile())
		if !stale || time.Now().After(deadline) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, bridge.ContextError(ctx, "connecting to the daemon")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *Server) dial(ctx context.Context, client string) (*bridge.Client, error) {
	d, err := bridge.ReadDiscovery(s.home.BridgeFile())
	if err != nil {
		return nil, err
	}
	cl, err := bridge.Dial(ctx, d, client)
	if err != nil {
		s.log.Info("no daemon", "err", err)
		return nil, err
	}
	return cl, nil
}

func (s *Server) disconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		_ = s.client.Close()
		s.client = nil
	}
}

// annotations publishes a tool's hints. The go-sdk always writes
// readOnlyHint and idempotentHint; destructiveHint and openWorldHint go
// out only where they differ from MCP's defaults (destructive, open world),
// since each costs every agent tokens in tools/list. Destructive and
// idempotent mean nothing for a read-only tool. A tool that is all
// defaults has none at all: the go-sdk writes readOnlyHint and
// idempotentHint out whenever there are annotations.
func annotations(h engine.Hints) *mcp.ToolAnnotations {
	if h == (engine.Hints{Destructive: true, OpenWorld: true}) {
		return nil
	}
	a := &mcp.ToolAnnotations{ReadOnlyHint: h.ReadOnly}
	if !h.ReadOnly {
		a.IdempotentHint = h.Idempotent
		if !h.Destructive {
			a.DestructiveHint = new(bool)
		}
	}
	if !h.OpenWorld {
		a.OpenWorldHint = new(bool)
	}
	return a
}

// toMCP converts the engine's result to the go-sdk's, with its
// structuredContent when structured.
func toMCP(r *protocol.ToolResult, structured bool) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		switch c.Type {
		case "image":
			out.Content = append(out.Content, &mcp.ImageContent{Data: c.Data, MIMEType: c.MimeType})
		case "resource_link":
			size := c.Size
			out.Content = append(out.Content, &mcp.ResourceLink{URI: c.URI, Name: c.Name, MIMEType: c.MimeType, Size: &size})
		default:
			out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
		}
	}
	if structured && len(r.StructuredContent) > 0 {
		out.StructuredContent = r.StructuredContent
	}
	return out
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
