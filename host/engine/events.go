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
		// of the commands its Stop aborts come next, and the calls and
		// tasks waiting for them must already know why. A crawl that did
		// not would keep the abort as a page's error and send the next
		// page to the browser that has just let go of its tabs. Stop
		// waits on no browser, only on the ledger.
		start := e.now()
		ctx, done := context.WithTimeout(e.ctx, eventTimeout)
		defer done()
		e.Stop(ctx, nil, true)
		e.personDid(ev.Name, start, nil)
		return
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
	default:
		e.log.Warn("unknown event", "event", ev.Name, "browser", browser)
		return
	}
	e.personDid(ev.Name, start, err)
}

// personDid records what the person did in a browser, begun at start and
// refused with err (nil when done): it shows in the activity too, beside
// the agent's calls.
func (e *Engine) personDid(event string, start time.Time, err error) {
	a := activity{At: start.UTC(), Agent: "you", Tool: event, Ms: e.now().Sub(start).Milliseconds(), OK: err == nil}
	if err != nil {
		a.Error = string(protocol.AsError(err).Code)
		e.log.Info("event refused", "event", event, "err", err)
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
