package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// handoffView is a handoff as the tools show it.
type handoffView struct {
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
	Before          handoffSnapshot   `json:"before"`
	After           *handoffSnapshot  `json:"after,omitempty"`
	Delta           *handoffDelta     `json:"delta,omitempty"`
	DeltaSummary    string            `json:"delta_summary,omitempty"`
	ResumeHint      string            `json:"resume_hint,omitempty"`
	RunEvidence     string            `json:"run_evidence,omitempty"`
	Error           *ledger.ErrorInfo `json:"error,omitempty"`
}

func viewHandoff(m ledger.Meta, d handoffDetail) handoffView {
	return handoffView{
		HandoffID: m.ID, Status: m.Status, Reason: d.Reason, Instruction: d.Instruction,
		TabID: d.TabID, RunID: d.RunID, CreatedAt: m.CreatedAt, Deadline: d.Deadline,
		FinishedAt: m.FinishedAt, EndedBy: d.EndedBy, Before: d.Before, After: d.After,
		Delta: d.Delta, DeltaSummary: d.DeltaSummary, ResumeHint: d.ResumeHint,
		RunEvidence: d.RunEvidence, Error: m.Error,
	}
}

func handoffResult(m ledger.Meta, err error) (*protocol.ToolResult, error) {
	if err != nil {
		return nil, err
	}
	d, err := readDetail(m)
	if err != nil {
		return nil, err
	}
	return jsonResult(viewHandoff(m, d))
}

type handoffStartIn struct {
	Reason            string `json:"reason"`
	TabID             int    `json:"tabId,omitempty"`
	RunID             string `json:"run_id,omitempty" jsonschema:"a task to attach the finished handoff to, as evidence"`
	Instruction       string `json:"instruction,omitempty" jsonschema:"what the person should do; at most 1 KiB"`
	TimeoutMs         int    `json:"timeout_ms,omitempty" jsonschema:"default 600000 (10 min)"`
	CaptureScreenshot bool   `json:"capture_screenshot,omitempty" jsonschema:"also keep a screenshot before and after"`
}

func handoffStartTool() Tool {
	return define("oc_handoff_start", GroupHandoff,
		"Hand a tab to the person (login, 2FA, CAPTCHA, permission, a step you cannot do) until they press Finish. Keeps a secret-free snapshot to compare.",
		handoffStart,
		func(s *jsonschema.Schema) {
			enum(s, "reason", handoffReasons()...)
			positive(s, "tabId")
			between(s, "timeout_ms", float64(minHandoffTimeout.Milliseconds()), float64(maxHandoffTimeout.Milliseconds()))
		})
}

func handoffStart(ctx context.Context, c *call, in handoffStartIn) (*protocol.ToolResult, error) {
	e := c.engine
	store, err := e.handoffStore()
	if err != nil {
		return nil, err
	}
	if len(in.Instruction) > maxInstruction {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "instruction is %d bytes; at most %d", len(in.Instruction), maxInstruction).
			WithHint("say in a sentence or two what the person should do")
	}
	if in.RunID != "" {
		if err := checkRun(e, in.RunID); err != nil {
			return nil, err
		}
	}
	l, err := c.browser()
	if err != nil {
		return nil, err
	}
	tab, err := c.needTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	if held := e.handoffs.holding(tab); held != "" {
		return nil, protocol.Errorf(protocol.CodeConflict, "tab %d is already handed to the person (handoff %s)", tab, held).
			WithHint("call oc_handoff_status with wait_ms to wait for it, or oc_handoff_cancel")
	}
	before, err := e.snapshotTab(ctx, c.do, tab)
	if err != nil {
		return nil, err
	}
	timeout := defaultHandoffTimeout
	if in.TimeoutMs > 0 {
		timeout = time.Duration(in.TimeoutMs) * time.Millisecond
	}
	now := e.now()
	d := handoffDetail{
		Reason: in.Reason, Instruction: e.red.Text(in.Instruction), TabID: tab, Browser: l.Info().ID,
		RunID: in.RunID, Deadline: now.Add(timeout).UTC(), Screenshot: in.CaptureScreenshot, Before: before,
	}
	raw, _ := json.Marshal(in)
	m, err := store.Create(in.Reason, e.red.Args(raw, ledger.MaxArgsSummary), d)
	if err != nil {
		return nil, err
	}
	if in.CaptureScreenshot {
		path := filepath.Join(store.Root(), m.ID, "screenshot.png")
		if err := screenshotTo(ctx, c.do, tab, path); err != nil {
			_, _ = e.cancelHandoff(context.WithoutCancel(ctx), m.ID, endedByAgent)
			return nil, fmt.Errorf("engine: handoff screenshot: %w", err)
		}
		d.Before.ScreenshotRef = path
		if m, err = store.Update(ctx, m.ID, func(m *ledger.Meta) error { setDetail(m, d); return nil }); err != nil {
			return nil, err
		}
	}
	e.handoffs.track(m.ID, d, e.expireHandoff)
	e.changed()
	v := viewHandoff(m, d)
	v.InstructionLine = instructionLine(d.Reason, d.Instruction, tab, d.Deadline, now)
	return jsonResult(v)
}

