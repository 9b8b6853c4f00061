package ledger

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestTransitions(t *testing.T) {
	tasks, handoffs := TaskLifecycle(), HandoffLifecycle()
	tests := []struct {
		name string
		life Lifecycle
		path []Status // transitions from the initial status to the one under test
		to   Status
		ok   bool
	}{
		{"task pending to running", tasks, nil, StatusRunning, true},
		{"task pending to cancelled", tasks, nil, StatusCancelled, true},
		{"task pending to failed", tasks, nil, StatusFailed, true},
		{"task pending to completed", tasks, nil, StatusCompleted, false},
		{"task pending to pending", tasks, nil, StatusPending, false},
		{"task pending to a handoff status", tasks, nil, StatusTimedOut, false},
		{"task running to completed", tasks, []Status{StatusRunning}, StatusCompleted, true},
		{"task running to failed", tasks, []Status{StatusRunning}, StatusFailed, true},
		{"task running to cancelled", tasks, []Status{StatusRunning}, StatusCancelled, true},
		{"task running back to pending", tasks, []Status{StatusRunning}, StatusPending, false},
		{"task running to running", tasks, []Status{StatusRunning}, StatusRunning, false},
		{"task completed to running", tasks, []Status{StatusRunning, StatusCompleted}, StatusRunning, false},
		{"task failed to completed", tasks, []Status{StatusRunning, StatusFailed}, StatusCompleted, false},
		{"task cancelled to running", tasks, []Status{StatusCancelled}, StatusRunning, false},
		{"handoff running to finished", handoffs, nil, StatusFinished, true},
		{"handoff running to cancelled", handoffs, nil, StatusCancelled, true},
		{"handoff running to timed out", handoffs, nil, StatusTimedOut, true},
		{"handoff running to completed", handoffs, nil, StatusCompleted, false},
		{"handoff running to pending", handoffs, nil, StatusPending, false},
		{"handoff finished to running", handoffs, []Status{StatusFinished}, StatusRunning, false},
		{"handoff timed out to finished", handoffs, []Status{StatusTimedOut}, StatusFinished, false},
		{"handoff cancelled to finished", handoffs, []Status{StatusCancelled}, StatusFinished, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, _ := openStore(t, tt.life)
			m, err := s.Create("crawl", "", nil)
			require.NoError(t, err)
			for _, st := range tt.path {
				_, err := s.Transition(ctx, m.ID, st, nil)
				require.NoError(t, err)
			}
			before, err := os.ReadFile(s.file(m.ID, metaFile))
			require.NoError(t, err)

			got, err := s.Transition(ctx, m.ID, tt.to, nil)
			if tt.ok {
				require.NoError(t, err)
				assert.Equal(t, tt.to, got.Status)
				return
			}
			assert.ErrorIs(t, err, protocol.ErrConflict)
			after, err := os.ReadFile(s.file(m.ID, metaFile))
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after), "a refused transition writes nothing")
		})
	}
}

func TestUpdateValidatesStatusChanges(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)

	_, err = s.Update(ctx, m.ID, func(m *Meta) error { m.Status = StatusCompleted; return nil })
	assert.ErrorIs(t, err, protocol.ErrConflict, "PENDING cannot complete without running")
	_, err = s.Update(ctx, m.ID, func(m *Meta) error { m.Status = "BOGUS"; return nil })
	assert.ErrorIs(t, err, protocol.ErrConflict)

	got, err := s.Update(ctx, m.ID, func(m *Meta) error { m.Status = StatusRunning; return nil })
	require.NoError(t, err)
	assert.Equal(t, StatusRunning, got.Status)
	events, err := s.Events(m.ID)
	require.NoError(t, err)
	require.Len(t, events, 2)
	assert.Equal(t, EventStatus, events[1].Kind)
	assert.JSONEq(t, `{"from":"PENDING","to":"RUNNING"}`, string(events[1].Data))
}

