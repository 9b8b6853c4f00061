package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Handoff limits.
const (
	defaultHandoffTimeout = 10 * time.Minute
	maxHandoffTimeout     = 60 * time.Minute
	minHandoffTimeout     = time.Second
	maxInstruction        = 1024 // bytes
)

// Who ended a handoff.
const (
	endedByAgent   = "agent"
	endedByPerson  = "person"
	endedByTimeout = "timeout"
	endedByStop    = "stop"
)

// handoffDetail is a handoff's own part of its ledger record (Meta.Detail).
type handoffDetail struct {
	Reason      string `json:"reason"`
	Instruction string `json:"instruction,omitempty"`
	TabID       int    `json:"tab_id"`
	// Browser is the browser the tab is in, for snapshots taken when the
	// person presses Finish.
	Browser    string    `json:"browser,omitempty"`
	RunID      string    `json:"run_id,omitempty"`
	Deadline   time.Time `json:"deadline"`
	Screenshot bool      `json:"capture_screenshot,omitempty"`

	Before       handoffSnapshot  `json:"before"`
	After        *handoffSnapshot `json:"after,omitempty"`
	Delta        *handoffDelta    `json:"delta,omitempty"`
	DeltaSummary string           `json:"delta_summary,omitempty"`
	ResumeHint   string           `json:"resume_hint,omitempty"`
	EndedBy      string           `json:"ended_by,omitempty"`
	// RunEvidence says what became of the pointer to run_id's task.
	RunEvidence string `json:"run_evidence,omitempty"`
}

func readDetail(m ledger.Meta) (handoffDetail, error) {
	var d handoffDetail
	if err := json.Unmarshal(m.Detail, &d); err != nil {
		return d, fmt.Errorf("engine: handoff %s: detail: %w", m.ID, err)
	}
	return d, nil
}

func setDetail(m *ledger.Meta, d handoffDetail) {
	b, err := json.Marshal(d)
	if err != nil {
		panic("engine: handoff detail: " + err.Error()) // our own struct
	}
	m.Detail = b
}

// handoffs keeps the daemon's side of the handoffs: the timers that time
// them out and which tab each running one holds.
type handoffs struct {
	store *ledger.Store
	log   *slog.Logger
	now   func() time.Time

	mu     sync.Mutex // guards the fields below
	timers map[string]*time.Timer
	byTab  map[int]string // tab -> its RUNNING handoff
	closed bool
}

func newHandoffs(store *ledger.Store, log *slog.Logger, now func() time.Time) *handoffs {
	return &handoffs{store: store, log: log, now: now, timers: map[string]*time.Timer{}, byTab: map[int]string{}}
}

// track arms the timeout of a RUNNING handoff and marks its tab as held.
// expire runs at the deadline.
func (h *handoffs) track(id string, d handoffDetail, expire func(id string)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if t := h.timers[id]; t != nil {
		t.Stop()
	}
	h.timers[id] = time.AfterFunc(max(d.Deadline.Sub(h.now()), 0), func() { expire(id) })
	h.byTab[d.TabID] = id
}

// untrack forgets a handoff that has ended.
func (h *handoffs) untrack(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.timers[id]; t != nil {
		t.Stop()
		delete(h.timers, id)
	}
	for tab, hid := range h.byTab {
		if hid == id {
			delete(h.byTab, tab)
		}
	}
}

// holding returns the RUNNING handoff that holds tab, if any.
func (h *handoffs) holding(tab int) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.byTab[tab]
}

// running lists the handoffs this daemon tracks.
func (h *handoffs) running() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.timers))
	for id := range h.timers {
		ids = append(ids, id)
	}
	return ids
}

func (h *handoffs) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, t := range h.timers {
		t.Stop()
	}
}