// checkRun refuses a run_id that names no task, or one that has ended: the
// pointer could never be attached.
func checkRun(e *Engine, run string) error {
	if e.tasks == nil {
		return protocol.Errorf(protocol.CodeInternal, "this engine keeps no tasks")
	}
	m, err := e.tasks.store.Get(run)
	if err != nil {
		return protocol.Errorf(protocol.CodeNotFound, "run_id: no task %q", run).
			WithHint("pass the task_id of a running task from oc_task_start, or leave run_id out")
	}
	if e.tasks.store.Lifecycle().Terminal(m.Status) {
		return protocol.Errorf(protocol.CodeConflict, "run_id: task %s has ended (%s)", run, m.Status).
			WithHint("pass a running task, or leave run_id out")
	}
	return nil
}

type handoffIDIn struct {
	HandoffID string `json:"handoff_id"`
}

type handoffStatusIn struct {
	HandoffID string `json:"handoff_id"`
	WaitMs    int    `json:"wait_ms,omitempty" jsonschema:"wait up to this long for the person to finish"`
}

func handoffStatusTool() Tool {
	return local(readOnly(define("oc_handoff_status", GroupHandoff,
		"A handoff's state; with wait_ms, returns as soon as it ends (the person pressed Finish or Cancel).",
		handoffStatus,
		func(s *jsonschema.Schema) {
			between(s, "wait_ms", 0, float64(protocol.MaxCommandTimeout.Milliseconds()-10_000))
		})))
}

func handoffStatus(ctx context.Context, c *call, in handoffStatusIn) (*protocol.ToolResult, error) {
	e := c.engine
	m, d, err := e.getHandoff(ctx, in.HandoffID)
	if err != nil {
		return nil, err
	}
	if in.WaitMs > 0 && m.Status == ledger.StatusRunning {
		// Wake at the deadline too: the handoff times out then.
		wait := min(time.Duration(in.WaitMs)*time.Millisecond, d.Deadline.Sub(e.now())+50*time.Millisecond)
		wctx, done := context.WithTimeout(ctx, wait)
		defer done()
		store, _ := e.handoffStore()
		if _, err := store.Wait(wctx, in.HandoffID); err != nil && !errors.Is(err, protocol.ErrTimeout) {
			return nil, handoffError(err)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if m, d, err = e.getHandoff(ctx, in.HandoffID); err != nil {
			return nil, err
		}
	}
	return jsonResult(viewHandoff(m, d))
}

func handoffFinishTool() Tool {
	return define("oc_handoff_finish", GroupHandoff,
		"Finish a handoff for the person: records the after snapshot, what changed, and how to resume.",
		func(ctx context.Context, c *call, in handoffIDIn) (*protocol.ToolResult, error) {
			if _, err := c.browser(); err != nil {
				return nil, err
			}
			return handoffResult(c.engine.finishHandoff(ctx, c.do, in.HandoffID, endedByAgent))
		})
}

func handoffCancelTool() Tool {
	return local(define("oc_handoff_cancel", GroupHandoff,
		"Cancel a handoff; it records no resume checkpoint.",
		func(ctx context.Context, c *call, in handoffIDIn) (*protocol.ToolResult, error) {
			if _, err := c.engine.handoffStore(); err != nil {
				return nil, err
			}
			return handoffResult(c.engine.cancelHandoff(ctx, in.HandoffID, endedByAgent))
		}))
}
