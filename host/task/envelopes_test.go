package task

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

func newEnvelopes(t testing.TB) (*Envelopes, *ledger.Store) {
	t.Helper()
	store, err := ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	return NewEnvelopes(EnvelopeOptions{Store: store}), store
}

func open(t testing.TB, e *Envelopes, p Policy) string {
	t.Helper()
	m, err := e.Open(context.Background(), Detail{Objective: "buy milk", Policy: p}, `{"objective":"buy milk"}`)
	require.NoError(t, err)
	require.Equal(t, ledger.StatusRunning, m.Status)
	return m.ID
}

// do runs one call of tool through the envelope, as the engine does.
func do(t testing.TB, e *Envelopes, id, tool, dest string) (Standing, error) {
	t.Helper()
	tk, err := e.Begin(context.Background(), id, tool, dest)
	if err != nil {
		return Standing{}, err
	}
	kind := Action
	if Observes(tool, "") {
		kind = Observation
	}
	return tk.End(context.Background(), Call{Tool: tool, Kind: kind, OK: true, Navigated: dest}, nil), nil
}

func TestAnEnvelopeCountsItsCalls(t *testing.T) {
	e, _ := newEnvelopes(t)
	id := open(t, e, Policy{MaxToolCalls: 10})
	for range 7 {
		_, err := do(t, e, id, "read_page", "")
		require.NoError(t, err)
	}
	s, err := do(t, e, id, "read_page", "")
	require.NoError(t, err)
	assert.Equal(t, 8, s.Calls)
	assert.Equal(t, BudgetExceeded, s.Budget.Level)
	assert.Equal(t, NextChangeStrategyOrVerify, s.Budget.Next)
	assert.Equal(t, "task "+id+": budget exceeded, 8 of 10 calls (observation streak 8 of 6); next: change_strategy_or_verify", s.Line())

	v, err := e.Get(id)
	require.NoError(t, err)
	assert.Equal(t, "buy milk", v.Objective)
	assert.Equal(t, PhaseExplore, v.Phase)
	assert.Equal(t, 6, v.Policy.MaxObservationStreak, "defaults filled in")
	assert.Equal(t, 8, v.Counters.Observations)
	assert.Equal(t, BudgetExceeded, v.Level)
	require.NotEmpty(t, v.Warnings)
	assert.Nil(t, v.Detail, "the detail is shown field by field")
}

func TestHardBudgetsRefuseBeforeTheCall(t *testing.T) {
	e, _ := newEnvelopes(t)
	id := open(t, e, Policy{MaxToolCalls: 2})
	first, err := e.Begin(context.Background(), id, "navigate", "http://a.test/")
	require.NoError(t, err)
	second, err := e.Begin(context.Background(), id, "interact", "")
	require.NoError(t, err)
	_, err = e.Begin(context.Background(), id, "read_page", "")
	require.ErrorIs(t, err, protocol.ErrBudgetExceeded, "two calls in flight hold the whole budget")
	assert.Contains(t, protocol.AsError(err).Hint, "oc_task_finish")
	second.Release() // that call never ran
	third, err := e.Begin(context.Background(), id, "read_page", "")
	require.NoError(t, err, "a released place is free again")
	first.End(context.Background(), Call{Tool: "navigate", Kind: Action, OK: true}, nil)
	third.End(context.Background(), Call{Tool: "read_page", Kind: Observation, OK: true}, nil)
	_, err = e.Begin(context.Background(), id, "read_page", "")
	require.ErrorIs(t, err, protocol.ErrBudgetExceeded)
	v, err := e.Get(id)
	require.NoError(t, err)
	assert.Equal(t, 2, v.Counters.Calls, "refused calls are not counted")
}

func TestTimeRunsOut(t *testing.T) {
	store, err := ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	e := NewEnvelopes(EnvelopeOptions{Store: store, Now: clock})
	id := open(t, e, Policy{MaxWallMs: 60_000})
	_, err = do(t, e, id, "read_page", "")
	require.NoError(t, err)
	now.Add(int64(2 * time.Minute))
	_, err = do(t, e, id, "read_page", "")
	require.ErrorIs(t, err, protocol.ErrBudgetExceeded)
	assert.Contains(t, err.Error(), "1m0s")
}

func TestAllowedDomainsRefuseANavigationOutside(t *testing.T) {
	e, _ := newEnvelopes(t)
	id := open(t, e, Policy{AllowedDomains: []string{"127.0.0.1"}})
	_, err := do(t, e, id, "navigate", "http://127.0.0.1:8080/a")
	require.NoError(t, err)
	_, err = do(t, e, id, "navigate", "http://localhost:8080/a")
	require.ErrorIs(t, err, protocol.ErrDomainBlocked)
	assert.Contains(t, err.Error(), "localhost")

	_, err = e.Open(context.Background(), Detail{Objective: "x", Policy: Policy{AllowedDomains: []string{"https://a.test/"}}}, "")
	assert.ErrorIs(t, err, protocol.ErrBadRequest, "a URL is not a domain")
}

func TestAClosedEnvelopeRefusesCalls(t *testing.T) {
	e, _ := newEnvelopes(t)
	mine := open(t, e, Policy{})
	v, err := e.Finish(context.Background(), mine, ledger.StatusCompleted, "bought", "agent")
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusCompleted, v.Status)
	assert.Equal(t, PhaseDone, v.Phase)
	assert.Equal(t, "bought", v.Note)
	_, err = do(t, e, mine, "read_page", "")
	require.ErrorIs(t, err, protocol.ErrConflict)
	_, err = e.Finish(context.Background(), mine, ledger.StatusFailed, "again", "agent")
	require.ErrorIs(t, err, protocol.ErrConflict, "terminal is terminal")

	theirs := open(t, e, Policy{})
	_, err = e.Finish(context.Background(), theirs, ledger.StatusCancelled, "the person ended it in the side panel", "person")
	require.NoError(t, err)
	_, err = do(t, e, theirs, "read_page", "")
	require.ErrorIs(t, err, protocol.ErrCancelled)
	assert.Contains(t, err.Error(), "the person ended")
}

