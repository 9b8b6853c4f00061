package task

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

func newRunner(t *testing.T) (*Runner, *ledger.Store) {
	t.Helper()
	store, err := ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	red := new(redact.Redactor)
	red.Add("hunter2-typed")
	r := NewRunner(Options{Store: store, Redactor: red})
	t.Cleanup(func() { r.Close(context.Background()) })
	return r, store
}

// ended waits for task id to reach a terminal status.
func ended(t *testing.T, store *ledger.Store, id string) ledger.Meta {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := store.Wait(ctx, id)
	require.NoError(t, err)
	return m
}

func result(t *testing.T, store *ledger.Store, id string) string {
	t.Helper()
	b, err := store.Result(id)
	require.NoError(t, err)
	return string(b)
}

func TestHowATaskEnds(t *testing.T) {
	tests := []struct {
		name   string
		job    Job
		status ledger.Status
		code   string
		result string
	}{
		{"done", func(ctx context.Context, s *Sink) (any, error) {
			return map[string]int{"pages": 3}, nil
		}, ledger.StatusCompleted, "", `{"pages":3}`},
		{"failed, keeping what it did", func(ctx context.Context, s *Sink) (any, error) {
			return map[string]int{"pages": 1}, protocol.Errorf(protocol.CodeNotFound, "gone")
		}, ledger.StatusFailed, "not_found", `{"pages":1}`},
		{"panicked", func(ctx context.Context, s *Sink) (any, error) {
			s.Partial(map[string]int{"pages": 2})
			panic("boom")
		}, ledger.StatusFailed, "internal", `{"pages":2}`},
		{"typed secrets masked", func(ctx context.Context, s *Sink) (any, error) {
			return map[string]string{"memo": "password hunter2-typed"}, nil
		}, ledger.StatusCompleted, "", `{"memo":"password [redacted]"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, store := newRunner(t)
			m, err := r.Start("crawl", `{"url":"x"}`, nil, tt.job)
			require.NoError(t, err)
			got := ended(t, store, m.ID)
			assert.Equal(t, tt.status, got.Status)
			if tt.code != "" {
				require.NotNil(t, got.Error)
				assert.Equal(t, tt.code, got.Error.Code)
				assert.NotContains(t, got.Error.Message, "boom", "a panic's text stays in the log")
			}
			assert.JSONEq(t, tt.result, result(t, store, m.ID))
		})
	}
}

func TestATaskLongerThanAWriteIsWaitedForStillEnds(t *testing.T) {
	// Each write of the record is bounded from when it is made: a task
	// that runs for longer than one write may wait still records its
	// progress, its result and its end.
	r, store := newRunner(t)
	r.writeWithin = 50 * time.Millisecond
	m, err := r.Start("recording", "{}", nil, func(ctx context.Context, s *Sink) (any, error) {
		s.Progress(1, 2, "frame %d", 1)
		<-time.After(4 * r.writeWithin) // the task's own work, not the test's ordering
		s.Progress(2, 2, "frame %d", 2)
		return map[string]int{"frames": 2}, nil
	})
	require.NoError(t, err)
	got := ended(t, store, m.ID)
	assert.Equal(t, ledger.StatusCompleted, got.Status)
	assert.JSONEq(t, `{"frames":2}`, result(t, store, m.ID))
	events, err := store.Events(m.ID)
	require.NoError(t, err)
	var last ledger.Progress
	for _, ev := range events {
		if ev.Kind == "progress" {
			require.NoError(t, json.Unmarshal(ev.Data, &last))
		}
	}
	assert.Equal(t, "frame 2", last.Message)
}

func TestACancelledTaskKeepsWhatItDid(t *testing.T) {
	r, store := newRunner(t)
	started := make(chan struct{})
	m, err := r.Start("crawl", "{}", nil, func(ctx context.Context, s *Sink) (any, error) {
		s.Progress(1, 10, "crawled %s", "/a")
		close(started)
		<-ctx.Done()
		return map[string]int{"pages": 1}, ctx.Err()
	})
	require.NoError(t, err)
	<-started
	assert.Equal(t, []string{m.ID}, r.IDs())
	_, err = r.Cancel(context.Background(), m.ID)
	require.NoError(t, err)
	got := ended(t, store, m.ID)
	assert.Equal(t, ledger.StatusCancelled, got.Status)
	assert.JSONEq(t, `{"pages":1}`, result(t, store, m.ID))
	events, err := store.Events(m.ID)
	require.NoError(t, err)
	var progress []ledger.Progress
	for _, ev := range events {
		if ev.Kind == "progress" {
			var p ledger.Progress
			require.NoError(t, json.Unmarshal(ev.Data, &p))
			progress = append(progress, p)
		}
	}
	assert.Equal(t, []ledger.Progress{{Done: 1, Total: 10, Message: "crawled /a"}}, progress)
}

func TestACancelWrittenByAnotherProcessStopsTheTask(t *testing.T) {
	r, store := newRunner(t)
	started := make(chan struct{})
	m, err := r.Start("recording", "{}", nil, func(ctx context.Context, s *Sink) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	require.NoError(t, err)
	<-started
	// Another process (a front-end with no daemon) asks on disk.
	other, err := ledger.Open(store.Root(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	_, err = other.RequestCancel(context.Background(), m.ID)
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusCancelled, ended(t, store, m.ID).Status)
}

func TestClosingTheRunnerOrphansItsTasks(t *testing.T) {
	store, err := ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	r := NewRunner(Options{Store: store})
	started := make(chan struct{})
	m, err := r.Start("crawl", "{}", nil, func(ctx context.Context, s *Sink) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, errors.New("stopped")
	})
	require.NoError(t, err)
	<-started
	r.Close(context.Background())
	got, err := store.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusFailed, got.Status, "Close waits for the task to record its end")
	require.NotNil(t, got.Error)
	assert.Equal(t, ledger.CodeOrphaned, got.Error.Code)
	assert.Empty(t, r.CancelAll(context.Background()))
}

func TestAStateShowsAtOnceAndIsAnEvent(t *testing.T) {
	r, store := newRunner(t)
	waiting := make(chan struct{})
	resume := make(chan struct{})
	m, err := r.Start("crawl", "{}", nil, func(ctx context.Context, s *Sink) (any, error) {
		s.Progress(2, 10, "crawled %s", "/b")
		// Right after a progress report, which alone would not reach
		// meta.json for another half second.
		s.State("waiting_for_browser", "waiting for the browser (at most %s)", "2m0s")
		close(waiting)
		<-resume
		return nil, nil
	})
	require.NoError(t, err)
	<-waiting
	got, err := store.Get(m.ID)
	require.NoError(t, err)
	require.NotNil(t, got.Progress)
	assert.Equal(t, ledger.Progress{Done: 2, Total: 10, Message: "waiting for the browser (at most 2m0s)"}, *got.Progress,
		"the last counts, the state's message")
	events, err := store.Events(m.ID)
	require.NoError(t, err)
	var kinds []string
	for _, ev := range events {
		kinds = append(kinds, ev.Kind)
	}
	assert.Contains(t, kinds, "waiting_for_browser")
	close(resume)
	assert.Equal(t, ledger.StatusCompleted, ended(t, store, m.ID).Status)
}
