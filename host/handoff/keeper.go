package handoff

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// expireTimeout bounds the work of timing one handoff out.
const expireTimeout = 10 * time.Second

// Options configure a Keeper. Store is required.
type Options struct {
	Store *ledger.Store // the handoffs
	Tasks *ledger.Store // the tasks a finished handoff points its run_id at; nil: none
	Log   *slog.Logger
	Now   func() time.Time
	// Redactor masks what a snapshot keeps: URLs, titles, key names.
	Redactor *redact.Redactor
	// Changed, if set, is told whenever a handoff starts or ends, so the
	// side panel can show it.
	Changed func()
}

// Keeper keeps the daemon's side of the handoffs: the records in the
// ledger, the timers that time them out, and which tab each running one
// holds. Every end of a handoff — the agent's Finish, the person's, a
// cancel, the deadline, Stop — goes through it.
type Keeper struct {
	store   *ledger.Store
	tasks   *ledger.Store
	log     *slog.Logger
	now     func() time.Time
	red     *redact.Redactor
	changed func()

	ctx    context.Context // the keeper's life: timers work under it
	cancel context.CancelFunc
	wg     sync.WaitGroup // timer callbacks at work

	mu     sync.Mutex // guards the fields below
	timers map[string]*time.Timer
	byTab  map[int]string // tab -> its RUNNING handoff
	closed bool
}

// New returns a keeper of opts.Store's handoffs. Call Close when done.
func New(opts Options) *Keeper {
	if opts.Store == nil {
		panic("handoff: New without a store")
	}
	k := &Keeper{
		store: opts.Store, tasks: opts.Tasks, log: opts.Log, now: opts.Now, red: opts.Redactor, changed: opts.Changed,
		timers: map[string]*time.Timer{}, byTab: map[int]string{},
	}
	if k.log == nil {
		k.log = slog.New(slog.DiscardHandler)
	}
	if k.now == nil {
		k.now = time.Now
	}
	if k.red == nil {
		k.red = new(redact.Redactor)
	}
	if k.changed == nil {
		k.changed = func() {}
	}
	k.ctx, k.cancel = context.WithCancel(context.Background())
	return k
}

// Store returns the ledger of handoffs.
func (k *Keeper) Store() *ledger.Store { return k.store }

// Close stops the timers and waits for any that is timing a handoff out.
// The handoffs stay RUNNING on disk: their deadlines hold, and the next
// daemon enforces them.
func (k *Keeper) Close() {
	k.mu.Lock()
	k.closed = true
	for _, t := range k.timers {
		t.Stop()
	}
	k.mu.Unlock()
	k.cancel()
	k.wg.Wait()
}

// track arms the timeout of a RUNNING handoff and marks its tab as held.
func (k *Keeper) track(id string, d Detail) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return
	}
	if t := k.timers[id]; t != nil {
		t.Stop()
	}
	k.timers[id] = time.AfterFunc(max(d.Deadline.Sub(k.now()), 0), func() { k.expire(id) })
	k.byTab[d.TabID] = id
}

// untrack forgets a handoff that has ended.
func (k *Keeper) untrack(id string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if t := k.timers[id]; t != nil {
		t.Stop()
		delete(k.timers, id)
	}
	for tab, hid := range k.byTab {
		if hid == id {
			delete(k.byTab, tab)
		}
	}
}

// expire is a timer's end of a handoff.
func (k *Keeper) expire(id string) {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return
	}
	k.wg.Add(1) // under mu, before Close can wait
	k.mu.Unlock()
	defer k.wg.Done()
	ctx, done := context.WithTimeout(k.ctx, expireTimeout)
	defer done()
	if _, _, err := k.Get(ctx, id); err != nil {
		k.log.Warn("handoff did not time out", "handoff", id, "err", err)
	}
}

// Holding returns the RUNNING handoff that holds tab, or "".
func (k *Keeper) Holding(tab int) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.byTab[tab]
}

// Running lists the handoffs this keeper tracks.
func (k *Keeper) Running() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	ids := make([]string, 0, len(k.timers))
	for id := range k.timers {
		ids = append(ids, id)
	}
	return ids
}

// Resume takes over the handoffs a dead daemon left RUNNING (those past
// their deadline [Expire] has ended already): it adopts each, arms its
// timer and marks its tab held. The person may be halfway through a login;
// a daemon restart must not throw that away. A record it cannot read is
// logged and returned in the error; the others are resumed.
func (k *Keeper) Resume(ctx context.Context) error {
	list, err := k.store.List(ledger.Filter{Status: ledger.StatusRunning, Limit: 10_000})
	if err != nil {
		return fmt.Errorf("handoff: resume: %w", err)
	}
	var errs []error
	for _, m := range list {
		d, err := ReadDetail(m)
		if err != nil {
			k.log.Warn("handoff not resumed: damaged record", "handoff", m.ID, "err", err)
			errs = append(errs, err)
			continue
		}
		if _, err := k.store.Adopt(ctx, m.ID); err != nil && !errors.Is(err, protocol.ErrConflict) {
			k.log.Warn("handoff not adopted", "handoff", m.ID, "err", err)
			errs = append(errs, err)
			continue
		}
		k.track(m.ID, d)
	}
	return errors.Join(errs...)
}

