package handoff

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// page is a fake browser tab: its handoff state is what the test sets.
type page struct {
	mu    sync.Mutex
	state browser.HandoffState
	gone  bool
}

var _ browser.Doer = (*page)(nil)

func (p *page) Do(_ context.Context, cmd protocol.Command) (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return nil, protocol.Errorf(protocol.CodeTabNotFound, "no tab 4")
	}
	switch cmd.Action {
	case "handoff.state":
		return json.Marshal(p.state)
	case "page.screenshot":
		return json.Marshal(browser.Image{Data: []byte("\x89PNG"), MimeType: "image/png"})
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, "unexpected %s", cmd.Action)
}

func (p *page) set(s browser.HandoffState) {
	p.mu.Lock()
	p.state = s
	p.mu.Unlock()
}

// clock is a fake clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

type rig struct {
	k     *Keeper
	store *ledger.Store
	tasks *ledger.Store
	clock *clock
	page  *page
}

func newRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{clock: &clock{now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}, page: &page{}}
	r.page.set(browser.HandoffState{URL: "http://127.0.0.1/login?token=abc123", Title: "Login", Origin: "http://127.0.0.1",
		CookieCount: 1, StorageKeys: []string{"canary"}, DOMFingerprint: "fnv1a64:aaaa"})
	var err error
	r.store, err = ledger.Open(t.TempDir(), ledger.HandoffLifecycle(), ledger.Options{Now: r.clock.Now})
	require.NoError(t, err)
	r.tasks, err = ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{Now: r.clock.Now})
	require.NoError(t, err)
	r.k = New(Options{Store: r.store, Tasks: r.tasks, Now: r.clock.Now})
	t.Cleanup(r.k.Close)
	return r
}

func (r *rig) start(t *testing.T, req Request) (ledger.Meta, Detail) {
	t.Helper()
	m, d, err := r.k.Start(context.Background(), r.page, req)
	require.NoError(t, err)
	return m, d
}

func TestAHandoffFromStartToFinish(t *testing.T) {
	r := newRig(t)
	m, d := r.start(t, Request{Reason: "login", TabID: 4, Instruction: "use password=hunter2", Screenshot: true})
	assert.Equal(t, ledger.StatusRunning, m.Status)
	assert.Equal(t, "http://127.0.0.1/login?token=[redacted]", d.Before.URL, "the snapshot's URL is redacted")
	assert.Equal(t, "use password=[redacted]", d.Instruction)
	assert.Equal(t, r.clock.Now().Add(DefaultTimeout), d.Deadline)
	assert.FileExists(t, filepath.Join(r.store.Root(), m.ID, "screenshot.png"))
	assert.Equal(t, m.ID, r.k.Holding(4))
	assert.Equal(t, []string{m.ID}, r.k.Running())

	r.page.set(browser.HandoffState{URL: "http://127.0.0.1/secure", Title: "Secure Area", Origin: "http://127.0.0.1",
		CookieCount: 2, StorageKeys: []string{"canary", "session"}, DOMFingerprint: "fnv1a64:bbbb"})
	f, err := r.k.Finish(context.Background(), r.page, m.ID, ByPerson)
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusFinished, f.Status)
	got, err := ReadDetail(f)
	require.NoError(t, err)
	assert.Equal(t, Delta{URL: true, Title: true, CookieCount: true, StorageKeys: true, DOMFingerprint: true}, *got.Delta)
	assert.Equal(t, ByPerson, got.EndedBy)
	assert.Contains(t, got.ResumeHint, "do not log in again")
	assert.Empty(t, r.k.Holding(4), "the tab is the agent's again")

	_, err = r.k.Finish(context.Background(), r.page, m.ID, ByAgent)
	assert.ErrorIs(t, err, protocol.ErrConflict, "a handoff ends once")
	_, err = r.k.Cancel(context.Background(), m.ID, ByAgent)
	assert.ErrorIs(t, err, protocol.ErrConflict)
}

func TestAFinishWhoseTabIsGoneStillEndsIt(t *testing.T) {
	r := newRig(t)
	m, _ := r.start(t, Request{Reason: "captcha", TabID: 4})
	r.page.mu.Lock()
	r.page.gone = true
	r.page.mu.Unlock()
	f, err := r.k.Finish(context.Background(), r.page, m.ID, ByPerson)
	require.NoError(t, err)
	d, err := ReadDetail(f)
	require.NoError(t, err)
	assert.Equal(t, "no tab 4", d.After.Gone)
	assert.Contains(t, d.ResumeHint, "Tab 4 is gone")
}

func TestAHandoffTimesOutWhoeverLooks(t *testing.T) {
	r := newRig(t)
	m, _ := r.start(t, Request{Reason: "2fa", TabID: 4, Timeout: time.Minute})
	r.clock.advance(2 * time.Minute)
	got, d, err := r.k.Get(context.Background(), m.ID)
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusTimedOut, got.Status)
	assert.Equal(t, ByTimeout, d.EndedBy)
	assert.Empty(t, r.k.Holding(4))
	_, err = r.k.Finish(context.Background(), r.page, m.ID, ByAgent)
	require.ErrorIs(t, err, protocol.ErrConflict)
	assert.Contains(t, err.Error(), "timed out")
}

