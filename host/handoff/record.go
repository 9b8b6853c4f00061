package handoff

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Limits of a handoff.
const (
	DefaultTimeout = 10 * time.Minute
	MaxTimeout     = 60 * time.Minute
	MinTimeout     = time.Second
	MaxInstruction = 1024 // bytes
)

// Who ended a handoff.
const (
	ByAgent   = "agent"
	ByPerson  = "person"
	ByTimeout = "timeout"
	ByStop    = "stop"
)

// Detail is a handoff's own part of its ledger record (Meta.Detail).
type Detail struct {
	Reason      string `json:"reason"`
	Instruction string `json:"instruction,omitempty"`
	TabID       int    `json:"tab_id"`
	// Browser is the browser the tab is in, for snapshots taken when the
	// person presses Finish.
	Browser    string    `json:"browser,omitempty"`
	RunID      string    `json:"run_id,omitempty"`
	Deadline   time.Time `json:"deadline"`
	Screenshot bool      `json:"capture_screenshot,omitempty"`

	Before       Snapshot  `json:"before"`
	After        *Snapshot `json:"after,omitempty"`
	Delta        *Delta    `json:"delta,omitempty"`
	DeltaSummary string    `json:"delta_summary,omitempty"`
	ResumeHint   string    `json:"resume_hint,omitempty"`
	EndedBy      string    `json:"ended_by,omitempty"`
	// RunEvidence says what became of the pointer to run_id's task.
	RunEvidence string `json:"run_evidence,omitempty"`
}

// ReadDetail decodes m's detail. A record that does not decode is an
// internal error that names it and says what still works.
func ReadDetail(m ledger.Meta) (Detail, error) {
	var d Detail
	if err := json.Unmarshal(m.Detail, &d); err != nil {
		return d, protocol.Errorf(protocol.CodeInternal, "handoff %s has a damaged record (its meta.json detail does not decode)", m.ID).
			WithHint("call oc_handoff_cancel to end it; start a new handoff if the person is still needed").
			WithCause(fmt.Errorf("handoff: %s: detail: %w", m.ID, err))
	}
	return d, nil
}

func setDetail(m *ledger.Meta, d Detail) {
	b, err := json.Marshal(d)
	if err != nil {
		panic("handoff: detail: " + err.Error()) // our own struct
	}
	m.Detail = b
}

// Expire ends, as TIMED_OUT, every RUNNING handoff in store whose deadline
// has passed: a handoff's deadline holds even while no daemon was there to
// enforce it. The daemon calls it at start-up, before it reaps the orphans.
// It returns how many it ended; a record it cannot read is in the error.
func Expire(ctx context.Context, store *ledger.Store, now time.Time) (int, error) {
	running, err := store.List(ledger.Filter{Status: ledger.StatusRunning, Limit: 10_000})
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, m := range running {
		d, err := ReadDetail(m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if now.Before(d.Deadline) {
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
func timeOut(ctx context.Context, store *ledger.Store, id string, d Detail) (ledger.Meta, error) {
	d.EndedBy = ByTimeout
	return store.Transition(ctx, id, ledger.StatusTimedOut, func(m *ledger.Meta) {
		setDetail(m, d)
		m.Error = &ledger.ErrorInfo{Code: string(protocol.CodeTimeout),
			Message: "nobody pressed Finish by " + d.Deadline.UTC().Format(time.RFC3339)}
	})
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

// notFound adds the fix to a store's error about a handoff.
func notFound(err error) error {
	e := protocol.AsError(err)
	if e.Code == protocol.CodeNotFound {
		return e.WithHint("the handoff_id comes from oc_handoff_start")
	}
	return err
}

// View is a handoff as the tools show it.
type View struct {
	HandoffID       string            `json:"handoff_id"`
	Status          ledger.Status     `json:"status"`
	Reason          string            `json:"reason"`
	Instruction     string            `json:"instruction,omitempty"`
	InstructionLine string            `json:"instruction_line,omitempty"`
	TabID           int               `json:"tab_id"`
	RunID           string            `json:"run_id,omitempty"`
	CreatedAt       time.Time         `json:"created_at"`
	Deadline        time.Time         `json:"deadline"`
	FinishedAt      *time.Time        `json:"finished_at,omitempty"`
	EndedBy         string            `json:"ended_by,omitempty"`
	Before          Snapshot          `json:"before"`
	After           *Snapshot         `json:"after,omitempty"`
	Delta           *Delta            `json:"delta,omitempty"`
	DeltaSummary    string            `json:"delta_summary,omitempty"`
	ResumeHint      string            `json:"resume_hint,omitempty"`
	RunEvidence     string            `json:"run_evidence,omitempty"`
	Error           *ledger.ErrorInfo `json:"error,omitempty"`
}

// ViewOf is the view of a record and its detail.
func ViewOf(m ledger.Meta, d Detail) View {
	return View{
		HandoffID: m.ID, Status: m.Status, Reason: d.Reason, Instruction: d.Instruction,
		TabID: d.TabID, RunID: d.RunID, CreatedAt: m.CreatedAt, Deadline: d.Deadline,
		FinishedAt: m.FinishedAt, EndedBy: d.EndedBy, Before: d.Before, After: d.After,
		Delta: d.Delta, DeltaSummary: d.DeltaSummary, ResumeHint: d.ResumeHint,
		RunEvidence: d.RunEvidence, Error: m.Error,
	}
}
