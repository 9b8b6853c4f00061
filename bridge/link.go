package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/openchrome/openchrome/protocol"
)

// Link is one connected browser. It sends commands to the extension and hands
// each result to the command waiting for it. The transport is a send function
// plus [Link.Deliver] for what comes back, so the daemon's native link, a
// relaying native host's WebSocket and a test's fake extension all drive the same
// code.
type Link struct {
	info    protocol.BrowserInfo
	send    func(protocol.Frame) error
	onEvent func(*protocol.Event)

	seq  atomic.Uint64
	done chan struct{} // closed by Close

	mu      sync.Mutex // guards the fields below
	pending map[string]chan *protocol.CommandResult
	shut    bool // Close has run
}

// NewLink returns a link that sends frames with send. onEvent, if not nil,
// receives the events the extension reports (a human pressed Finish, ...).
func NewLink(info protocol.BrowserInfo, send func(protocol.Frame) error, onEvent func(*protocol.Event)) *Link {
	if send == nil {
		panic("bridge: NewLink with nil send")
	}
	return &Link{
		info:    info,
		send:    send,
		onEvent: onEvent,
		done:    make(chan struct{}),
		pending: make(map[string]chan *protocol.CommandResult),
	}
}

// Info describes the browser.
func (l *Link) Info() protocol.BrowserInfo { return l.info }

// Done is closed when the link has closed.
func (l *Link) Done() <-chan struct{} { return l.done }

// closed reports whether the link has closed.
func (l *Link) closed() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// Do sends cmd and waits for its result. Do sets the command's id and its
// timeout (cmd.TimeoutMs, clamped; the default when 0). When ctx ends or the
// timeout passes first, Do sends a cancel frame for the command, so the
// extension tears down whatever it started, and returns a cancelled or timeout
// error. A failed command returns its *protocol.Error.
func (l *Link) Do(ctx context.Context, cmd protocol.Command) (json.RawMessage, error) {
	timeout := protocol.ClampTimeout(cmd.TimeoutMs)
	cmd.TimeoutMs = timeout.Milliseconds()
	cmd.ID = "k" + strconv.FormatUint(l.seq.Add(1), 10)

	ch := make(chan *protocol.CommandResult, 1)
	l.mu.Lock()
	if l.shut {
		l.mu.Unlock()
		return nil, errBrowserGone
	}
	l.pending[cmd.ID] = ch
	l.mu.Unlock()
	defer l.forget(cmd.ID)

	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := l.send(cmd); err != nil {
		if errors.Is(err, protocol.ErrTooLarge) {
			return nil, err
		}
		// The transport is broken for good: the link is gone, even
		// before its read loop notices and removes it.
		l.Close()
		return nil, errBrowserGone.WithCause(err)
	}

	// From here the extension has the command, and may have carried it
	// out: a click may have reached the page. An error says so, and never
	// invites doing it again blind.
	select {
	case r := <-ch:
		if !r.OK {
			return nil, r.Error
		}
		return r.Data, nil
	case <-l.done:
		return nil, protocol.Errorf(protocol.CodeBrowserNotConnected, "the browser disconnected while it ran %s: it may have been done", cmd.Action).
			WithHint("when the extension is back (it reconnects by itself within seconds), look before doing it again: read_page shows where the page is; if it does not come back, run: openchrome doctor")
	case <-ctx.Done():
		_ = l.send(protocol.Cancel{ID: cmd.ID}) // best effort: the link may be going down
		return nil, sentError(ctx, cmd.Action)
	}
}

// sentError is ContextError for a command the extension has had: it may
// have been done in part, and the hint says to look before trying again.
func sentError(ctx context.Context, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return protocol.Errorf(protocol.CodeTimeout, "%s did not finish in time: it may have been done in part", what).
			WithHint("look before trying again (read_page shows where the page is)")
	}
	return protocol.Errorf(protocol.CodeCancelled, "%s was cancelled: it may have been done in part", what)
}

// Send sends a frame that wants no answer (the side panel's state). A link
// that has closed refuses with browser_not_connected.
func (l *Link) Send(f protocol.Frame) error {
	select {
	case <-l.done:
		return errBrowserGone
	default:
	}
	return l.send(f)
}

// Deliver hands the link one frame from the extension. Results go to the
// command waiting for them; a result for a command that has given up (it was
// cancelled or timed out) is dropped.
func (l *Link) Deliver(f protocol.Frame) {
	switch f := f.(type) {
	case *protocol.CommandResult:
		l.mu.Lock()
		ch := l.pending[f.ID]
		delete(l.pending, f.ID)
		l.mu.Unlock()
		if ch != nil {
			ch <- f // buffered, and each id is delivered at most once
		}
	case *protocol.Event:
		if l.onEvent != nil {
			l.onEvent(f)
		}
	case *protocol.Ping:
		_ = l.send(protocol.Pong{})
	}
}

// Close fails every command in flight with browser_not_connected. It is safe
// to call more than once.
func (l *Link) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shut {
		return
	}
	l.shut = true
	close(l.done)
}

func (l *Link) forget(id string) {
	l.mu.Lock()
	delete(l.pending, id)
	l.mu.Unlock()
}

// ContextError maps the end of ctx to a coded error for what was running:
// timeout when its deadline passed, cancelled otherwise.
func ContextError(ctx context.Context, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return protocol.Errorf(protocol.CodeTimeout, "%s did not finish in time", what).
			WithHint("retry")
	}
	return protocol.Errorf(protocol.CodeCancelled, "%s was cancelled", what)
}

var errBrowserGone = protocol.Errorf(protocol.CodeBrowserNotConnected, "the browser disconnected").
	WithHint("retry in a moment: the extension reconnects by itself; if it does not, run: openchrome doctor")