func TestWaitReturnsWhenThePersonFinishes(t *testing.T) {
	r := newRig(t)
	m, _ := r.start(t, Request{Reason: "login", TabID: 4})
	waiting := make(chan ledger.Meta)
	go func() {
		got, _, err := r.k.Wait(context.Background(), m.ID, time.Minute)
		assert.NoError(t, err)
		waiting <- got
	}()
	_, err := r.k.Finish(context.Background(), r.page, m.ID, ByPerson)
	require.NoError(t, err)
	select {
	case got := <-waiting:
		assert.Equal(t, ledger.StatusFinished, got.Status)
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return when the handoff finished")
	}
}

func TestAFinishedHandoffPointsItsRunAtItOnce(t *testing.T) {
	r := newRig(t)
	task, err := r.tasks.Create("crawl", "{}", nil)
	require.NoError(t, err)
	_, err = r.tasks.Transition(context.Background(), task.ID, ledger.StatusRunning, nil)
	require.NoError(t, err)

	_, _, err = r.k.Start(context.Background(), r.page, Request{Reason: "login", TabID: 4, RunID: "0000000000000001"})
	assert.ErrorIs(t, err, protocol.ErrNotFound, "a run_id that names no task")

	m, _ := r.start(t, Request{Reason: "login", TabID: 4, RunID: task.ID})
	f, err := r.k.Finish(context.Background(), r.page, m.ID, ByAgent)
	require.NoError(t, err)
	d, err := ReadDetail(f)
	require.NoError(t, err)
	assert.Equal(t, "attached", d.RunEvidence)
	got, err := r.tasks.Get(task.ID)
	require.NoError(t, err)
	require.Len(t, got.Evidence, 1)
	assert.Equal(t, m.ID, got.Evidence[0].Ref)

	_, err = r.tasks.Transition(context.Background(), task.ID, ledger.StatusCompleted, nil)
	require.NoError(t, err)
	_, _, err = r.k.Start(context.Background(), r.page, Request{Reason: "login", TabID: 5, RunID: task.ID})
	assert.ErrorIs(t, err, protocol.ErrConflict, "a run_id of an ended task")
}

// damage writes garbage over a handoff's detail, as a crash or an editor
// might.
func damage(t *testing.T, r *rig, id string) {
	t.Helper()
	_, err := r.store.Update(context.Background(), id, func(m *ledger.Meta) error {
		m.Detail = json.RawMessage(`"not a detail"`)
		return nil
	})
	require.NoError(t, err)
}

func TestADamagedRecordIsReportedNotSkipped(t *testing.T) {
	r := newRig(t)
	ok, _ := r.start(t, Request{Reason: "login", TabID: 4, Timeout: time.Minute})
	bad, _ := r.start(t, Request{Reason: "captcha", TabID: 5, Timeout: time.Minute})
	damage(t, r, bad.ID)

	_, _, err := r.k.Get(context.Background(), bad.ID)
	require.ErrorIs(t, err, protocol.ErrInternal)
	assert.Contains(t, err.Error(), bad.ID)
	assert.Contains(t, protocol.AsError(err).Hint, "oc_handoff_cancel")

	shown, err := r.k.Shown(20)
	require.NoError(t, err)
	require.Len(t, shown, 2)
	byID := map[string]Shown{shown[0].ID: shown[0], shown[1].ID: shown[1]}
	assert.Equal(t, damagedInstruction, byID[bad.ID].Instruction, "the person sees it, with Cancel")

	r.clock.advance(2 * time.Minute)
	n, err := Expire(context.Background(), r.store, r.clock.Now())
	assert.Equal(t, 1, n, "the readable one timed out")
	require.Error(t, err, "the damaged one is reported")
	assert.Contains(t, err.Error(), bad.ID)
	got, err := r.store.Get(ok.ID)
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusTimedOut, got.Status)

	c, err := r.k.Cancel(context.Background(), bad.ID, ByPerson)
	require.NoError(t, err, "a damaged handoff can still be cancelled")
	assert.Equal(t, ledger.StatusCancelled, c.Status)
}

func TestANewKeeperResumesRunningHandoffs(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	dead, err := ledger.Open(root, ledger.HandoffLifecycle(), ledger.Options{PID: 1 << 30})
	require.NoError(t, err)
	d := Detail{Reason: "login", TabID: 9, Deadline: now.Add(time.Hour), Before: Snapshot{LocalStorageKeys: []string{}}}
	m, err := dead.Create("login", "", d)
	require.NoError(t, err)
	broken, err := dead.Create("login", "", json.RawMessage(`[]`))
	require.NoError(t, err)

	store, err := ledger.Open(root, ledger.HandoffLifecycle(), ledger.Options{})
	require.NoError(t, err)
	k := New(Options{Store: store})
	defer k.Close()
	err = k.Resume(context.Background())
	require.Error(t, err, "the damaged record is reported")
	assert.Contains(t, err.Error(), broken.ID)
	assert.Equal(t, m.ID, k.Holding(9), "the person still has the tab")
	got, err := store.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), got.PID, "adopted")
}
