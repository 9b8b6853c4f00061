package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/crawl"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// taskKinds are the tools oc_task_start runs in the background.
func taskKinds() []string {
	return []string{"crawl", "crawl_sitemap", "recording", "oc_evidence_bundle", "oc_session_snapshot"}
}

type taskStartIn struct {
	Kind      string         `json:"kind,omitempty" jsonschema:"a background job; without it, an envelope"`
	Args      map[string]any `json:"args,omitempty" jsonschema:"kind's arguments"`
	Objective string         `json:"objective,omitempty" jsonschema:"required for an envelope"`
	Policy    *task.Policy   `json:"policy,omitempty"`
	Phase     string         `json:"phase,omitempty"`
}

func (in *taskStartIn) validate() error {
	if in.Kind == "" && strings.TrimSpace(in.Objective) == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "pass kind (a background job) or objective (an envelope)").
			WithHint(`e.g. {"objective": "find the cheapest flight", "policy": {"maxToolCalls": 60}}`)
	}
	if in.Policy != nil {
		return in.Policy.Validate()
	}
	return nil
}

func taskStartTool() Tool {
	return define("oc_task_start", GroupTasks,
		"Start a background job (kind), or an envelope: an objective and budgets your calls with its taskId count against.",
		taskStart,
		func(s *jsonschema.Schema) {
			enum(s, "kind", taskKinds()...)
			enum(s, "phase", task.Phases()...)
		})
}

func taskStart(ctx context.Context, c *call, in taskStartIn) (*protocol.ToolResult, error) {
	e := c.engine
	if e.tasks == nil || e.browsers == nil {
		// Tasks run in the daemon, next to the browser.
		_, err := c.browser()
		return nil, err
	}
	d := task.Detail{Objective: strings.TrimSpace(in.Objective), Phase: in.Phase}
	if in.Policy != nil {
		d.Policy = *in.Policy
	}
	if in.Kind == "" {
		return openEnvelope(ctx, c, d)
	}
	t, ok := e.tools[in.Kind]
	if !ok || t.job == nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%q is not a task kind", in.Kind).
			WithHint("kinds: " + strings.Join(taskKinds(), ", "))
	}
	// A task waits for a browser that went away, not for one that was
	// never there.
	if _, err := c.link(ctx); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(in.Args)
	if err != nil || in.Args == nil {
		raw = json.RawMessage(`{}`)
	}
	// Refuse bad arguments now, not in a task that fails later.
	if err := t.check(raw); err != nil {
		e := protocol.AsError(err)
		return nil, protocol.Errorf(e.Code, "args of %s: %s", in.Kind, strings.TrimPrefix(e.Message, "invalid arguments: ")).WithHint(e.Hint)
	}
	var detail any
	if d.Objective != "" || in.Policy != nil {
		if d.Phase == "" {
			d.Phase = task.PhaseAct
		}
		detail = d
	}
	// The task is the daemon's, not this call's: its own call, under the
	// agent's name, so it shares the agent's current tab.
	agent := c.bc.Agent
	// It keeps the starting call's limits: its client's narrowing of the
	// site policy, its upload roots.
	allowed, blocked, roots := c.bc.AllowedOrigins, c.bc.BlockedOrigins, c.bc.Roots
	m, err := e.tasks.Start(t.Name, e.red.Args(raw, ledger.MaxArgsSummary), detail, func(ctx context.Context, s *task.Sink) (any, error) {
		if d.Policy.MaxWallMs > 0 {
			var done context.CancelFunc
			ctx, done = context.WithTimeout(ctx, time.Duration(d.Policy.MaxWallMs)*time.Millisecond)
			defer done()
		}
		bc := bridge.NewCall(agent, t.Name, raw, nil)
		bc.AllowedOrigins, bc.BlockedOrigins, bc.Roots = allowed, blocked, roots
		tc := &call{engine: e, bc: bc, agent: e.agent(agent), wait: &browserWait{sink: s, bound: e.wait}}
		out, err := t.job(ctx, tc, raw, s)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = protocol.Errorf(protocol.CodeBudgetExceeded, "the task's maxWallMs (%d) ran out", d.Policy.MaxWallMs)
		}
		return out, err
	})
	if err != nil {
		return nil, err
	}
	return jsonResult(map[string]any{"task_id": m.ID, "status": m.Status,
		"next": "oc_task_wait or oc_task_get with this task_id; oc_task_cancel to stop it"})
}

