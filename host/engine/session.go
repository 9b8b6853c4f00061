package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"regexp"
	"time"

	"github.com/openchrome/openchrome/host/artifact"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

type sessionSnapshotIn struct {
	Objective   string   `json:"objective,omitempty"`
	CurrentStep string   `json:"currentStep,omitempty"`
	NextActions []string `json:"nextActions,omitempty"`
	Notes       string   `json:"notes,omitempty"`
	taskArg
}

// session is sessions/<id>.json: the agent's tabs and its memo.
type session struct {
	ID          string       `json:"id"`
	CreatedAt   time.Time    `json:"created_at"`
	Objective   string       `json:"objective,omitempty"`
	CurrentStep string       `json:"currentStep,omitempty"`
	NextActions []string     `json:"nextActions,omitempty"`
	Notes       string       `json:"notes,omitempty"`
	Tabs        []sessionTab `json:"tabs"`
}

type sessionTab struct {
	URL    string `json:"url"`
	Title  string `json:"title,omitempty"`
	Active bool   `json:"active,omitempty"`
}

func sessionSnapshotTool() Tool {
	return defineJob("oc_session_snapshot",
		"Save the agent's tabs and a memo, for oc_session_resume.",
		sessionSnapshot)
}

func sessionSnapshot(ctx context.Context, c *call, in sessionSnapshotIn, s *task.Sink) (any, error) {
	if c.engine.home == "" {
		return nil, protocol.Errorf(protocol.CodeInternal, "this engine has no home to save sessions in")
	}
	tabs, err := c.listTabs(ctx)
	if err != nil {
		return nil, err
	}
	id := artifact.NewID()
	// The memo is the agent's words: they go through the redaction layer
	// like everything else that reaches the disk.
	next := make([]string, len(in.NextActions))
	for i, a := range in.NextActions {
		next[i] = c.engine.red.Text(a)
	}
	ss := session{
		ID: id, CreatedAt: c.engine.now().UTC(),
		Objective: c.engine.red.Text(in.Objective), CurrentStep: c.engine.red.Text(in.CurrentStep),
		NextActions: next, Notes: c.engine.red.Text(in.Notes), Tabs: []sessionTab{},
	}
	for _, t := range tabs {
		if t.URL == "" || t.URL == "about:blank" {
			continue
		}
		ss.Tabs = append(ss.Tabs, sessionTab{URL: c.engine.red.URL(t.URL), Title: c.engine.red.Text(t.Title), Active: t.Active})
	}
	b, err := json.MarshalIndent(ss, "", "  ")
	if err != nil {
		return nil, err
	}
	if _, err := c.engine.files.Text(c.engine.home.Path("sessions", id+".json"), b); err != nil {
		return nil, err
	}
	s.Progress(1, 1, "saved %d tabs", len(ss.Tabs))
	return map[string]any{"snapshot_id": id, "tabs": len(ss.Tabs), "saved": ss.CreatedAt}, nil
}

var sessionIDPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)

type sessionResumeIn struct {
	SnapshotID string `json:"snapshot_id"`
	taskArg
}

func sessionResumeTool() Tool {
	return define("oc_session_resume", GroupLong,
		"Reopen a session snapshot's tabs; returns its memo.", sessionResume)
}

func sessionResume(ctx context.Context, c *call, in sessionResumeIn) (*protocol.ToolResult, error) {
	if !sessionIDPattern.MatchString(in.SnapshotID) {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%q is not a snapshot id", in.SnapshotID).
			WithHint("snapshot ids are 16 hex digits, as oc_session_snapshot returned")
	}
	raw, err := os.ReadFile(c.engine.home.Path("sessions", in.SnapshotID+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, protocol.Errorf(protocol.CodeNotFound, "no session snapshot %s", in.SnapshotID).
			WithHint("oc_session_snapshot makes one")
	}
	if err != nil {
		return nil, err
	}
	var ss session
	if err := json.Unmarshal(raw, &ss); err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "session snapshot %s is damaged", in.SnapshotID).WithCause(err)
	}
	type reopened struct {
		browser.Page
		Error *protocol.Error `json:"error,omitempty"`
	}
	out := make([]reopened, 0, len(ss.Tabs))
	for _, t := range ss.Tabs {
		if err := c.checkURL(t.URL); err != nil {
			out = append(out, reopened{Page: browser.Page{URL: t.URL}, Error: protocol.AsError(err)})
			continue
		}
		p, err := browser.TabCreate(t.URL, t.Active, 0).Run(ctx, c)
		r := reopened{Page: p}
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			r.URL, r.Error = t.URL, protocol.AsError(err)
		} else if t.Active || c.currentTab() == 0 {
			c.setCurrentTab(p.TabID)
		}
		out = append(out, r)
	}
	return jsonResult(map[string]any{
		"snapshot_id": ss.ID, "saved": ss.CreatedAt, "objective": ss.Objective, "currentStep": ss.CurrentStep,
		"nextActions": ss.NextActions, "notes": ss.Notes, "tabs": out,
	})
}
