package task

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Timings of the runner.
const (
	// progressEvery spaces the progress written into meta.json; every
	// report still gets an event.
	progressEvery = 500 * time.Millisecond
	// cancelPoll is how often a running task looks for a cancel another
	// process wrote to disk.
	cancelPoll = time.Second
	// writeWithin bounds each write of a task's record: its progress, its
	// result, its end. A write waits for the record's lock that long, even
	// once the task's context has ended.
	writeWithin = 10 * time.Second
)

// Options configure a Runner. Store is required.
type Options struct {
	Store *ledger.Store
	Log   *slog.Logger
	Now   func() time.Time
	// Redactor masks the secrets the daemon has seen typed in results and
	// progress messages before they reach the disk.
	Redactor *redact.Redactor
	// Changed, if set, is told when a task's progress or status changed,
	// so the side panel can show it.
	Changed func()
}

// Runner runs jobs as tasks. Close it to stop them.
type Runner struct {
	store   *ledger.Store
	log     *slog.Logger
	now     func() time.Time
	red     *redact.Redactor
	changed func()
	// writeWithin is the const of that name; tests shorten it.
	writeWithin time.Duration

	ctx  context.Context // ends when the runner closes
	stop context.CancelFunc
	wg   sync.WaitGroup // every goroutine of every task

	mu      sync.Mutex // guards running
	running map[string]*running
}

// running is a task this runner is running.
type running struct {
	cancel context.CancelFunc
	byUser atomic.Bool // cancelled by a person or agent, not by the runner closing
}

// NewRunner returns a runner of opts.Store's tasks.
func NewRunner(opts Options) *Runner {
	if opts.Store == nil {
		panic("task: NewRunner without a store")
	}
	r := &Runner{store: opts.Store, log: opts.Log, now: opts.Now, red: opts.Redactor, changed: opts.Changed,
		running: map[string]*running{}, writeWithin: writeWithin}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.red == nil {
		r.red = new(redact.Redactor)
	}
	if r.changed == nil {
		r.changed = func() {}
	}
	r.ctx, r.stop = context.WithCancel(context.Background())
	return r
}

// Store returns the ledger of tasks.
func (r *Runner) Store() *ledger.Store { return r.store }

// Start records a task of kind and runs job in the background. argsSummary
// is what the record says the task was started with, already redacted;
// detail (nil for none) is kept with it, e.g. the objective and policy of a
// job that carries them.
func (r *Runner) Start(kind, argsSummary string, detail any, job Job) (ledger.Meta, error) {
	m, err := r.store.Create(kind, argsSummary, detail)
	if err != nil {
		return m, err
	}
	ctx, cancel := context.WithCancel(r.ctx)
	rt := &running{cancel: cancel}
	r.mu.Lock()
	r.running[m.ID] = rt
	r.mu.Unlock()
	r.wg.Add(1)
	go r.run(ctx, m.ID, kind, job, rt)
	return m, nil
}