type taskListIn struct {
	Status string `json:"status,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Since  string `json:"since,omitempty" jsonschema:"RFC 3339 time, or a duration such as 2h"`
}

func taskListTool() Tool {
	return local(define("oc_task_list", GroupTasks,
		"List tasks and envelopes, newest first.",
		taskList,
		func(s *jsonschema.Schema) {
			enum(s, "status", "PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED")
			enum(s, "kind", append(taskKinds(), task.KindEnvelope)...)
			between(s, "limit", 1, 1000)
		}))
}

func taskList(ctx context.Context, c *call, in taskListIn) (*protocol.ToolResult, error) {
	store, err := c.taskStore()
	if err != nil {
		return nil, err
	}
	f := ledger.Filter{Status: ledger.Status(in.Status), Kind: in.Kind, Limit: in.Limit}
	if in.Since != "" {
		if f.Since, err = parseSince(in.Since, c.engine.now()); err != nil {
			return nil, err
		}
	}
	tasks, err := store.List(f)
	if err != nil {
		return nil, err
	}
	if tasks == nil {
		tasks = []ledger.Meta{}
	}
	return jsonResult(map[string]any{"tasks": tasks})
}

// parseSince reads an RFC 3339 time or a duration back from now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, protocol.Errorf(protocol.CodeBadRequest, "since %q is neither an RFC 3339 time nor a duration", s).
		WithHint(`e.g. "2026-11-21T09:00:00Z" or "2h"`)
}

type taskGetIn struct {
	TaskID        string `json:"task_id"`
	IncludeResult bool   `json:"include_result,omitempty"`
}

func taskGetTool() Tool {
	return local(define("oc_task_get", GroupTasks, "A task's or envelope's state; include_result adds a job's result.", taskGet))
}

func taskGet(ctx context.Context, c *call, in taskGetIn) (*protocol.ToolResult, error) {
	store, err := c.taskStore()
	if err != nil {
		return nil, err
	}
	m, err := store.Get(in.TaskID)
	if err != nil {
		return nil, taskError(err)
	}
	if task.IsEnvelope(m) {
		v, err := c.engine.envelopes.Get(m.ID)
		if err != nil {
			return nil, err
		}
		return jsonResult(v)
	}
	v, err := c.viewTask(m, in.IncludeResult)
	if err != nil {
		return nil, err
	}
	return jsonResult(v)
}

type taskCancelIn struct {
	TaskID string `json:"task_id"`
}

func taskCancelTool() Tool {
	return local(define("oc_task_cancel", GroupTasks,
		"Stop a task, keeping what it did, or end an envelope.", taskCancel))
}

func taskCancel(ctx context.Context, c *call, in taskCancelIn) (*protocol.ToolResult, error) {
	store, err := c.taskStore()
	if err != nil {
		return nil, err
	}
	m, err := store.Get(in.TaskID)
	if errors.Is(err, ledger.ErrDamaged) {
		// Nothing can run under a record no one can read: end it as damaged.
		m, err := store.EndDamaged(ctx, in.TaskID)
		if err != nil {
			return nil, taskError(err)
		}
		return jsonResult(m)
	}
	if err == nil && task.IsEnvelope(m) {
		v, err := c.engine.envelopes.Finish(ctx, in.TaskID, ledger.StatusCancelled, "cancelled with oc_task_cancel", "agent")
		if err != nil {
			return nil, err
		}
		return jsonResult(v)
	}
	if _, err := c.engine.tasks.Cancel(ctx, in.TaskID); err != nil {
		return nil, taskError(err)
	}
	// Most tasks stop within a work unit: wait a little, to answer with
	// how it ended.
	wctx, done := context.WithTimeout(ctx, 2*time.Second)
	defer done()
	m, err = store.Wait(wctx, in.TaskID)
	if err != nil && ctx.Err() == nil {
		m, err = store.Get(in.TaskID) // still winding down: say so
	}
	if err != nil {
		return nil, taskError(err)
	}
	return jsonResult(m)
}

type taskWaitIn struct {
	TaskID    string `json:"task_id"`
	TimeoutMs int    `json:"timeout_ms,omitempty"`
}

func taskWaitTool() Tool {
	return local(define("oc_task_wait", GroupTasks,
		"Wait until a task ends.", taskWait,
		func(s *jsonschema.Schema) {
			between(s, "timeout_ms", 1, float64(protocol.MaxCommandTimeout.Milliseconds()-10_000))
		}))
}

func taskWait(ctx context.Context, c *call, in taskWaitIn) (*protocol.ToolResult, error) {
	store, err := c.taskStore()
	if err != nil {
		return nil, err
	}
	wait := 60 * time.Second
	if in.TimeoutMs > 0 {
		wait = time.Duration(in.TimeoutMs) * time.Millisecond
	}
	wctx, done := context.WithTimeout(ctx, wait)
	defer done()
	m, err := store.Wait(wctx, in.TaskID)
	if err != nil {
		if errors.Is(err, protocol.ErrTimeout) && ctx.Err() == nil {
			m, _ = store.Get(in.TaskID)
			return nil, protocol.Errorf(protocol.CodeTimeout, "task %s is still %s after %s", in.TaskID, m.Status, wait).
				WithHint("call oc_task_wait again, or oc_task_get for its progress")
		}
		return nil, taskError(err)
	}
	return jsonResult(m)
}

// taskError adds the fix to a store's error about a task.
func taskError(err error) error {
	e := protocol.AsError(err)
	switch {
	case errors.Is(err, ledger.ErrDamaged):
		return e.WithHint("oc_task_cancel ends it as damaged (its meta.json is kept as meta.json.damaged); or remove its directory")
	}
	switch e.Code {
	case protocol.CodeNotFound:
		return e.WithHint("call oc_task_list for the tasks there are")
	case protocol.CodeConflict:
		return e.WithHint("the task has ended; oc_task_get shows how")
	}
	return err
}

// local marks t as runnable with no daemon: it only reads the ledger.
func local(t Tool) Tool {
	t.Local = true
	return t
}

// taskStore returns the ledger of tasks, or says there is none.
func (c *call) taskStore() (*ledger.Store, error) {
	if c.engine.tasks == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "this engine keeps no tasks")
	}
	return c.engine.tasks.Store(), nil
}

// taskView is a task as the tools show it.
type taskView struct {
	ledger.Meta
	Result json.RawMessage `json:"result,omitempty"`
	Note   string          `json:"note,omitempty"`
}

func (c *call) viewTask(m ledger.Meta, withResult bool) (taskView, error) {
	v := taskView{Meta: m}
	if !withResult {
		return v, nil
	}
	store, err := c.taskStore()
	if err != nil {
		return v, err
	}
	res, err := store.Result(m.ID)
	switch {
	case errors.Is(err, protocol.ErrNotFound):
		v.Note = "no result yet"
	case err != nil:
		return v, err
	case len(res) > maxJobResult:
		file := store.Root() + "/" + m.ID + "/result.json"
		var whole crawl.Result
		if (m.Kind == "crawl" || m.Kind == "crawl_sitemap") && json.Unmarshal(res, &whole) == nil {
			if v.Result, err = protocol.Marshal(whole.Brief(maxJobResult)); err != nil {
				return v, err
			}
			v.Note = briefNote(int64(len(res)), file)
			break
		}
		v.Note = fmt.Sprintf("the result is %d bytes, over the %d returned inline; it is in %s", len(res), maxJobResult, file)
	default:
		v.Result = res
	}
	return v, nil
}
