package engine

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/feedback"
	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/host/policy"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// What the side panel shows, and how much of it (docs/human.md).
const (
	maxActivity     = 50
	maxStateTasks   = 20
	maxStateHandoff = 20
	// stateEvery coalesces changes: a crawl's progress or a burst of
	// calls sends one state, not one per change.
	stateEvery = 100 * time.Millisecond
)

// activity is one call, as the person sees it: never its arguments.
type activity struct {
	At    time.Time `json:"at"`
	Agent string    `json:"agent"`
	Tool  string    `json:"tool"`
	TabID int       `json:"tabId,omitempty"`
	Ms    int64     `json:"ms"`
	OK    bool      `json:"ok"`
	Error string    `json:"error,omitempty"`
	// Detail says what the call did where its tool alone does not: the
	// files upload_file gave a page.
	Detail string `json:"detail,omitempty"`
	// Origin is the tab's scheme://host[:port], as the audit log has it.
	Origin string `json:"origin,omitempty"`
}

type stateTask struct {
	ID        string           `json:"id"`
	Kind      string           `json:"kind"`
	Status    ledger.Status    `json:"status"`
	CreatedAt time.Time        `json:"created_at"`
	Progress  *ledger.Progress `json:"progress,omitempty"`
}

type panelState struct {
	At        time.Time       `json:"at"`
	Activity  []activity      `json:"activity"`
	Tasks     []stateTask     `json:"tasks"`
	Envelopes []task.Shown    `json:"envelopes"` // open ones, newest first
	Handoffs  []handoff.Shown `json:"handoffs"`
	// Feedback is the questions waiting for the person: the extension
	// withdraws one it keeps that is not listed here (its agent is gone).
	Feedback []feedback.Shown `json:"feedback"`
	// Policy is the person's site policy, which the extension applies to
	// the navigations agent tabs make themselves, and the panel shows.
	Policy policy.Rules `json:"policy"`
}

// stateKeeper holds the activity and sends the side panel's state to the
// browsers when something changed, at most every stateEvery.
type stateKeeper struct {
	mu       sync.Mutex // guards the fields below
	activity []activity // newest last
	pending  bool       // a send is scheduled
}

// record adds one call to the activity.
func (k *stateKeeper) record(a activity) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.activity = append(k.activity, a)
	if n := len(k.activity) - maxActivity; n > 0 {
		k.activity = slices.Delete(k.activity, 0, n)
	}
}

// recent returns the activity, newest first.
func (k *stateKeeper) recent() []activity {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := slices.Clone(k.activity)
	slices.Reverse(out)
	return out
}

// changed schedules a state for the browsers, at most one per stateEvery.
func (e *Engine) changed() {
	if e.browsers == nil {
		return // no browser to show it in
	}
	k := &e.state
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.pending {
		return
	}
	k.pending = true
	e.goOwned(func(ctx context.Context) {
		t := time.NewTimer(stateEvery)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		k.mu.Lock()
		k.pending = false
		k.mu.Unlock()
		e.browsers.Broadcast(e.stateFrame())
	})
}

// sendState sends the state to the browsers now, ahead of any command sent
// after it.
func (e *Engine) sendState() {
	if e.browsers != nil {
		e.browsers.Broadcast(e.stateFrame())
	}
}

// BrowserConnected sends a browser that has just said hello the state, so
// its side panel is right from the start. Wire it to the registry's
// OnConnect.
func (e *Engine) BrowserConnected(l *bridge.Link) {
	e.questions.BrowserConnected() // a question whose browser went away asks it again
	if err := l.Send(e.stateFrame()); err != nil {
		e.log.Debug("state not sent", "browser", l.Info().ID, "err", err)
	}
}

func (e *Engine) stateFrame() protocol.State {
	b, err := json.Marshal(e.panelState())
	if err != nil {
		panic("engine: state: " + err.Error()) // our own structs
	}
	return protocol.State{Data: b}
}

// panelState gathers what the side panel shows. Everything in it went
// through the redaction layer on its way into the ledger already; the
// activity has no arguments at all.
func (e *Engine) panelState() panelState {
	now := e.now().UTC()
	s := panelState{At: now, Activity: e.state.recent(), Tasks: []stateTask{}, Envelopes: []task.Shown{}, Handoffs: []handoff.Shown{},
		Feedback: e.questions.Shown(), Policy: e.rules()}
	if e.envelopes != nil {
		s.Envelopes = append(s.Envelopes, e.envelopes.Shown()...)
	}
	if e.tasks != nil {
		// The daemon's own tasks are all there are: a dead daemon's were
		// reaped before this one started. No listing of the whole ledger.
		store := e.tasks.Store()
		for _, id := range e.tasks.IDs() {
			m, err := store.Get(id)
			if err != nil {
				e.log.Warn("side panel: task not shown", "task", id, "err", err)
				continue
			}
			if !store.Lifecycle().Terminal(m.Status) {
				s.Tasks = append(s.Tasks, stateTask{ID: m.ID, Kind: m.Kind, Status: m.Status, CreatedAt: m.CreatedAt, Progress: m.Progress})
			}
		}
		slices.SortFunc(s.Tasks, func(a, b stateTask) int { return b.CreatedAt.Compare(a.CreatedAt) })
		s.Tasks = s.Tasks[:min(len(s.Tasks), maxStateTasks)]
	}
	if e.handoffs != nil {
		shown, err := e.handoffs.Shown(maxStateHandoff)
		if err != nil {
			e.log.Warn("side panel: handoffs not shown", "err", err)
		}
		s.Handoffs = append(s.Handoffs, shown...)
	}
	return s
}