func TestAJobIsNotAnEnvelope(t *testing.T) {
	e, store := newEnvelopes(t)
	job, err := store.Create("crawl", "{}", nil)
	require.NoError(t, err)
	_, err = e.Begin(context.Background(), job.ID, "read_page", "")
	require.ErrorIs(t, err, protocol.ErrBadRequest)
	_, err = e.Finish(context.Background(), job.ID, ledger.StatusCompleted, "", "agent")
	require.ErrorIs(t, err, protocol.ErrBadRequest)
	_, err = e.Begin(context.Background(), "0000000000000001", "read_page", "")
	require.ErrorIs(t, err, protocol.ErrNotFound)
}

func TestPhasesAndNotes(t *testing.T) {
	e, store := newEnvelopes(t)
	id := open(t, e, Policy{})
	v, err := e.Update(context.Background(), id, PhaseAct, "found the form")
	require.NoError(t, err)
	assert.Equal(t, PhaseAct, v.Phase)
	require.Len(t, v.Notes, 1)
	assert.Equal(t, "found the form", v.Notes[0].Text)
	_, err = e.Update(context.Background(), id, "wander", "")
	require.ErrorIs(t, err, protocol.ErrBadRequest)
	events, err := store.Events(id)
	require.NoError(t, err)
	kinds := []string{}
	for _, ev := range events {
		kinds = append(kinds, ev.Kind)
	}
	assert.Contains(t, kinds, EventPhase)
	assert.Contains(t, kinds, EventNote)
}

func TestCheckpoints(t *testing.T) {
	e, store := newEnvelopes(t)
	id := open(t, e, Policy{CheckpointEveryCalls: 2})
	for range 5 {
		tk, err := e.Begin(context.Background(), id, "interact", "")
		require.NoError(t, err)
		tk.End(context.Background(), Call{Tool: "interact", Kind: Action, OK: true}, func() (string, string) { return "http://a.test/", "A" })
	}
	events, err := store.Events(id)
	require.NoError(t, err)
	var at []int
	for _, ev := range events {
		if ev.Kind == EventCheckpoint {
			at = append(at, len(at))
			assert.Contains(t, string(ev.Data), `"url":"http://a.test/"`)
		}
	}
	assert.Len(t, at, 2, "after calls 2 and 4")
}

func TestADaemonRestartKeepsTheCounts(t *testing.T) {
	root := t.TempDir()
	dead, err := ledger.Open(root, ledger.TaskLifecycle(), ledger.Options{PID: 1 << 30})
	require.NoError(t, err)
	before := NewEnvelopes(EnvelopeOptions{Store: dead})
	id := open(t, before, Policy{MaxToolCalls: 5})
	for range 3 {
		_, err := do(t, before, id, "interact", "")
		require.NoError(t, err)
	}

	store, err := ledger.Open(root, ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	n, err := Adopt(context.Background(), store)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	reaped, err := store.ReapOrphans(context.Background())
	require.NoError(t, err)
	assert.Empty(t, reaped, "an adopted envelope is no orphan")
	m, err := store.Get(id)
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), m.PID)

	after := NewEnvelopes(EnvelopeOptions{Store: store})
	s, err := do(t, after, id, "interact", "")
	require.NoError(t, err)
	assert.Equal(t, 4, s.Calls, "the count went on where it was")
	_, err = do(t, after, id, "interact", "")
	require.NoError(t, err)
	_, err = do(t, after, id, "interact", "")
	require.ErrorIs(t, err, protocol.ErrBudgetExceeded)
}

func TestConcurrentCallsCountExactly(t *testing.T) {
	e, store := newEnvelopes(t)
	const agents, each, budget = 8, 25, 150
	id := open(t, e, Policy{MaxToolCalls: budget, MaxConsecutiveSameTool: 1000})
	var ran, refused atomic.Int32
	var wg sync.WaitGroup
	for range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				_, err := do(t, e, id, "interact", "")
				switch {
				case err == nil:
					ran.Add(1)
				case protocol.AsError(err).Code == protocol.CodeBudgetExceeded:
					refused.Add(1)
				default:
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, budget, ran.Load(), "never more than the budget")
	assert.EqualValues(t, agents*each-budget, refused.Load())
	v, err := e.Get(id)
	require.NoError(t, err)
	assert.Equal(t, budget, v.Counters.Calls, "every call counted once, on disk too")
	events, err := store.Events(id)
	require.NoError(t, err)
	calls := 0
	for _, ev := range events {
		if ev.Kind == EventCall {
			calls++
		}
	}
	assert.Equal(t, budget, calls)
}

// BenchmarkRecordACall is the cost an envelope adds to a browser call:
// the check before it and the count after (issue 12: under 1 ms).
func BenchmarkRecordACall(b *testing.B) {
	e, _ := newEnvelopes(b)
	id := open(b, e, Policy{})
	for b.Loop() {
		tk, err := e.Begin(context.Background(), id, "read_page", "")
		if err != nil {
			b.Fatal(err)
		}
		tk.End(context.Background(), Call{Tool: "read_page", Kind: Observation, OK: true}, nil)
	}
}
