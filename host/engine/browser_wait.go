package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

// DefaultBrowserWait bounds how long a background task waits for its
// browser to come back. Chrome stops the extension's service worker on an
// update, a reload, a crash or under memory pressure; the worker wakes
// itself and reconnects within seconds (docs/design.md, Processes), so two
// minutes is ample for that and short enough that a browser that was closed
// fails the task while someone still cares.
const DefaultBrowserWait = 2 * time.Minute

// startGrace is how long after the daemon starts an agent's call waits for
// a browser instead of failing: the native host that started the daemon
// links its browser within milliseconds of bridge.json appearing, and an
// agent that was waiting for the daemon (it restarted) may call first.
const startGrace = 2 * time.Second

// link returns the browser c sends its commands to: a background task's
// call waits for one (browserWait), an agent's call only in the daemon's
// first moments (startGrace).
func (c *call) link(ctx context.Context) (*bridge.Link, error) {
	l, err := c.browser()
	reg := c.engine.browsers
	if err == nil || reg == nil || !errors.Is(err, protocol.ErrBrowserNotConnected) {
		return l, err
	}
	if c.wait != nil {
		return c.wait.link(ctx, reg)
	}
	left := c.engine.started.Add(startGrace).Sub(c.engine.now())
	if left <= 0 {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, left)
	defer cancel()
	if l, werr := reg.Wait(wctx); werr == nil {
		return l, nil
	}
	return nil, err
}

// browserWait is a background task's patience with a browser that went
// away: its calls wait for one to be linked again, up to bound, instead of
// failing. Only tasks wait: an agent's call in flight fails at once with
// browser_not_connected, and the agent decides whether to call again.
//
// A command already sent when the link dropped is not sent again (it may
// have acted); the job decides what to repeat (a crawl visits the page
// again: reading is safe to repeat).
type browserWait struct {
	sink  *task.Sink
	bound time.Duration

	mu      sync.Mutex // guards the fields below
	waiting int        // the task's calls waiting now: the first says so, the last that it is over
	gaveUp  error      // set once a wait ran out: the task is failing, no call waits again
}

// link returns the browser to send a command to, waiting for one when none
// is linked. Past the bound it fails with browser_not_connected.
func (w *browserWait) link(ctx context.Context, reg *bridge.Registry) (*bridge.Link, error) {
	if l, err := reg.Browser(""); err == nil {
		return l, nil
	}
	if err := w.begin(); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, w.bound)
	defer cancel()
	l, err := reg.Wait(wctx)
	switch {
	case err == nil:
		w.end(nil)
		return l, nil
	case ctx.Err() != nil:
		w.end(nil)
		return nil, bridge.ContextError(ctx, "waiting for the browser")
	}
	err = protocol.Errorf(protocol.CodeBrowserNotConnected,
		"the browser did not reconnect within %s", w.bound).
		WithHint("open Chrome with the OpenChrome extension (or run: openchrome launch), then start the task again; run: openchrome doctor").
		WithCause(err)
	w.end(err)
	return nil, err
}

// begin counts a call in as waiting, or says the task gave up.
func (w *browserWait) begin() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gaveUp != nil {
		return w.gaveUp
	}
	w.waiting++
	if w.waiting == 1 {
		w.sink.State("waiting_for_browser", "waiting for the browser to reconnect (at most %s)", w.bound)
	}
	return nil
}

// end counts a call out; gaveUp, when not nil, is why its wait ran out.
func (w *browserWait) end(gaveUp error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waiting--
	if gaveUp != nil && w.gaveUp == nil {
		w.gaveUp = gaveUp
	}
	if w.waiting == 0 && w.gaveUp == nil {
		w.sink.State("browser_reconnected", "the browser reconnected; going on")
	}
}
