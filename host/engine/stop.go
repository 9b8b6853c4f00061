package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/protocol"
)

// errStopped is the cause of a call's context when the person stopped the
// agent: the call ends cancelled, saying so.
var errStopped = errors.New("stopped by the person")

// inflight is the calls running now, so that Stop can cancel them.
type inflight struct {
	mu    sync.Mutex // guards calls
	calls map[*call]context.CancelCauseFunc
}

func (f *inflight) add(c *call, cancel context.CancelCauseFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[*call]context.CancelCauseFunc{}
	}
	f.calls[c] = cancel
}

func (f *inflight) remove(c *call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.calls, c)
}

// cancelAll cancels every call but except; it returns how many.
func (f *inflight) cancelAll(except *call) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for c, cancel := range f.calls {
		if c != except {
			cancel(errStopped)
			n++
		}
	}
	return n
}

// stopReport says what a Stop stopped.
type stopReport struct {
	Calls    int `json:"cancelled_calls"`
	Tasks    int `json:"cancelled_tasks"`
	Handoffs int `json:"cancelled_handoffs"`
	// Browser is what the extensions stopped: commands, banners, debugger
	// sessions. Absent when the person pressed Stop (their extension did
	// its part already).
	Browser []browser.Stopped `json:"browser,omitempty"`
}

// Stop stops everything the agents have going: every call in flight but
// except (the oc_stop call itself, or nil), every background task this
// daemon runs, every running handoff; and, unless the person pressed Stop in
// a browser (whose extension has stopped itself), it tells every browser to
// drop its commands, overlays and debugger sessions.
func (e *Engine) Stop(ctx context.Context, except *call, fromPerson bool) stopReport {
	r := stopReport{Calls: e.inflight.cancelAll(except)}
	if e.tasks != nil {
		r.Tasks = e.tasks.CancelAll(ctx)
	}
	if e.handoffs != nil {
		for _, id := range e.handoffs.Running() {
			if _, err := e.handoffs.Cancel(ctx, id, handoff.ByStop); err == nil {
				r.Handoffs++
			}
		}
	}
	if !fromPerson && e.browsers != nil {
		for _, info := range e.browsers.List() {
			l, err := e.browsers.Browser(info.ID)
			if err != nil {
				continue
			}
			out, err := browser.BrowserStop().Run(ctx, l)
			if err != nil {
				e.log.Warn("browser did not stop", "browser", info.ID, "err", err)
				continue
			}
			r.Browser = append(r.Browser, out)
		}
	}
	e.log.Info("stopped", "by_person", fromPerson, "calls", r.Calls, "tasks", r.Tasks, "handoffs", r.Handoffs)
	e.changed()
	return r
}

func stopTool() Tool {
	return define("oc_stop", GroupCore,
		"Stop every call, task and handoff in flight, as the side panel's Stop button does.",
		func(ctx context.Context, c *call, _ struct{}) (*protocol.ToolResult, error) {
			if _, err := c.browser(); err != nil {
				return nil, err
			}
			ctx, done := context.WithTimeout(ctx, 10*time.Second)
			defer done()
			return jsonResult(c.engine.Stop(ctx, c, false))
		})
}

// stoppedError is what a call the person stopped returns.
func stoppedError(tool string) error {
	return protocol.Errorf(protocol.CodeCancelled, "%s was stopped: the person pressed Stop", tool).
		WithHint("ask the person before you go on")
}
