package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// taskRunner runs long-running tools as background tasks recorded in the
// ledger. Tasks belong to the daemon, not to the agent that started them: one
// survives its MCP client going away.
type taskRunner struct {
	store *ledger.Store
	log   *slog.Logger
	ctx   context.Context // ends when the engine closes
	stop  context.CancelFunc
	wg    sync.WaitGroup

	mu      sync.Mutex // guards running
	running map[string]*runningTask
}

// runningTask is a task this daemon is running.
type runningTask struct {
	cancel context.CancelFunc
	byUser atomic.Bool // cancelled by oc_task_cancel, not by the daemon stopping
}

// progressEvery spaces the progress written into meta.json; every step still
// gets an event.
const progressEvery = 500 * time.Millisecond

func newTaskRunner(store *ledger.Store, log *slog.Logger) *taskRunner {
	ctx, stop := context.WithCancel(context.Background())
	return &taskRunner{store: store, log: log, ctx: ctx, stop: stop, running: map[string]*runningTask{}}
}

// start records a task of kind and runs it in the background.
func (r *taskRunner) start(e *Engine, agent string, t Tool, raw json.RawMessage) (ledger.Meta, error) {
	m, err := r.store.Create(t.Name, e.red.Args(raw, ledger.MaxArgsSummary), nil)
	if err != nil {
		return m, err
	}
	ctx, cancel := context.WithCancel(r.ctx)
	rt := &runningTask{cancel: cancel}
	r.mu.Lock()
	r.running[m.ID] = rt
	r.mu.Unlock()
	r.wg.Add(1)
	go r.run(ctx, e, agent, m.ID, t, raw, rt)
	return m, nil
}

// run is one task, from PENDING to its end. Whatever the job does — returns,
// fails, panics — the task ends in a terminal status and its partial result
// is kept.
func (r *taskRunner) run(ctx context.Context, e *Engine, agent, id string, t Tool, raw json.RawMessage, rt *runningTask) {
	defer r.wg.Done()
	defer func() {
		r.mu.Lock()
		delete(r.running, id)
		r.mu.Unlock()
		rt.cancel()
	}()
	// The last writes must happen even when ctx has ended.
	final, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer done()

	if _, err := r.store.Transition(ctx, id, ledger.StatusRunning, nil); err != nil {
		r.log.Error("task did not start", "task", id, "err", err)
		return
	}
	go r.watchCancel(ctx, id, rt)

	var lastMeta time.Time
	s := &sink{
		progress: func(done, total float64, message string) {
			p := ledger.Progress{Done: int(done), Total: int(total), Message: e.red.Text(message)}
			_ = r.store.Append(final, id, "progress", p)
			if time.Since(lastMeta) >= progressEvery {
				lastMeta = time.Now()
				_, _ = r.store.Update(final, id, func(m *ledger.Meta) error { m.Progress = &p; return nil })
				e.changed() // the side panel shows the progress meta.json has
			}
		},
		partial: func(v any) { _ = r.writeResult(final, e, id, v) },
	}
	c := &call{engine: e, bc: bridge.NewCall(agent, t.Name, raw, nil), agent: e.agent(agent)}
	result, err := runJob(ctx, c, t.job, raw, s)
	if result != nil {
		if werr := r.writeResult(final, e, id, result); werr != nil {
			r.log.Error("task result not written", "task", id, "err", werr)
		}
	}
	to, info := ledger.StatusCompleted, (*ledger.ErrorInfo)(nil)
	switch {
	case err == nil:
	case rt.byUser.Load():
		to = ledger.StatusCancelled
	case r.ctx.Err() != nil:
		to, info = ledger.StatusFailed, &ledger.ErrorInfo{Code: ledger.CodeOrphaned, Message: "the daemon stopped while the task ran (the browser closed)"}
	default:
		e := protocol.AsError(err)
		to, info = ledger.StatusFailed, &ledger.ErrorInfo{Code: string(e.Code), Message: e.Message}
		if e.Code == protocol.CodeInternal {
			r.log.Error("task failed", "task", id, "kind", t.Name, "err", err)
		}
	}
	if _, err := r.store.Transition(final, id, to, func(m *ledger.Meta) { m.Error = info }); err != nil {
		r.log.Error("task did not end", "task", id, "err", err)
	}
	e.changed()
}

// writeResult keeps a task's result with the secrets the engine has seen
// typed masked: it is on disk for as long as the task is kept.
func (r *taskRunner) writeResult(ctx context.Context, e *Engine, id string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return r.store.WriteResult(ctx, id, v) // the store's error says what is wrong
	}
	return r.store.WriteResult(ctx, id, json.RawMessage(e.red.Known(string(b))))
}

// runJob runs a job, turning a panic into an error.
func runJob(ctx context.Context, c *call, j job, raw json.RawMessage, s *sink) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.engine.log.Error("task panicked", "kind", c.bc.Tool, "panic", p)
			err = protocol.Errorf(protocol.CodeInternal, "the task stopped on an internal error")
		}
	}()
	return j(ctx, c, raw, s)
}

// watchCancel notices a cancel another process asked for (RequestCancel on
// disk) while the task runs.
func (r *taskRunner) watchCancel(ctx context.Context, id string, rt *runningTask) {
	t := time.NewTicker(time.Second)
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

// cancel asks a task to stop: at once when this daemon runs it, within a
// second when another does.
func (r *taskRunner) cancel(ctx context.Context, id string) (ledger.Meta, error) {
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

// close stops every task and waits, at most until ctx ends, for them to
// record how they ended.
func (r *taskRunner) close(ctx context.Context) {
	r.stop()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// taskStore returns the ledger of tasks, or says there is none.
func (c *call) taskStore() (*ledger.Store, error) {
	if c.engine.tasks == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "this engine keeps no tasks")
	}
	return c.engine.tasks.store, nil
}

// taskView is a task as the tools show it.
type taskView struct {
	ledger.Meta
	Result json.RawMessage `json:"result,omitempty"`
	Note   string          `json:"note,omitempty"`
}

// maxInlineResult bounds a result oc_task_get returns inline; the whole of
// it stays in result.json.
const maxInlineResult = 200_000

func (c *call) viewTask(m ledger.Meta, withResult bool) (taskView, error) {
	v := taskView{Meta: m}
	if !withResult {
		return v, nil
	}
	store, err := c.taskStore()
	if err != nil {
		return v, err
	}
	res, err := store.Result(m.ID)
	switch {
	case errors.Is(err, protocol.ErrNotFound):
		v.Note = "no result yet"
	case err != nil:
		return v, err
	case len(res) > maxInlineResult:
		v.Note = fmt.Sprintf("the result is %d bytes, over the %d returned inline; it is in %s", len(res), maxInlineResult,
			store.Root()+"/"+m.ID+"/result.json")
	default:
		v.Result = res
	}
	return v, nil
}