// run is one task, from PENDING to its end. Whatever the job does —
// returns, fails, panics — the task ends in a terminal status and its
// partial result is kept.
func (r *Runner) run(ctx context.Context, id, kind string, job Job, rt *running) {
	defer r.wg.Done()
	defer func() {
		r.mu.Lock()
		delete(r.running, id)
		r.mu.Unlock()
		rt.cancel()
	}()
	// Each write has writeWithin of its own, counted from when it is made,
	// not from the task's start, and made even when ctx has ended: a task
	// that runs for an hour, or was cancelled, still records its progress,
	// result and end.
	write := func(fn func(context.Context) error) error {
		wctx, done := context.WithTimeout(context.WithoutCancel(ctx), r.writeWithin)
		defer done()
		return fn(wctx)
	}

	if _, err := r.store.Transition(ctx, id, ledger.StatusRunning, nil); err != nil {
		r.log.Error("task did not start", "task", id, "err", err)
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.watchCancel(ctx, id, rt)
	}()

	var lastMeta time.Time
	s := &Sink{
		OnProgress: func(done, total float64, message string) {
			p := ledger.Progress{Done: int(done), Total: int(total), Message: r.red.Text(message)}
			_ = write(func(c context.Context) error { return r.store.Append(c, id, "progress", p) })
			if now := r.now(); now.Sub(lastMeta) >= progressEvery {
				lastMeta = now
				_ = write(func(c context.Context) error { return r.setProgress(c, id, p) })
				r.changed() // the side panel shows the progress meta.json has
			}
		},
		OnPartial: func(v any) { _ = write(func(c context.Context) error { return r.writeResult(c, id, v) }) },
		OnState: func(kind, message string, done, total float64) {
			// Not throttled as progress is: whoever looks at the task
			// must see at once that it waits, and why.
			p := ledger.Progress{Done: int(done), Total: int(total), Message: r.red.Text(message)}
			_ = write(func(c context.Context) error {
				return r.store.Append(c, id, kind, map[string]string{"message": p.Message})
			})
			_ = write(func(c context.Context) error { return r.setProgress(c, id, p) })
			lastMeta = r.now()
			r.changed()
		},
	}
	result, err := r.runJob(ctx, kind, job, s)
	if result != nil {
		if werr := write(func(c context.Context) error { return r.writeResult(c, id, result) }); werr != nil {
			r.log.Error("task result not written", "task", id, "err", werr)
		}
	}
	to, info := ledger.StatusCompleted, (*ledger.ErrorInfo)(nil)
	switch {
	case err == nil:
	case rt.byUser.Load():
		to = ledger.StatusCancelled
	case r.ctx.Err() != nil:
		to, info = ledger.StatusFailed, &ledger.ErrorInfo{Code: ledger.CodeOrphaned, Message: "the daemon stopped while the task ran"}
	default:
		e := protocol.AsError(err)
		to, info = ledger.StatusFailed, &ledger.ErrorInfo{Code: string(e.Code), Message: e.Message}
		if e.Code == protocol.CodeInternal {
			r.log.Error("task failed", "task", id, "kind", kind, "err", err)
		}
	}
	if err := write(func(c context.Context) error {
		_, err := r.store.Transition(c, id, to, func(m *ledger.Meta) { m.Error = info })
		return err
	}); err != nil {
		r.log.Error("task did not end", "task", id, "err", err)
	}
	r.changed()
}

// setProgress writes p as the progress meta.json shows.
func (r *Runner) setProgress(ctx context.Context, id string, p ledger.Progress) error {
	_, err := r.store.Update(ctx, id, func(m *ledger.Meta) error { m.Progress = &p; return nil })
	return err
}

// runJob runs a job, turning a panic into an error.
func (r *Runner) runJob(ctx context.Context, kind string, job Job, s *Sink) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("task panicked", "kind", kind, "panic", p)
			err = protocol.Errorf(protocol.CodeInternal, "the task stopped on an internal error")
		}
	}()
	return job(ctx, s)
}

// writeResult keeps a task's result with the secrets the daemon has seen
// typed masked: it is on disk for as long as the task is kept.
func (r *Runner) writeResult(ctx context.Context, id string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return r.store.WriteResult(ctx, id, v) // the store's error says what is wrong
	}
	return r.store.WriteResult(ctx, id, json.RawMessage(r.red.Known(string(b))))
}

// watchCancel notices a cancel another process asked for (RequestCancel on
// disk) while the task runs.
func (r *Runner) watchCancel(ctx context.Context, id string, rt *running) {
	t := time.NewTicker(cancelPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if m, err := r.store.Get(id); err == nil && m.CancelRequestedAt != nil {
				rt.byUser.Store(true)
				rt.cancel()
				return
			}
		}
	}
}

// Cancel asks a task to stop: at once when this runner runs it, within a
// second when another process's does. It returns the record as the request
// left it; the task ends on its own shortly after.
func (r *Runner) Cancel(ctx context.Context, id string) (ledger.Meta, error) {
	m, err := r.store.RequestCancel(ctx, id)
	if err != nil {
		return m, err
	}
	r.mu.Lock()
	rt := r.running[id]
	r.mu.Unlock()
	if rt != nil {
		rt.byUser.Store(true)
		rt.cancel()
	}
	return m, nil
}

// IDs lists the tasks this runner has going.
func (r *Runner) IDs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.running))
	for id := range r.running {
		ids = append(ids, id)
	}
	return ids
}

// CancelAll cancels every task this runner has going, as Cancel does; it
// returns how many.
func (r *Runner) CancelAll(ctx context.Context) int {
	n := 0
	for _, id := range r.IDs() {
		if _, err := r.Cancel(ctx, id); err == nil {
			n++
		}
	}
	return n
}

// Close stops every task and waits, at most until ctx ends, for them to
// record how they ended. Tasks it stops end FAILED with code orphaned: the
// work dies with the daemon.
func (r *Runner) Close(ctx context.Context) {
	r.stop()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}
