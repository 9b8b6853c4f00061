package ledger

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// helperRootEnv tells a re-executed test binary to play a daemon that dies
// mid-task in the ledger at this root.
const helperRootEnv = "OPENCHROME_LEDGER_HELPER_ROOT"

// TestHelperProcess is not a test: run as a child by
// TestReapOrphansAcrossProcesses, it starts a task, writes a partial result,
// prints the task id and exits 1 without finishing it, as a crashed daemon
// would.
func TestHelperProcess(t *testing.T) {
	root := os.Getenv(helperRootEnv)
	if root == "" {
		t.Skip("helper process for TestReapOrphansAcrossProcesses")
	}
	ctx := context.Background()
	s, err := Open(root, TaskLifecycle(), Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	m, err := s.Create("crawl", "url=http://127.0.0.1/ maxPages=5", nil)
	if err == nil {
		_, err = s.Transition(ctx, m.ID, StatusRunning, nil)
	}
	if err == nil {
		err = s.WriteResult(ctx, m.ID, map[string]any{"pages": []string{"/a"}})
	}
	if err == nil {
		err = s.Append(ctx, m.ID, "page", map[string]any{"url": "/a"})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println(m.ID)
	os.Exit(1) // mid-run: the task stays RUNNING
}

func TestReapOrphansAcrossProcesses(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperRootEnv+"="+root)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stderr: %s", stderr.String())
	require.Equal(t, 1, exit.ExitCode(), "stderr: %s", stderr.String())
	id := strings.TrimSpace(stdout.String())
	require.True(t, validID(id), "child printed %q", id)

	ctx := context.Background()
	s, err := Open(root, TaskLifecycle(), Options{})
	require.NoError(t, err)
	before, err := s.Get(id)
	require.NoError(t, err)
	require.Equal(t, StatusRunning, before.Status)
	require.Equal(t, cmd.Process.Pid, before.PID, "the child owned it")

	reaped, err := s.ReapOrphans(ctx)
	require.NoError(t, err)
	require.Len(t, reaped, 1)
	got, err := s.Get(id)
	require.NoError(t, err)
	assert.Equal(t, reaped[0], got)
	assert.Equal(t, StatusFailed, got.Status)
	require.NotNil(t, got.Error)
	assert.Equal(t, CodeOrphaned, got.Error.Code)
	assert.Contains(t, got.Error.Message, "stopped while this task was RUNNING")
	assert.NotNil(t, got.FinishedAt)
	assert.Equal(t, before.ResultBytes, got.ResultBytes)

	result, err := s.Result(id)
	require.NoError(t, err)
	assert.JSONEq(t, `{"pages":["/a"]}`, string(result), "the partial result is kept")

	events, err := s.Events(id)
	require.NoError(t, err)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []string{EventCreated, EventStatus, "page", EventStatus, EventOrphaned}, kinds)

	again, err := s.ReapOrphans(ctx)
	require.NoError(t, err)
	assert.Empty(t, again, "reaping twice changes nothing")
}

func TestReapOrphansSparesTheLiving(t *testing.T) {
	const (
		deadPID  = 1111
		otherPID = 2222 // a second daemon, alive, sharing the home
	)
	alive := func(pid int) bool { return pid == otherPID || pid == os.Getpid() }
	tests := []struct {
		name   string
		life   Lifecycle
		pid    int
		path   []Status
		reaped bool
		want   Status
	}{
		{"pending task of a dead daemon", TaskLifecycle(), deadPID, nil, true, StatusFailed},
		{"running task of a dead daemon", TaskLifecycle(), deadPID, []Status{StatusRunning}, true, StatusFailed},
		{"running task of a live daemon", TaskLifecycle(), otherPID, []Status{StatusRunning}, false, StatusRunning},
		{"running task of this process", TaskLifecycle(), 0, []Status{StatusRunning}, false, StatusRunning},
		{"finished task of a dead daemon", TaskLifecycle(), deadPID, []Status{StatusRunning, StatusCompleted}, false, StatusCompleted},
		{"handoff of a dead daemon", HandoffLifecycle(), deadPID, nil, true, StatusCancelled},
		{"finished handoff of a dead daemon", HandoffLifecycle(), deadPID, []Status{StatusFinished}, false, StatusFinished},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(t.TempDir(), tt.life, Options{Alive: alive})
			require.NoError(t, err)
			owner, err := Open(s.Root(), tt.life, Options{PID: tt.pid})
			require.NoError(t, err)
			m, err := owner.Create("crawl", "", nil)
			require.NoError(t, err)
			for _, st := range tt.path {
				_, err := owner.Transition(ctx, m.ID, st, nil)
				require.NoError(t, err)
			}

			var waiter <-chan waited
			if tt.reaped {
				waiter = startWait(t, ctx, s, m.ID)
			}
			reaped, err := s.ReapOrphans(ctx)
			require.NoError(t, err)
			got, err := s.Get(m.ID)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Status)
			if !tt.reaped {
				assert.Empty(t, reaped)
				if !tt.life.Terminal(got.Status) {
					assert.Nil(t, got.Error)
				}
				return
			}
			require.Len(t, reaped, 1)
			assert.Equal(t, CodeOrphaned, got.Error.Code)
			w := <-waiter
			require.NoError(t, w.err, "a Wait on an orphan ends with the reap")
			assert.Equal(t, tt.want, w.m.Status)
		})
	}
}

func TestReapOrphansStopsWithItsContext(t *testing.T) {
	s, err := Open(t.TempDir(), TaskLifecycle(), Options{Alive: func(int) bool { return false }})
	require.NoError(t, err)
	owner, err := Open(s.Root(), TaskLifecycle(), Options{PID: 1111})
	require.NoError(t, err)
	m, err := owner.Create("crawl", "", nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reaped, err := s.ReapOrphans(ctx)
	assert.Empty(t, reaped)
	assert.ErrorIs(t, err, protocol.ErrCancelled)
	got, err := s.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, StatusPending, got.Status)
}

func TestAdopt(t *testing.T) {
	const deadPID, livePID = 1111, 2222
	ctx := context.Background()
	s, err := Open(t.TempDir(), HandoffLifecycle(), Options{Alive: func(pid int) bool { return pid == livePID || pid == os.Getpid() }})
	require.NoError(t, err)
	create := func(pid int) Meta {
		owner, err := Open(s.Root(), HandoffLifecycle(), Options{PID: pid})
		require.NoError(t, err)
		m, err := owner.Create("login", "", nil)
		require.NoError(t, err)
		return m
	}

	orphan := create(deadPID)
	m, err := s.Adopt(ctx, orphan.ID)
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), m.PID)
	assert.Equal(t, StatusRunning, m.Status, "adopting changes the owner, not the status")
	events, err := s.Events(orphan.ID)
	require.NoError(t, err)
	assert.Equal(t, EventAdopted, events[len(events)-1].Kind)
	reaped, err := s.ReapOrphans(ctx)
	require.NoError(t, err)
	assert.Empty(t, reaped, "an adopted record is no orphan")

	_, err = s.Adopt(ctx, create(livePID).ID)
	assert.ErrorIs(t, err, protocol.ErrConflict, "a live owner keeps its record")
	_, err = s.Adopt(ctx, orphan.ID)
	assert.ErrorIs(t, err, protocol.ErrConflict, "adopting one's own record is a conflict")
	_, err = s.Adopt(ctx, "0000000000000001")
	assert.ErrorIs(t, err, protocol.ErrNotFound)
}
