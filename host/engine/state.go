package engine

import (
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// What the side panel shows, and how much of it (docs/human.md).
const (
	maxActivity     = 50
	maxStateTasks   = 20
	maxStateHandoff = 20
	endedShownFor   = 10 * time.Minute
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
}

type stateTask struct {
	ID        string           `json:"id"`
	Kind      string           `json:"kind"`
	Status    ledger.Status    `json:"status"`
	CreatedAt time.Time        `json:"created_at"`
	Progress  *ledger.Progress `json:"progress,omitempty"`
}

type stateHandoff struct {
	ID           string        `json:"id"`
	Status       ledger.Status `json:"status"`
	Reason       string        `json:"reason"`
	Instruction  string        `json:"instruction,omitempty"`
	TabID        int           `json:"tabId"`
	Origin       string        `json:"origin,omitempty"`
	Deadline     time.Time     `json:"deadline"`
	CreatedAt    time.Time     `json:"created_at"`
	EndedAt      *time.Time    `json:"ended_at,omitempty"`
	DeltaSummary string        `json:"delta_summary,omitempty"`
}

type panelState struct {
	At       time.Time      `json:"at"`
	Activity []activity     `json:"activity"`
	Tasks    []stateTask    `json:"tasks"`
	Handoffs []stateHandoff `json:"handoffs"`
}

// stateKeeper holds the activity and sends the side panel's state to the
// browsers when something changed, at most every stateEvery.
type stateKeeper struct {
	mu       sync.Mutex // guards the fields below
	activity []activity // newest last
	pending  bool       // a send is scheduled
	closed   bool
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

// changed schedules a state for the browsers.
func (e *Engine) changed() {
	if e.browsers == nil {
		return // no browser to show it in
	}
	k := &e.state
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.pending || k.closed {
		return
	}
	k.pending = true
	time.AfterFunc(stateEvery, func() {
		k.mu.Lock()
		k.pending = false
		closed := k.closed
		k.mu.Unlock()
		if !closed {
			e.browsers.Broadcast(e.stateFrame())
		}
	})
}

// BrowserConnected sends a browser that has just said hello the state, so
// its side panel is right from the start. Wire it to the registry's
// OnConnect.
func (e *Engine) BrowserConnected(l *bridge.Link) {
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
	s := panelState{At: now, Activity: e.state.recent(), Tasks: []stateTask{}, Handoffs: []stateHandoff{}}
	if e.tasks != nil {
		// The daemon's own tasks are all there are: a dead daemon's were
		// reaped before this one started. No listing of the whole ledger.
		for _, id := range e.tasks.ids() {
			if m, err := e.tasks.store.Get(id); err == nil && !e.tasks.store.Lifecycle().Terminal(m.Status) {
				s.Tasks = append(s.Tasks, stateTask{ID: m.ID, Kind: m.Kind, Status: m.Status, CreatedAt: m.CreatedAt, Progress: m.Progress})
			}
		}
		slices.SortFunc(s.Tasks, func(a, b stateTask) int { return b.CreatedAt.Compare(a.CreatedAt) })
		s.Tasks = s.Tasks[:min(len(s.Tasks), maxStateTasks)]
	}
	if e.handoffs != nil {
		list, err := e.handoffs.store.List(ledger.Filter{Limit: maxStateHandoff})
		if err != nil {
			e.log.Warn("state: handoffs", "err", err)
		}
		for _, m := range list {
			if m.Status != ledger.StatusRunning && (m.FinishedAt == nil || now.Sub(*m.FinishedAt) > endedShownFor) {
				continue
			}
			d, err := readDetail(m)
			if err != nil {
				continue
			}
			s.Handoffs = append(s.Handoffs, stateHandoff{
				ID: m.ID, Status: m.Status, Reason: d.Reason, Instruction: d.Instruction, TabID: d.TabID,
				Origin: d.Before.Origin, Deadline: d.Deadline, CreatedAt: m.CreatedAt, EndedAt: m.FinishedAt,
				DeltaSummary: d.DeltaSummary,
			})
		}
		// Waiting ones first: they are what the person must act on.
		slices.SortStableFunc(s.Handoffs, func(a, b stateHandoff) int {
			return boolRank(a.Status != ledger.StatusRunning) - boolRank(b.Status != ledger.StatusRunning)
		})
	}
	return s
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