// Request is what a new handoff is for.
type Request struct {
	Reason      string
	Instruction string
	TabID       int
	Browser     string // the browser's id, for the person's Finish
	RunID       string // a task to attach the finished handoff to
	Timeout     time.Duration
	Screenshot  bool
	ArgsSummary string // the redacted arguments, for the record
}

// Start hands tab to the person: it takes the before snapshot through do,
// records the handoff RUNNING and arms its deadline. The caller has checked
// that nobody holds the tab.
func (k *Keeper) Start(ctx context.Context, do browser.Doer, r Request) (ledger.Meta, Detail, error) {
	if r.RunID != "" {
		if err := k.checkRun(r.RunID); err != nil {
			return ledger.Meta{}, Detail{}, err
		}
	}
	before, err := k.snapshot(ctx, do, r.TabID)
	if err != nil {
		return ledger.Meta{}, Detail{}, err
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	d := Detail{
		Reason: r.Reason, Instruction: k.red.Text(r.Instruction), TabID: r.TabID, Browser: r.Browser,
		RunID: r.RunID, Deadline: k.now().Add(timeout).UTC(), Screenshot: r.Screenshot, Before: before,
	}
	m, err := k.store.Create(r.Reason, r.ArgsSummary, d)
	if err != nil {
		return m, d, err
	}
	if r.Screenshot {
		path := filepath.Join(k.store.Root(), m.ID, "screenshot.png")
		if err := screenshotTo(ctx, do, r.TabID, path); err != nil {
			_, _ = k.Cancel(context.WithoutCancel(ctx), m.ID, ByAgent)
			return m, d, fmt.Errorf("handoff: screenshot: %w", err)
		}
		d.Before.ScreenshotRef = path
		if m, err = k.store.Update(ctx, m.ID, func(m *ledger.Meta) error { setDetail(m, d); return nil }); err != nil {
			return m, d, err
		}
	}
	k.track(m.ID, d)
	k.changed()
	return m, d, nil
}

// checkRun refuses a run_id that names no task, or one that has ended: the
// pointer could never be attached.
func (k *Keeper) checkRun(run string) error {
	if k.tasks == nil {
		return protocol.Errorf(protocol.CodeInternal, "this daemon keeps no tasks")
	}
	m, err := k.tasks.Get(run)
	if err != nil {
		return protocol.Errorf(protocol.CodeNotFound, "run_id: no task %q", run).
			WithHint("pass the task_id of a running task from oc_task_start, or leave run_id out")
	}
	if k.tasks.Lifecycle().Terminal(m.Status) {
		return protocol.Errorf(protocol.CodeConflict, "run_id: task %s has ended (%s)", run, m.Status).
			WithHint("pass a running task, or leave run_id out")
	}
	return nil
}

// Get reads a handoff, timing it out first when its deadline has passed:
// whoever looks first enforces the deadline, daemon or not.
func (k *Keeper) Get(ctx context.Context, id string) (ledger.Meta, Detail, error) {
	m, err := k.store.Get(id)
	if err != nil {
		return m, Detail{}, notFound(err)
	}
	d, err := ReadDetail(m)
	if err != nil {
		return m, d, err
	}
	if m.Status == ledger.StatusRunning && !k.now().Before(d.Deadline) {
		if tm, err := timeOut(ctx, k.store, id, d); err == nil {
			k.ended(id)
			m, d = tm, detailOr(tm, d)
		} else if m, err = k.store.Get(id); err == nil { // ended meanwhile
			d = detailOr(m, d)
		}
	}
	return m, d, nil
}

// detailOr reads m's detail, or keeps old when it cannot.
func detailOr(m ledger.Meta, old Detail) Detail {
	if d, err := ReadDetail(m); err == nil {
		return d
	}
	return old
}

// Wait waits, at most for wait and never past the deadline, for a RUNNING
// handoff to end, and returns it as it is then.
func (k *Keeper) Wait(ctx context.Context, id string, wait time.Duration) (ledger.Meta, Detail, error) {
	m, d, err := k.Get(ctx, id)
	if err != nil || wait <= 0 || m.Status != ledger.StatusRunning {
		return m, d, err
	}
	// Wake at the deadline too: the handoff times out then.
	wait = min(wait, d.Deadline.Sub(k.now())+50*time.Millisecond)
	wctx, done := context.WithTimeout(ctx, wait)
	defer done()
	if _, err := k.store.Wait(wctx, id); err != nil && !errors.Is(err, protocol.ErrTimeout) {
		return m, d, notFound(err)
	}
	if err := ctx.Err(); err != nil {
		return m, d, err
	}
	return k.Get(ctx, id)
}

// running reads a handoff that must still be RUNNING.
func (k *Keeper) running(ctx context.Context, id string) (ledger.Meta, Detail, error) {
	m, d, err := k.Get(ctx, id)
	if err == nil && m.Status != ledger.StatusRunning {
		err = endedError(m)
	}
	return m, d, err
}

// Finish ends a RUNNING handoff as FINISHED: the after snapshot (through
// do, the agent's call or the browser the person pressed Finish in), the
// delta, the resume hint and, with a run_id, one evidence pointer on that
// task. The agent's oc_handoff_finish and the person's Finish both come
// here.
func (k *Keeper) Finish(ctx context.Context, do browser.Doer, id, by string) (ledger.Meta, error) {
	m, d, err := k.running(ctx, id)
	if err != nil {
		return m, err
	}
	after, err := k.snapshot(ctx, do, d.TabID)
	if err == nil && d.Screenshot {
		path := filepath.Join(k.store.Root(), id, "screenshot-after.png")
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
		after = Snapshot{Timestamp: k.now().UnixMilli(), LocalStorageKeys: []string{}, Gone: protocol.AsError(err).Message}
	}
	delta := diff(d.Before, after)
	d.After, d.Delta, d.EndedBy = &after, &delta, by
	d.DeltaSummary = summarize(d.Before, after, delta)
	d.ResumeHint = resumeHint(d.Reason, d.TabID, after, delta)
	return k.end(ctx, id, ledger.StatusFinished, func(m *ledger.Meta) {
		if d.RunID != "" {
			// Under the handoff's lock, after the check that it is still
			// RUNNING: only the one Finish that ends it attaches, so the
			// task gains exactly one pointer, and it is there before
			// anyone waiting sees FINISHED.
			d.RunEvidence = "attached"
			if err := k.attach(ctx, d.RunID, id); err != nil {
				d.RunEvidence = "not attached: " + protocol.AsError(err).Message
			}
		}
		setDetail(m, d)
	})
}

// attach appends a pointer to handoff to the task run, in its meta and its
// events.
func (k *Keeper) attach(ctx context.Context, run, handoff string) error {
	if k.tasks == nil {
		return protocol.Errorf(protocol.CodeInternal, "this daemon keeps no tasks")
	}
	ev := ledger.Evidence{Kind: "handoff", Ref: handoff, At: k.now().UTC()}
	if _, err := k.tasks.Update(ctx, run, func(m *ledger.Meta) error {
		m.Evidence = append(m.Evidence, ev)
		return nil
	}); err != nil {
		return err
	}
	return k.tasks.Append(ctx, run, "evidence", ev)
}

// Cancel ends a RUNNING handoff as CANCELLED, with no after snapshot:
// nothing to resume from. A handoff whose record is damaged can still be
// cancelled; its detail is left as it is.
func (k *Keeper) Cancel(ctx context.Context, id, by string) (ledger.Meta, error) {
	m, d, err := k.running(ctx, id)
	if err != nil {
		if m.ID == "" || protocol.AsError(err).Code != protocol.CodeInternal || m.Status != ledger.StatusRunning {
			return m, err
		}
		return k.end(ctx, id, ledger.StatusCancelled, nil) // damaged: end it as it is
	}
	d.EndedBy = by
	return k.end(ctx, id, ledger.StatusCancelled, func(m *ledger.Meta) { setDetail(m, d) })
}

// end moves a handoff to a terminal status; one that another caller ended
// first is refused, saying how it ended.
func (k *Keeper) end(ctx context.Context, id string, to ledger.Status, mutate func(*ledger.Meta)) (ledger.Meta, error) {
	m, err := k.store.Transition(ctx, id, to, mutate)
	if err != nil {
		if protocol.AsError(err).Code == protocol.CodeConflict {
			return m, endedError(m)
		}
		return m, err
	}
	k.ended(id)
	return m, nil
}

// ended forgets an ended handoff and says so.
func (k *Keeper) ended(id string) {
	k.untrack(id)
	k.changed()
}

// snapshot takes a handoff snapshot of tab through do.
func (k *Keeper) snapshot(ctx context.Context, do browser.Doer, tab int) (Snapshot, error) {
	st, err := browser.HandoffStateOf(tab).Run(ctx, do)
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{
		URL: k.red.URL(st.URL), Title: k.red.Text(st.Title), Origin: k.red.URL(st.Origin),
		Timestamp: k.now().UnixMilli(), CookieCount: st.CookieCount,
		LocalStorageKeys: make([]string, 0, len(st.StorageKeys)), DOMFingerprint: st.DOMFingerprint,
	}
	for _, key := range st.StorageKeys {
		s.LocalStorageKeys = append(s.LocalStorageKeys, k.red.Text(key))
	}
	return s, nil
}

// screenshotTo writes a PNG of tab's viewport to path.
func screenshotTo(ctx context.Context, do browser.Doer, tab int, path string) error {
	img, err := browser.PageScreenshot(tab, browser.Shot{Format: "png"}).Run(ctx, do)
	if err != nil {
		return err
	}
	return ledger.WriteFile(path, img.Data, 0o600)
}
