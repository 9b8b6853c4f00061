package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

// taskArg is the argument of every browser tool that records the call
// against a task envelope. Absent, nothing about the call changes.
type taskArg struct {
	TaskID string `json:"taskId,omitempty"`
}

// callArgs is what the kernel reads of any call's arguments before the
// tool decodes them: the envelope, and where the call would go.
type callArgs struct {
	TaskID     string `json:"taskId"`
	URL        string `json:"url"`
	SitemapURL string `json:"sitemap_url"`
	Action     string `json:"action"` // computer's, to tell a screenshot
}

// destination is the URL a call would open, for an envelope's
// allowedDomains: navigate's and tabs_create's url, a crawl's start.
func destination(tool string, a callArgs) string {
	switch tool {
	case "navigate":
		switch a.URL {
		case "back", "forward", "reload":
			return ""
		}
		return a.URL
	case "tabs_create", "crawl":
		return a.URL
	case "crawl_sitemap":
		if a.SitemapURL != "" {
			return a.SitemapURL
		}
		return a.URL
	}
	return ""
}

// beginEnvelope checks a call that names an envelope (taskId) against it
// before the tool runs: a closed envelope, a spent budget or a destination
// outside its domains refuse the call, and nothing reaches the page. With
// no taskId it returns nil and the call is today's, byte for byte.
func (e *Engine) beginEnvelope(ctx context.Context, t Tool, raw json.RawMessage) (*task.Ticket, callArgs, error) {
	var a callArgs
	if !t.enveloped || e.envelopes == nil || len(raw) == 0 {
		return nil, a, nil
	}
	if json.Unmarshal(raw, &a) != nil || a.TaskID == "" {
		return nil, a, nil // the tool's own decoding says what is wrong
	}
	tk, err := e.envelopes.Begin(ctx, a.TaskID, t.Name, destination(t.Name, a))
	return tk, a, err
}

// endEnvelope counts the call and adds the envelope's one line to its
// result: a text block, and "envelope" in structuredContent.
func (e *Engine) endEnvelope(ctx context.Context, c *call, tk *task.Ticket, a callArgs, r *protocol.ToolResult) *protocol.ToolResult {
	kind := task.Action
	if task.Observes(c.bc.Tool, a.Action) {
		kind = task.Observation
	}
	rec := task.Call{Tool: c.bc.Tool, Kind: kind, OK: !r.IsError}
	if err := protocol.ResultError(r); err != nil {
		rec.Code = string(err.Code)
	}
	var facts struct {
		URL   string          `json:"url"`
		HITL  json.RawMessage `json:"hitl"`
		Steps []struct {
			URL string `json:"url"`
		} `json:"steps"`
	}
	_ = json.Unmarshal(r.StructuredContent, &facts)
	if n := len(facts.Steps); n > 0 && facts.URL == "" {
		facts.URL = facts.Steps[n-1].URL
	}
	rec.URL = e.red.URL(facts.URL)
	rec.Handoff = len(facts.HITL) > 0
	if rec.OK && (c.bc.Tool == "navigate" || c.bc.Tool == "tabs_create") {
		rec.Navigated = rec.URL
	}
	where := func() (string, string) {
		if c.touched == 0 {
			return "", ""
		}
		wctx, done := context.WithTimeout(ctx, 5*time.Second)
		defer done()
		tab, err := browser.TabGet(c.touched).Run(wctx, c)
		if err != nil {
			return "", ""
		}
		return e.red.URL(tab.URL), e.red.Text(tab.Title)
	}
	s := tk.End(context.WithoutCancel(ctx), rec, where)
	r.Content = append(r.Content, protocol.Content{Type: "text", Text: s.Line()})
	if len(r.StructuredContent) > 0 {
		var obj map[string]json.RawMessage
		if json.Unmarshal(r.StructuredContent, &obj) == nil {
			obj["envelope"], _ = protocol.Marshal(struct {
				TaskID string `json:"task_id"`
				Calls  int    `json:"calls"`
				task.Budget
			}{s.TaskID, s.Calls, s.Budget})
			if b, err := protocol.Marshal(obj); err == nil {
				r.StructuredContent = b
			}
		}
	}
	return r
}
