package handoff

import (
	"slices"
	"time"

	"github.com/openchrome/openchrome/ledger"
)

// endedShownFor is how long the side panel shows a handoff that has ended.
const endedShownFor = 10 * time.Minute

// Shown is a handoff as the side panel shows it (docs/human.md).
type Shown struct {
	ID           string        `json:"id"`
	Status       ledger.Status `json:"status"`
	Reason       string        `json:"reason"`
	Instruction  string        `json:"instruction,omitempty"`
	TabID        int           `json:"tabId"`
	Origin       string        `json:"origin,omitempty"`
	Deadline     time.Time     `json:"deadline"`
	CreatedAt    time.Time     `json:"created_at"`
	EndedAt      *time.Time    `json:"ended_at,omitempty"`
	DeltaSummary string        `json:"delta_summary,omitempty"`
}

// damagedInstruction is what the panel says of a record it cannot read:
// Cancel still ends it.
const damagedInstruction = "This handoff's record is damaged: press Cancel to end it."

// Shown lists, for the side panel, the newest limit handoffs that are
// RUNNING or ended less than ten minutes ago, the RUNNING ones first. A
// record it cannot read is shown as damaged, with Cancel, and logged.
func (k *Keeper) Shown(limit int) ([]Shown, error) {
	list, err := k.store.List(ledger.Filter{Limit: limit})
	if err != nil {
		return nil, err
	}
	now := k.now()
	out := []Shown{}
	for _, m := range list {
		if m.Status != ledger.StatusRunning && (m.FinishedAt == nil || now.Sub(*m.FinishedAt) > endedShownFor) {
			continue
		}
		d, err := ReadDetail(m)
		if err != nil {
			k.log.Warn("side panel: damaged handoff record", "handoff", m.ID, "err", err)
			out = append(out, Shown{ID: m.ID, Status: m.Status, Reason: m.Kind, Instruction: damagedInstruction,
				Deadline: m.CreatedAt, CreatedAt: m.CreatedAt, EndedAt: m.FinishedAt})
			continue
		}
		out = append(out, Shown{
			ID: m.ID, Status: m.Status, Reason: d.Reason, Instruction: d.Instruction, TabID: d.TabID,
			Origin: d.Before.Origin, Deadline: d.Deadline, CreatedAt: m.CreatedAt, EndedAt: m.FinishedAt,
			DeltaSummary: d.DeltaSummary,
		})
	}
	// Waiting ones first: they are what the person must act on.
	slices.SortStableFunc(out, func(a, b Shown) int {
		return rank(a.Status != ledger.StatusRunning) - rank(b.Status != ledger.StatusRunning)
	})
	return out, nil
}

func rank(b bool) int {
	if b {
		return 1
	}
	return 0
}