func TestTerminalRecordsAreImmutable(t *testing.T) {
	tests := []struct {
		name string
		life Lifecycle
		path []Status
	}{
		{"task completed", TaskLifecycle(), []Status{StatusRunning, StatusCompleted}},
		{"task failed", TaskLifecycle(), []Status{StatusRunning, StatusFailed}},
		{"task cancelled before it ran", TaskLifecycle(), []Status{StatusCancelled}},
		{"handoff finished", HandoffLifecycle(), []Status{StatusFinished}},
		{"handoff timed out", HandoffLifecycle(), []Status{StatusTimedOut}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, clock := openStore(t, tt.life)
			m, err := s.Create("crawl", "", nil)
			require.NoError(t, err)
			require.NoError(t, s.WriteResult(ctx, m.ID, map[string]int{"pages": 1}))
			for _, st := range tt.path {
				_, err := s.Transition(ctx, m.ID, st, nil)
				require.NoError(t, err)
			}
			clock.Advance(1e9)
			files := map[string]string{}
			for _, name := range []string{metaFile, eventsFile, resultFile} {
				b, err := os.ReadFile(s.file(m.ID, name))
				require.NoError(t, err)
				files[name] = string(b)
			}

			called := false
			_, err = s.Update(ctx, m.ID, func(m *Meta) error { called = true; m.ArgsSummary = "x"; return nil })
			assert.ErrorIs(t, err, protocol.ErrConflict, "update")
			assert.False(t, called, "the mutate func never sees a terminal record")
			_, err = s.Transition(ctx, m.ID, StatusRunning, nil)
			assert.ErrorIs(t, err, protocol.ErrConflict, "transition")
			got, err := s.RequestCancel(ctx, m.ID)
			assert.ErrorIs(t, err, protocol.ErrConflict, "cancel")
			assert.Equal(t, tt.path[len(tt.path)-1], got.Status, "the conflict shows the status it ran into")
			assert.ErrorIs(t, s.WriteResult(ctx, m.ID, "late"), protocol.ErrConflict, "result")
			assert.ErrorIs(t, s.Append(ctx, m.ID, "page", nil), protocol.ErrConflict, "event")

			for name, want := range files {
				b, err := os.ReadFile(s.file(m.ID, name))
				require.NoError(t, err)
				assert.Equal(t, want, string(b), "%s unchanged", name)
			}
		})
	}
}

func TestLifecycleTables(t *testing.T) {
	for _, life := range []Lifecycle{TaskLifecycle(), HandoffLifecycle()} {
		require.NoError(t, life.validate(), life.Noun)
	}
	tasks := TaskLifecycle()
	assert.True(t, tasks.Terminal(StatusCompleted))
	assert.False(t, tasks.Terminal(StatusRunning))
	assert.False(t, tasks.Terminal(StatusFinished), "not a task status at all")
	assert.True(t, HandoffLifecycle().Terminal(StatusTimedOut))
	assert.Equal(t, []Status{StatusPending, StatusRunning, StatusCancelled, StatusFailed, StatusCompleted}, tasks.Statuses())
	assert.Equal(t, []Status{StatusRunning, StatusFinished, StatusCancelled, StatusTimedOut}, HandoffLifecycle().Statuses())

	broken := []struct {
		name string
		edit func(*Lifecycle)
	}{
		{"no noun", func(l *Lifecycle) { l.Noun = "" }},
		{"terminal initial", func(l *Lifecycle) { l.Initial = StatusCompleted }},
		{"unknown running", func(l *Lifecycle) { l.Running = "GOING" }},
		{"orphans not terminal", func(l *Lifecycle) { l.Orphaned = StatusRunning }},
		{"orphans unreachable", func(l *Lifecycle) { l.Next[StatusPending] = []Status{StatusRunning} }},
	}
	for _, tt := range broken {
		t.Run(tt.name, func(t *testing.T) {
			life := TaskLifecycle()
			tt.edit(&life)
			_, err := Open(t.TempDir(), life, Options{})
			assert.Error(t, err)
		})
	}
}

func TestOpenCopiesTheLifecycle(t *testing.T) {
	life := TaskLifecycle()
	s, err := Open(t.TempDir(), life, Options{})
	require.NoError(t, err)
	life.Next[StatusPending] = append(life.Next[StatusPending], StatusCompleted)
	assert.False(t, s.Lifecycle().Allows(StatusPending, StatusCompleted))
}
