package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Events an envelope writes beside the ledger's own.
const (
	EventCall       = "call"
	EventPhase      = "phase"
	EventNote       = "note"
	EventCheckpoint = "checkpoint"
)

// EnvelopeOptions configure Envelopes. Store is required: the tasks'.
type EnvelopeOptions struct {
	Store   *ledger.Store
	Log     *slog.Logger
	Now     func() time.Time
	Changed func() // told when an envelope opens, counts or closes
}

// Envelopes keeps the task envelopes. The record in the ledger is the
// truth: the objective, phase and policy in meta.json, each call an event in
// events.jsonl (an append, cheap enough for every call; a meta.json rewrite
// is not). In memory it keeps what the calls of each open envelope add up
// to, so a call is checked and counted without reading its history.
type Envelopes struct {
	store   *ledger.Store
	log     *slog.Logger
	now     func() time.Time
	changed func()

	mu   sync.Mutex // guards open
	open map[string]*envelope
}

// envelope is an open envelope's state in memory.
type envelope struct {
	mu       sync.Mutex // guards the fields below, and orders its calls' events
	detail   Detail
	started  time.Time
	tally    Tally
	inflight int // calls begun and not yet counted: they hold a place in the budget
}

// NewEnvelopes returns the keeper of opts.Store's envelopes.
func NewEnvelopes(opts EnvelopeOptions) *Envelopes {
	if opts.Store == nil {
		panic("task: NewEnvelopes without a store")
	}
	e := &Envelopes{store: opts.Store, log: opts.Log, now: opts.Now, changed: opts.Changed, open: map[string]*envelope{}}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.changed == nil {
		e.changed = func() {}
	}
	return e
}

// Open starts an envelope: a task record RUNNING from now on, until the
// agent finishes it or the person cancels it.
func (e *Envelopes) Open(ctx context.Context, d Detail, argsSummary string) (ledger.Meta, error) {
	if d.Phase == "" {
		d.Phase = PhaseExplore
	}
	if err := d.Policy.Validate(); err != nil {
		return ledger.Meta{}, err
	}
	m, err := e.store.Create(KindEnvelope, argsSummary, d)
	if err != nil {
		return m, err
	}
	if m, err = e.store.Transition(ctx, m.ID, ledger.StatusRunning, nil); err != nil {
		return m, err
	}
	if _, err := e.load(m.ID); err != nil {
		return m, err
	}
	e.changed()
	return m, nil
}