// ExpireHandoffs ends, as TIMED_OUT, every RUNNING handoff in store whose
// deadline has passed: a handoff's deadline holds even while no daemon was
// there to enforce it. The daemon calls it at start-up, before it reaps the
// orphans. It returns how many it ended.
func ExpireHandoffs(ctx context.Context, store *ledger.Store, now time.Time) (int, error) {
	running, err := store.List(ledger.Filter{Status: ledger.StatusRunning, Limit: 10_000})
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, m := range running {
		d, err := readDetail(m)
		if err != nil || now.Before(d.Deadline) {
			continue
		}
		if _, err := timeOut(ctx, store, m.ID, d); err == nil {
			n++
		} else if !errors.Is(err, protocol.ErrConflict) {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

// timeOut moves a RUNNING handoff to TIMED_OUT. A conflict means it had
// already ended.
func timeOut(ctx context.Context, store *ledger.Store, id string, d handoffDetail) (ledger.Meta, error) {
	d.EndedBy = endedByTimeout
	return store.Transition(ctx, id, ledger.StatusTimedOut, func(m *ledger.Meta) {
		setDetail(m, d)
		m.Error = &ledger.ErrorInfo{Code: string(protocol.CodeTimeout),
			Message: "nobody pressed Finish by " + d.Deadline.UTC().Format(time.RFC3339)}
	})
}

// handoffStore returns the ledger of handoffs, or says there is none.
func (e *Engine) handoffStore() (*ledger.Store, error) {
	if e.handoffs == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "this engine keeps no handoffs")
	}
	return e.handoffs.store, nil
}

// getHandoff reads a handoff, timing it out first when its deadline has
// passed: whoever looks first enforces the deadline, daemon or not.
func (e *Engine) getHandoff(ctx context.Context, id string) (ledger.Meta, handoffDetail, error) {
	store, err := e.handoffStore()
	if err != nil {
		return ledger.Meta{}, handoffDetail{}, err
	}
	m, err := store.Get(id)
	if err != nil {
		return m, handoffDetail{}, handoffError(err)
	}
	d, err := readDetail(m)
	if err != nil {
		return m, d, err
	}
	if m.Status == ledger.StatusRunning && !e.now().Before(d.Deadline) {
		if tm, err := timeOut(ctx, store, id, d); err == nil {
			e.handoffEnded(id)
			m, d = tm, mustDetail(tm, d)
		} else if m, err = store.Get(id); err == nil { // ended meanwhile
			d = mustDetail(m, d)
		}
	}
	return m, d, nil
}

// mustDetail reads m's detail, or keeps old when it cannot.
func mustDetail(m ledger.Meta, old handoffDetail) handoffDetail {
	if d, err := readDetail(m); err == nil {
		return d
	}
	return old
}

// expireHandoff is the timer's end of a handoff.
func (e *Engine) expireHandoff(id string) {
	ctx, done := context.WithTimeout(context.Background(), 10*time.Second)
	defer done()
	if _, _, err := e.getHandoff(ctx, id); err != nil {
		e.log.Warn("handoff did not time out", "handoff", id, "err", err)
	}
}

// handoffEnded forgets an ended handoff and tells the side panel.
func (e *Engine) handoffEnded(id string) {
	if e.handoffs != nil {
		e.handoffs.untrack(id)
	}
	e.changed()
}

// snapshotTab takes a handoff snapshot of tab through do.
func (e *Engine) snapshotTab(ctx context.Context, do doer, tab int) (handoffSnapshot, error) {
	var st struct {
		URL            string   `json:"url"`
		Title          string   `json:"title"`
		Origin         string   `json:"origin"`
		CookieCount    int      `json:"cookieCount"`
		StorageKeys    []string `json:"storageKeys"`
		DOMFingerprint string   `json:"domFingerprint"`
	}
	if err := do(ctx, pageHandoffState(tab), &st); err != nil {
		return handoffSnapshot{}, err
	}
	s := handoffSnapshot{
		URL: e.red.URL(st.URL), Title: e.red.Text(st.Title), Origin: e.red.URL(st.Origin),
		Timestamp: e.now().UnixMilli(), CookieCount: st.CookieCount,
		LocalStorageKeys: make([]string, 0, len(st.StorageKeys)), DOMFingerprint: st.DOMFingerprint,
	}
	for _, k := range st.StorageKeys {
		s.LocalStorageKeys = append(s.LocalStorageKeys, e.red.Text(k))
	}
	return s, nil
}

// screenshotTo writes a PNG of tab's viewport to path.
func screenshotTo(ctx context.Context, do doer, tab int, path string) error {
	var img struct{ Data string }
	if err := do(ctx, pageScreenshot(tab, "png", 0, false), &img); err != nil {
		return err
	}
	b, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		return fmt.Errorf("engine: handoff screenshot is not base64: %w", err)
	}
	return writeFile(path, b)
}

// doer runs one extension command: a call's do, or a browser's link when
// the person, not an agent, asked.
type doer func(ctx context.Context, cmd protocol.Command, out any) error

func linkDoer(l *bridge.Link) doer {
	return func(ctx context.Context, cmd protocol.Command, out any) error { return doInto(ctx, l, cmd, out) }
}

