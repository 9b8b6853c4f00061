package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// eventTimeout bounds the work one human action starts: a Finish takes a
// snapshot of the tab, nothing slower.
const eventTimeout = 30 * time.Second

// BrowserEvent handles what a person did in a browser's side panel or
// banner (docs/human.md). It returns at once: the work needs commands on the
// very browser whose read loop calls it. Wire it to the registry's OnEvent.
func (e *Engine) BrowserEvent(browser string, ev *protocol.Event) {
	if ev.Name == "agent.stop" {
		// At once, before this browser's next frame is read: the results
		// of the commands its Stop aborts come next, and the calls waiting
		// for them must already know why.
		e.inflight.cancelAll(nil)
	}
	e.goOwned(func(ctx context.Context) { e.handleEvent(ctx, browser, ev) })
}

func (e *Engine) handleEvent(ctx context.Context, browser string, ev *protocol.Event) {
	ctx, done := context.WithTimeout(ctx, eventTimeout)
	defer done()
	var data struct {
		HandoffID string `json:"handoffId"`
		TaskID    string `json:"taskId"`
	}
	if len(ev.Data) > 0 {
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			e.log.Warn("event with bad data", "event", ev.Name, "err", err)
			return
		}
	}
	start := e.now()
	var err error
	switch ev.Name {
	case "handoff.finish", "handoff.cancel":
		if e.handoffs == nil {
			return
		}
		if ev.Name == "handoff.cancel" {
			_, err = e.handoffs.Cancel(ctx, data.HandoffID, handoff.ByPerson)
			break
		}
		l := e.link(browser)
		if l == nil {
			return
		}
		_, err = e.handoffs.Finish(ctx, l, data.HandoffID, handoff.ByPerson)
	case "task.cancel":
		if e.tasks == nil {
			return
		}
		if m, gerr := e.tasks.Store().Get(data.TaskID); gerr == nil && task.IsEnvelope(m) {
			_, err = e.envelopes.Finish(ctx, data.TaskID, ledger.StatusCancelled, "the person ended it in the side panel", "person")
			break
		}
		_, err = e.tasks.Cancel(ctx, data.TaskID)
	case "agent.stop":
		e.Stop(ctx, nil, true)
	default:
		e.log.Warn("unknown event", "event", ev.Name, "browser", browser)
		return
	}
	// The person's actions show in the activity too, beside the agent's.
	a := activity{At: start.UTC(), Agent: "you", Tool: ev.Name, Ms: e.now().Sub(start).Milliseconds(), OK: err == nil}
	if err != nil {
		a.Error = string(protocol.AsError(err).Code)
		e.log.Info("event refused", "event", ev.Name, "err", err)
	}
	e.state.record(a)
	e.changed()
}

// link returns the browser with id, or nil (logged) when it has gone.
func (e *Engine) link(id string) *bridge.Link {
	if e.browsers == nil {
		return nil
	}
	l, err := e.browsers.Browser(id)
	if err != nil {
		e.log.Info("event from a browser that has gone", "browser", id)
		return nil
	}
	return l
}
