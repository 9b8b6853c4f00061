package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// keeper returns the keeper of handoffs, or says there is none.
func (e *Engine) keeper() (*handoff.Keeper, error) {
	if e.handoffs == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "this engine keeps no handoffs")
	}
	return e.handoffs, nil
}

func handoffResult(m ledger.Meta, err error) (*protocol.ToolResult, error) {
	if err != nil {
		return nil, err
	}
	d, err := handoff.ReadDetail(m)
	if err != nil {
		return nil, err
	}
	return jsonResult(handoff.ViewOf(m, d))
}

type handoffStartIn struct {
	Reason string `json:"reason"`
	tabArgs
	RunID             string `json:"run_id,omitempty" jsonschema:"a task to attach it to"`
	Instruction       string `json:"instruction,omitempty" jsonschema:"what the person should do"`
	TimeoutMs         int    `json:"timeout_ms,omitempty" jsonschema:"default 600000"`
	CaptureScreenshot bool   `json:"capture_screenshot,omitempty"`
}

func (in *handoffStartIn) validate() error {
	if len(in.Instruction) > handoff.MaxInstruction {
		return protocol.Errorf(protocol.CodeBadRequest, "instruction is %d bytes; at most %d", len(in.Instruction), handoff.MaxInstruction).
			WithHint("say in a sentence or two what the person should do")
	}
	return nil
}

func handoffStartTool() Tool {
	return defineTab("oc_handoff_start", GroupHandoff,
		"Hand a tab to the person (login, 2FA, CAPTCHA, a step you cannot do) until they press Finish.",
		handoffStart,
		func(s *jsonschema.Schema) {
			enum(s, "reason", handoff.Reasons()...)
			between(s, "timeout_ms", float64(handoff.MinTimeout.Milliseconds()), float64(handoff.MaxTimeout.Milliseconds()))
		})
}

func handoffStart(ctx context.Context, c *call, tab int, in handoffStartIn) (*protocol.ToolResult, error) {
	k, err := c.engine.keeper()
	if err != nil {
		return nil, err
	}
	l, err := c.browser()
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(in)
	m, d, err := k.Start(ctx, c, handoff.Request{
		Reason: in.Reason, Instruction: in.Instruction, TabID: tab, Browser: l.Info().ID, RunID: in.RunID,
		Timeout: time.Duration(in.TimeoutMs) * time.Millisecond, Screenshot: in.CaptureScreenshot,
		ArgsSummary: c.engine.red.Args(raw, ledger.MaxArgsSummary),
	})
	if err != nil {
		return nil, err
	}
	v := handoff.ViewOf(m, d)
	v.InstructionLine = handoff.InstructionLine(d.Reason, d.Instruction, tab, d.Deadline, c.engine.now())
	return jsonResult(v)
}

type handoffIDIn struct {
	HandoffID string `json:"handoff_id"`
}

type handoffStatusIn struct {
	HandoffID string `json:"handoff_id"`
	WaitMs    int    `json:"wait_ms,omitempty" jsonschema:"wait this long for its end"`
}

func handoffStatusTool() Tool {
	return local(define("oc_handoff_status", GroupHandoff,
		"A handoff's state; with wait_ms, as soon as the person ends it.",
		handoffStatus,
		func(s *jsonschema.Schema) {
			between(s, "wait_ms", 0, float64(protocol.MaxCommandTimeout.Milliseconds()-10_000))
		}))
}

func handoffStatus(ctx context.Context, c *call, in handoffStatusIn) (*protocol.ToolResult, error) {
	k, err := c.engine.keeper()
	if err != nil {
		return nil, err
	}
	m, d, err := k.Wait(ctx, in.HandoffID, time.Duration(in.WaitMs)*time.Millisecond)
	if err != nil {
		return nil, err
	}
	return jsonResult(handoff.ViewOf(m, d))
}

func handoffFinishTool() Tool {
	return define("oc_handoff_finish", GroupHandoff,
		"Finish a handoff for the person; returns what changed and how to resume.",
		func(ctx context.Context, c *call, in handoffIDIn) (*protocol.ToolResult, error) {
			k, err := c.engine.keeper()
			if err != nil {
				return nil, err
			}
			if _, err := c.browser(); err != nil {
				return nil, err
			}
			return handoffResult(k.Finish(ctx, c, in.HandoffID, handoff.ByAgent))
		})
}

func handoffCancelTool() Tool {
	return local(define("oc_handoff_cancel", GroupHandoff,
		"Cancel a handoff.",
		func(ctx context.Context, c *call, in handoffIDIn) (*protocol.ToolResult, error) {
			k, err := c.engine.keeper()
			if err != nil {
				return nil, err
			}
			m, err := k.Cancel(ctx, in.HandoffID, handoff.ByAgent)
			if err != nil {
				return nil, err
			}
			d, err := handoff.ReadDetail(m)
			if err != nil {
				// A damaged record, cancelled as it was: say so plainly.
				return jsonResult(struct {
					HandoffID string        `json:"handoff_id"`
					Status    ledger.Status `json:"status"`
				}{m.ID, m.Status})
			}
			return jsonResult(handoff.ViewOf(m, d))
		}))
}