// finishHandoff ends a RUNNING handoff as FINISHED: the after snapshot, the
// delta, the resume hint and, with a run_id, one evidence pointer on that
// task. The agent's oc_handoff_finish and the person's Finish both come here.
func (e *Engine) finishHandoff(ctx context.Context, do doer, id, by string) (ledger.Meta, error) {
	m, d, err := e.runningHandoff(ctx, id)
	if err != nil {
		return m, err
	}
	store, _ := e.handoffStore()
	after, err := e.snapshotTab(ctx, do, d.TabID)
	if err == nil && d.Screenshot {
		path := filepath.Join(store.Root(), id, "screenshot-after.png")
		if err = screenshotTo(ctx, do, d.TabID, path); err == nil {
			after.ScreenshotRef = path
		}
	}
	if err != nil {
		code := protocol.AsError(err).Code
		if code != protocol.CodeTabNotFound && code != protocol.CodeTabNotAllowed {
			return m, err
		}
		// The person closed the tab, or took it out of the group: that
		// is an outcome too.
		after = handoffSnapshot{Timestamp: e.now().UnixMilli(), LocalStorageKeys: []string{}, Gone: protocol.AsError(err).Message}
	}
	delta := diffSnapshots(d.Before, after)
	d.After, d.Delta, d.EndedBy = &after, &delta, by
	d.DeltaSummary = summarize(d.Before, after, delta)
	d.ResumeHint = resumeHint(d.Reason, d.TabID, after, delta)
	return e.endHandoff(ctx, id, ledger.StatusFinished, func(m *ledger.Meta) {
		if d.RunID != "" {
			// Under the handoff's lock, after the check that it is still
			// RUNNING: only the one Finish that ends it attaches, so the
			// task gains exactly one pointer, and it is there before
			// anyone waiting sees FINISHED.
			d.RunEvidence = "attached"
			if err := e.attachEvidence(ctx, d.RunID, id); err != nil {
				d.RunEvidence = "not attached: " + protocol.AsError(err).Message
			}
		}
		setDetail(m, d)
	})
}

// attachEvidence appends a pointer to handoff to the task run, in its meta
// and its events.
func (e *Engine) attachEvidence(ctx context.Context, run, handoff string) error {
	if e.tasks == nil {
		return protocol.Errorf(protocol.CodeInternal, "this engine keeps no tasks")
	}
	ev := ledger.Evidence{Kind: "handoff", Ref: handoff, At: e.now().UTC()}
	if _, err := e.tasks.store.Update(ctx, run, func(m *ledger.Meta) error {
		m.Evidence = append(m.Evidence, ev)
		return nil
	}); err != nil {
		return err
	}
	return e.tasks.store.Append(ctx, run, "evidence", ev)
}

// cancelHandoff ends a RUNNING handoff as CANCELLED, with no after snapshot:
// nothing to resume from.
func (e *Engine) cancelHandoff(ctx context.Context, id, by string) (ledger.Meta, error) {
	_, d, err := e.runningHandoff(ctx, id)
	if err != nil {
		return ledger.Meta{}, err
	}
	d.EndedBy = by
	return e.endHandoff(ctx, id, ledger.StatusCancelled, func(m *ledger.Meta) { setDetail(m, d) })
}

// runningHandoff reads a handoff that must still be RUNNING.
func (e *Engine) runningHandoff(ctx context.Context, id string) (ledger.Meta, handoffDetail, error) {
	m, d, err := e.getHandoff(ctx, id)
	if err == nil && m.Status != ledger.StatusRunning {
		err = endedError(m)
	}
	return m, d, err
}

// endHandoff moves a handoff to a terminal status; one that another caller
// ended first is refused, saying how it ended.
func (e *Engine) endHandoff(ctx context.Context, id string, to ledger.Status, mutate func(*ledger.Meta)) (ledger.Meta, error) {
	store, _ := e.handoffStore()
	m, err := store.Transition(ctx, id, to, mutate)
	if err != nil {
		if protocol.AsError(err).Code == protocol.CodeConflict {
			return m, endedError(m)
		}
		return m, err
	}
	e.handoffEnded(id)
	return m, nil
}

// endedError refuses a change to a handoff that has ended, saying how.
func endedError(m ledger.Meta) error {
	msg := fmt.Sprintf("handoff %s is %s and can no longer change", m.ID, m.Status)
	if m.Status == ledger.StatusTimedOut {
		msg = fmt.Sprintf("handoff %s timed out; it cannot be finished", m.ID)
	}
	return protocol.Errorf(protocol.CodeConflict, "%s", msg).
		WithHint("call oc_handoff_start for a new handoff if the person is still needed")
}

// handoffError adds the fix to a store's error about a handoff.
func handoffError(err error) error {
	e := protocol.AsError(err)
	if e.Code == protocol.CodeNotFound {
		return e.WithHint("the handoff_id comes from oc_handoff_start")
	}
	return err
}

// heldByPerson refuses an action on a tab a person holds in a handoff: the
// agent and the person must not fight over the page.
func (c *call) heldByPerson(tab int) error {
	if c.engine.handoffs == nil {
		return nil
	}
	id := c.engine.handoffs.holding(tab)
	if id == "" {
		return nil
	}
	return protocol.Errorf(protocol.CodeConflict, "a person has tab %d (handoff %s) until they press Finish or Cancel", tab, id).
		WithHint("call oc_handoff_status with wait_ms to wait for them; read_page still works")
}