// Load reads every open envelope into memory, so the side panel shows
// them from the start. A record it cannot read is in the error; the others
// are loaded.
func (e *Envelopes) Load() error {
	list, err := e.store.List(ledger.Filter{Status: ledger.StatusRunning, Kind: KindEnvelope, Limit: 10_000})
	if err != nil {
		return err
	}
	var errs []error
	for _, m := range list {
		if _, err := e.load(m.ID); err != nil {
			e.log.Warn("envelope not loaded", "task", m.ID, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Shown is an open envelope as the side panel shows it.
type Shown struct {
	ID        string    `json:"id"`
	Objective string    `json:"objective"`
	Phase     string    `json:"phase"`
	CreatedAt time.Time `json:"created_at"`
	Calls     int       `json:"calls"`
	MaxCalls  int       `json:"max_calls,omitempty"`
	ElapsedMs int64     `json:"elapsed_ms"`
	MaxWallMs int64     `json:"max_wall_ms,omitempty"`
	Budget
	Warning string `json:"warning,omitempty"` // the latest
}

// Shown lists the open envelopes, newest first, for the side panel.
func (e *Envelopes) Shown() []Shown {
	e.mu.Lock()
	ids := make([]string, 0, len(e.open))
	envs := make([]*envelope, 0, len(e.open))
	for id, env := range e.open {
		ids, envs = append(ids, id), append(envs, env)
	}
	e.mu.Unlock()
	now := e.now()
	out := make([]Shown, 0, len(envs))
	for i, env := range envs {
		env.mu.Lock()
		p := env.detail.Policy.WithDefaults()
		s := Shown{ID: ids[i], Objective: env.detail.Objective, Phase: env.detail.Phase, CreatedAt: env.started,
			Calls: env.tally.Counters.Calls, MaxCalls: p.MaxToolCalls, ElapsedMs: now.Sub(env.started).Milliseconds(),
			MaxWallMs: p.MaxWallMs, Budget: Assess(p, env.tally, now.Sub(env.started))}
		if w := env.tally.Warnings; len(w) > 0 {
			s.Warning = w[len(w)-1].Message
		}
		env.mu.Unlock()
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Shown) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out
}

// Adopt takes over the envelopes a dead daemon left RUNNING, so that a
// daemon restart keeps them and their counts. The daemon calls it before it
// reaps orphans: an envelope is the agent's work, not the daemon's. It
// returns how many it adopted; a record it cannot adopt is in the error.
func Adopt(ctx context.Context, store *ledger.Store) (int, error) {
	list, err := store.List(ledger.Filter{Status: ledger.StatusRunning, Kind: KindEnvelope, Limit: 10_000})
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, m := range list {
		if _, err := store.Adopt(ctx, m.ID); err == nil {
			n++
		} else if !errors.Is(err, protocol.ErrConflict) {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

// load returns the open envelope id, reading it from the ledger the first
// time. A record that is not an open envelope is refused with a coded error
// that says what it is.
func (e *Envelopes) load(id string) (*envelope, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if env := e.open[id]; env != nil {
		return env, nil
	}
	m, err := e.store.Get(id)
	if err != nil {
		return nil, envelopeError(id, err)
	}
	d, err := readDetail(m)
	if err != nil {
		return nil, err
	}
	if e.store.Lifecycle().Terminal(m.Status) {
		return nil, closedError(m, d)
	}
	if d.Objective == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "task %s is a %s job, not an envelope", id, m.Kind).
			WithHint("open an envelope with oc_task_start {objective}, and pass its task_id as taskId")
	}
	calls, _, err := e.history(id)
	if err != nil {
		return nil, err
	}
	env := &envelope{detail: d, started: m.CreatedAt}
	if m.StartedAt != nil {
		env.started = *m.StartedAt
	}
	p := d.Policy.WithDefaults()
	for _, c := range calls {
		env.tally.Add(p, c)
	}
	e.open[id] = env
	return env, nil
}

// forget drops a closed envelope from memory.
func (e *Envelopes) forget(id string) {
	e.mu.Lock()
	delete(e.open, id)
	e.mu.Unlock()
}

// Ticket is a call begun against an envelope; End counts it.
type Ticket struct {
	e     *Envelopes
	id    string
	env   *envelope
	ended bool
}

// Begin checks that a call of tool may go ahead in envelope id, and holds
// its place in the budget until End. It refuses (and counts nothing) when
// the envelope is closed (conflict, or cancelled when the person ended it),
// when its call or time budget is spent (budget_exceeded), and when dest,
// the URL the call would open (navigate, tabs_create), is outside its
// allowedDomains (domain_blocked). Nothing reaches the page then.
func (e *Envelopes) Begin(ctx context.Context, id, tool, dest string) (*Ticket, error) {
	env, err := e.load(id)
	if err != nil {
		return nil, err
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	p := env.detail.Policy
	if why := Hard(p, env.tally.Counters.Calls+env.inflight, e.now().Sub(env.started)); why != "" {
		return nil, protocol.Errorf(protocol.CodeBudgetExceeded, "task %s refuses %s: %s", id, tool, why).
			WithHint("call oc_task_finish, or oc_task_start for a new envelope if the work must go on")
	}
	if dest != "" && !p.Allows(dest) {
		return nil, protocol.Errorf(protocol.CodeDomainBlocked, "task %s allows only %v; %s is outside them", id, p.AllowedDomains, dest).
			WithHint("stay within the envelope's allowedDomains, or start a new envelope for the other site")
	}
	env.inflight++
	return &Ticket{e: e, id: id, env: env}, nil
}

// Standing is an envelope's state after a call: what the tool's result
// says of it in one line.
type Standing struct {
	TaskID string
	Calls  int
	Policy Policy
	Budget Budget
}

// Line is the one short line a tool's result gains when its call was
// counted against an envelope.
func (s Standing) Line() string {
	calls := fmt.Sprintf("%d calls", s.Calls)
	if s.Policy.MaxToolCalls > 0 {
		calls = fmt.Sprintf("%d of %d calls", s.Calls, s.Policy.MaxToolCalls)
	}
	line := fmt.Sprintf("task %s: budget %s, %s", s.TaskID, s.Budget.Level, calls)
	if len(s.Budget.Why) > 0 {
		line += " (" + s.Budget.Why[0] + ")"
	}
	if s.Budget.Next != "" {
		line += "; next: " + s.Budget.Next
	}
	return line
}

// End counts the call: one event, and the envelope's state in memory. With
// a checkpoint due (checkpointEveryCalls), where says where the tab is now.
// It returns the envelope's standing, for the result's line.
func (t *Ticket) End(ctx context.Context, c Call, where func() (url, title string)) Standing {
	env := t.env
	env.mu.Lock()
	defer env.mu.Unlock()
	if !t.ended {
		t.ended = true
		env.inflight--
	}
	p := env.detail.Policy.WithDefaults()
	env.tally.Add(p, c)
	// Under env.mu, so the events are in the order the calls were counted.
	if err := t.e.store.Append(ctx, t.id, EventCall, c); err != nil {
		t.e.log.Warn("envelope: call not recorded", "task", t.id, "err", err)
	}
	n := env.tally.Counters
	if every := p.CheckpointEveryCalls; every > 0 && n.Calls%every == 0 {
		cp := map[string]any{"call": n.Calls, "counters": n}
		if where != nil {
			cp["url"], cp["title"] = where()
		}
		if err := t.e.store.Append(ctx, t.id, EventCheckpoint, cp); err != nil {
			t.e.log.Warn("envelope: checkpoint not recorded", "task", t.id, "err", err)
		}
	}
	t.e.changed()
	return Standing{TaskID: t.id, Calls: n.Calls, Policy: p, Budget: Assess(p, env.tally, t.e.now().Sub(env.started))}
}

// Release gives back a ticket's place without counting a call: for a call
// that never ran.
func (t *Ticket) Release() {
	t.env.mu.Lock()
	defer t.env.mu.Unlock()
	if !t.ended {
		t.ended = true
		t.env.inflight--
	}
}

// Note is something the agent said of its task, with when.
type Note struct {
	At   time.Time `json:"at"`
	Text string    `json:"text"`
}

// View is an envelope as oc_task_get shows it.
type View struct {
	ledger.Meta
	Objective string    `json:"objective"`
	Phase     string    `json:"phase"`
	Policy    Policy    `json:"policy"`
	Counters  Counters  `json:"counters"`
	ElapsedMs int64     `json:"elapsed_ms"`
	Budget              // budget_status, budget_reasons, recommended_next
	Warnings  []Warning `json:"warnings"`
	Notes     []Note    `json:"notes,omitempty"`
	EndedBy   string    `json:"ended_by,omitempty"`
	Note      string    `json:"note,omitempty"` // the closing note
}

// Get returns envelope id as it stands, from the ledger: it works with no
// daemon, and sees what any process recorded.
func (e *Envelopes) Get(id string) (View, error) {
	m, err := e.store.Get(id)
	if err != nil {
		return View{}, envelopeError(id, err)
	}
	return e.view(m)
}

// IsEnvelope reports whether m is an envelope's record.
func IsEnvelope(m ledger.Meta) bool { return m.Kind == KindEnvelope }

// view builds the view of an envelope's record from its events.
func (e *Envelopes) view(m ledger.Meta) (View, error) {
	d, err := readDetail(m)
	if err != nil {
		return View{}, err
	}
	calls, notes, err := e.history(m.ID)
	if err != nil {
		return View{}, err
	}
	p := d.Policy.WithDefaults()
	var t Tally
	for _, c := range calls {
		t.Add(p, c)
	}
	end := e.now()
	if m.FinishedAt != nil {
		end = *m.FinishedAt
	}
	start := m.CreatedAt
	if m.StartedAt != nil {
		start = *m.StartedAt
	}
	v := View{Meta: m, Objective: d.Objective, Phase: d.Phase, Policy: p, Counters: t.Counters,
		ElapsedMs: end.Sub(start).Milliseconds(), Budget: Assess(p, t, end.Sub(start)),
		Warnings: t.Warnings, Notes: notes, EndedBy: d.EndedBy, Note: d.Note}
	v.Meta.Detail = nil // said field by field above
	if v.Counters.Navigations == nil {
		v.Counters.Navigations = map[string]int{}
	}
	if v.Warnings == nil {
		v.Warnings = []Warning{}
	}
	return v, nil
}

// history reads an envelope's calls and notes from its events.
func (e *Envelopes) history(id string) ([]Call, []Note, error) {
	events, err := e.store.Events(id)
	if err != nil {
		return nil, nil, envelopeError(id, err)
	}
	var calls []Call
	var notes []Note
	for _, ev := range events {
		switch ev.Kind {
		case EventCall:
			var c Call
			if err := json.Unmarshal(ev.Data, &c); err != nil {
				e.log.Warn("envelope: unreadable call event", "task", id, "err", err)
				continue
			}
			calls = append(calls, c)
		case EventNote:
			var n struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(ev.Data, &n) == nil {
				notes = append(notes, Note{At: ev.TS, Text: n.Text})
			}
		}
	}
	return calls, notes, nil
}

// Update changes an envelope's phase and adds a note, without touching the
// browser. Either may be empty.
func (e *Envelopes) Update(ctx context.Context, id, phase, note string) (View, error) {
	env, err := e.load(id)
	if err != nil {
		return View{}, err
	}
	if phase != "" && !slices.Contains(Phases(), phase) {
		return View{}, protocol.Errorf(protocol.CodeBadRequest, "phase %q is not one of %v", phase, Phases())
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	if phase != "" && phase != env.detail.Phase {
		d := env.detail
		from := d.Phase
		d.Phase = phase
		if _, err := e.store.Update(ctx, id, func(m *ledger.Meta) error { return setDetail(m, d) }); err != nil {
			return View{}, envelopeError(id, err)
		}
		env.detail = d
		if err := e.store.Append(ctx, id, EventPhase, map[string]string{"from": from, "to": phase}); err != nil {
			return View{}, envelopeError(id, err)
		}
	}
	if note != "" {
		if err := e.store.Append(ctx, id, EventNote, map[string]string{"text": note}); err != nil {
			return View{}, envelopeError(id, err)
		}
	}
	e.changed()
	return e.Get(id)
}

// Finish closes an envelope: COMPLETED, FAILED or CANCELLED, with a note
// and who ended it. A closed envelope never changes again; a call that
// names it is refused.
func (e *Envelopes) Finish(ctx context.Context, id string, to ledger.Status, note, by string) (View, error) {
	m, err := e.store.Get(id)
	if err != nil {
		return View{}, envelopeError(id, err)
	}
	if !IsEnvelope(m) {
		return View{}, protocol.Errorf(protocol.CodeBadRequest, "task %s is a %s job, not an envelope", id, m.Kind).
			WithHint("oc_task_cancel stops a job")
	}
	if e.store.Lifecycle().Terminal(m.Status) {
		d, _ := readDetail(m)
		return View{}, closedError(m, d)
	}
	m, err = e.store.Transition(ctx, id, to, func(m *ledger.Meta) {
		d, err := readDetail(*m)
		if err != nil {
			return // a damaged detail stays as it is; the status still ends it
		}
		d.EndedBy, d.Note = by, note
		if to == ledger.StatusCompleted {
			d.Phase = PhaseDone
		}
		_ = setDetail(m, d)
	})
	if err != nil {
		return View{}, envelopeError(id, err)
	}
	e.forget(id)
	e.changed()
	return e.view(m)
}

func readDetail(m ledger.Meta) (Detail, error) {
	var d Detail
	if len(m.Detail) == 0 {
		return d, nil // a job without an objective
	}
	if err := json.Unmarshal(m.Detail, &d); err != nil {
		return d, protocol.Errorf(protocol.CodeInternal, "task %s has a damaged record (its meta.json detail does not decode)", m.ID).
			WithHint("oc_task_cancel still ends it; start a new envelope with oc_task_start").
			WithCause(fmt.Errorf("task: %s: detail: %w", m.ID, err))
	}
	return d, nil
}

func setDetail(m *ledger.Meta, d Detail) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	m.Detail = b
	return nil
}

// closedError refuses a call against an envelope that has ended, saying
// how: the person's Cancel is cancelled, anything else conflict.
func closedError(m ledger.Meta, d Detail) error {
	if d.EndedBy == "person" {
		return protocol.Errorf(protocol.CodeCancelled, "the person ended task %s (%q) in the side panel", m.ID, d.Objective).
			WithHint("ask the person before you go on")
	}
	return protocol.Errorf(protocol.CodeConflict, "task %s has ended (%s)", m.ID, m.Status).
		WithHint("start a new envelope with oc_task_start if there is more to do")
}

// envelopeError adds the fix to a store's error about an envelope.
func envelopeError(id string, err error) error {
	e := protocol.AsError(err)
	if e.Code == protocol.CodeNotFound {
		return protocol.Errorf(protocol.CodeNotFound, "no task %s", id).
			WithHint("taskId is the task_id oc_task_start returned; oc_task_list shows the tasks")
	}
	return err
}
