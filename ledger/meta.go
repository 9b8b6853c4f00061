package ledger

import (
	"encoding/json"
	"time"
	"unicode/utf8"
)

// CodeOrphaned is the error code [Store.ReapOrphans] records on a record
// whose owning daemon died while it ran. It is a record outcome, not one of
// the wire error codes of package protocol.
const CodeOrphaned = "orphaned"

// MaxArgsSummary bounds Meta.ArgsSummary in bytes, the trailing "…" included,
// so a list of records stays small whatever arguments a caller started with.
const MaxArgsSummary = 2048

// Meta is a record's meta.json: everything needed to list, show and resume a
// record without reading its events or result.
type Meta struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Status    Status    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// StartedAt is set when the record enters its lifecycle's Running status.
	StartedAt *time.Time `json:"started_at,omitempty"`
	// FinishedAt is set when the record enters a terminal status.
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// PID is the daemon process that owns the record until it is terminal;
	// a non-terminal record under a dead pid is an orphan.
	PID int `json:"pid"`
	// ArgsSummary is a one-glance view of what the record was started with,
	// redacted by the caller; the store bounds it to [MaxArgsSummary].
	ArgsSummary       string     `json:"args_summary"`
	Error             *ErrorInfo `json:"error,omitempty"`
	CancelRequestedAt *time.Time `json:"cancel_requested_at,omitempty"`
	Progress          *Progress  `json:"progress,omitempty"`
	// Evidence points at other records (a handoff id, an evidence bundle).
	Evidence []Evidence `json:"evidence,omitempty"`
	// ResultBytes is the size of result.json, kept by [Store.WriteResult] so
	// a listing can say a result exists without opening it.
	ResultBytes int64 `json:"result_bytes,omitempty"`
	// Detail is kind-specific data the caller owns (a handoff's reason,
	// deadline and snapshots). The store only checks that it is JSON.
	Detail json.RawMessage `json:"detail,omitempty"`
	// Damaged is set by [Store.List] only, never written: the record's
	// meta.json cannot be read as one, and why. The other fields are zero
	// but ID.
	Damaged string `json:"damaged,omitempty"`
}

// ErrorInfo says why a record ended badly. Code is a wire code of package
// protocol or [CodeOrphaned]; Message is public, one line.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Progress is the runner's last progress report.
type Progress struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Message string `json:"message,omitempty"`
}

// Evidence is a pointer from one record to another artifact.
type Evidence struct {
	Kind string    `json:"kind"`
	Ref  string    `json:"ref"`
	At   time.Time `json:"at"`
}

// truncateSummary bounds s to MaxArgsSummary bytes, cutting on a rune
// boundary and marking the cut with "…", so the stored text stays valid UTF-8.
func truncateSummary(s string) string {
	if len(s) <= MaxArgsSummary {
		return s
	}
	const ellipsis = "…"
	cut := MaxArgsSummary - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
