package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

// interactActions are the actions of interact and of act's steps.
var interactActions = []string{
	"click", "double_click", "right_click", "hover", "focus", "type", "fill", "clear", "select",
	"check", "uncheck", "press", "scroll", "scroll_into_view", "accept_dialog", "dismiss_dialog",
}

// step is one action on one element: interact's arguments, and each of act's steps.
type step struct {
	Ref       string   `json:"ref,omitempty" jsonschema:"the element, e.g. e12 (from read_page or find)"`
	Query     string   `json:"query,omitempty" jsonschema:"instead of ref: the best match of find"`
	Action    string   `json:"action"`
	Text      *string  `json:"text,omitempty" jsonschema:"for type and fill (and a prompt dialog's answer)"`
	Key       string   `json:"key,omitempty" jsonschema:"for press: a key or chord, e.g. Enter, ctrl+a"`
	Values    []string `json:"values,omitempty" jsonschema:"for select: option labels or values"`
	Direction string   `json:"direction,omitempty" jsonschema:"for scroll; default down"`
	Amount    int      `json:"amount,omitempty" jsonschema:"for scroll: pixels"`
}

type interactIn struct {
	step
	TabID    int    `json:"tabId,omitempty" jsonschema:"default: the current tab"`
	Snapshot string `json:"snapshot,omitempty" jsonschema:"after the action: none (default), diff (what changed in the tree) or full"`
}

func shapeStep(s *jsonschema.Schema) {
	enum(s, "action", interactActions...)
	enum(s, "direction", "up", "down", "left", "right")
	positive(s, "amount")
}

func interactTool() Tool {
	return define("interact", GroupCore,
		"Act on one element with trusted input: click, type, fill, select, check, hover, press, scroll. A missed click tries other ways; the result says what changed.",
		interact,
		func(s *jsonschema.Schema) {
			shapeStep(s)
			positive(s, "tabId")
			enum(s, "snapshot", "none", "diff", "full")
		})
}

func interact(ctx context.Context, c *call, in interactIn) (*protocol.ToolResult, error) {
	tab, err := c.actTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	out, err := c.runStep(ctx, tab, in.step)
	if err != nil {
		return nil, err
	}
	return c.actionResult(ctx, tab, out, in.Snapshot)
}

// runStep checks a step, finds its element and runs it in the extension.
// A step whose every strategy failed comes back as a result with hitl, not
// an error: the agent decides whether to hand the tab to the human.
func (c *call) runStep(ctx context.Context, tab int, s step) (map[string]any, error) {
	if err := checkStep(s); err != nil {
		return nil, err
	}
	p := elementParams{TabID: tab, Ref: s.Ref, Action: s.Action, Text: s.Text, Key: s.Key,
		Values: s.Values, Direction: s.Direction, Amount: s.Amount}
	var found *candidate
	if s.Query != "" {
		var r findResult
		if err := c.do(ctx, pageFind(tab, s.Query, 2), &r); err != nil {
			return nil, err
		}
		if len(r.Candidates) == 0 {
			return nil, protocol.Errorf(protocol.CodeNotFound, "nothing on the page matches %q", s.Query).
				WithHint("call find or read_page for refs")
		}
		found = &r.Candidates[0]
		p.Ref = fmt.Sprintf("e%d", found.Ref)
	}
	var out map[string]any
	if err := c.do(ctx, elementAct(p), &out); err != nil {
		return nil, err
	}
	if s.Text != nil {
		c.learnSecret(out, *s.Text)
	}
	if found != nil {
		out["found"] = fmt.Sprintf("%q matched %s (%s)", s.Query, p.Ref, found.Why)
	}
	return out, nil
}

// learnSecret makes the engine mask text from now on when the extension
// says it went into a secret field (a password, a one-time code): a page
// that echoes it, an agent that repeats it in a memo, a log line.
func (c *call) learnSecret(out map[string]any, text string) {
	if out["value_set"] == true {
		c.engine.red.Add(text)
	}
}

// checkStep refuses steps that cannot be right, before anything runs.
func checkStep(s step) error {
	bad := func(format string, args ...any) *protocol.Error {
		return protocol.Errorf(protocol.CodeBadRequest, format, args...)
	}
	noTarget := s.Action == "accept_dialog" || s.Action == "dismiss_dialog" || s.Action == "press"
	switch {
	case s.Ref != "" && s.Query != "":
		return bad("pass ref or query, not both")
	case s.Ref == "" && s.Query == "" && !noTarget:
		return bad("%s needs ref or query", s.Action).WithHint("call read_page or find for refs")
	case (s.Action == "type" || s.Action == "fill") && s.Text == nil:
		return bad("%s needs text", s.Action)
	case s.Action == "press" && s.Key == "":
		return bad(`press needs key, e.g. "Enter" or "ctrl+a"`)
	case s.Action == "select" && len(s.Values) == 0 && s.Text == nil:
		return bad(`select needs values, e.g. ["Norway"]`)
	}
	return nil
}

// actionResult writes what an action did, with the tree after it when asked.
func (c *call) actionResult(ctx context.Context, tab int, out map[string]any, want string) (*protocol.ToolResult, error) {
	failed := out["hitl"] != nil
	if !failed && (want == "diff" || want == "full") {
		before := c.engine.snaps.last(tab)
		snap, err := c.readTree(ctx, tab, readPageIn{})
		if err != nil {
			return nil, err
		}
		if want == "full" {
			out["snapshot"] = snap.header + " snapshot=" + snap.id + "\n" + strings.Join(snap.lines, "\n")
		} else {
			out["snapshot"] = describeDiff(before, snap)
		}
	}
	b, err := marshal(out)
	if err != nil {
		return nil, err
	}
	r := protocol.TextResult(string(b))
	if failed {
		r.IsError = true
		r.StructuredContent = b
	}
	return r, nil
}

// describeDiff says how a tab's tree changed since its last read.
func describeDiff(before, after *snapshot) string {
	if before == nil {
		return fmt.Sprintf("snapshot=%s (no earlier read of this tab to compare with)\n%s", after.id, strings.Join(after.lines, "\n"))
	}
	added, removed, more := diffLines(before.lines, after.lines, 40)
	var b strings.Builder
	fmt.Fprintf(&b, "snapshot=%s, changes since %s:", after.id, before.id)
	if len(added) == 0 && len(removed) == 0 {
		b.WriteString(" none")
	}
	for _, l := range removed {
		b.WriteString("\n- removed: " + strings.TrimSpace(l))
	}
	for _, l := range added {
		b.WriteString("\n+ " + strings.TrimSpace(l))
	}
	if more > 0 {
		fmt.Fprintf(&b, "\n(%d more changed lines: read_page for the whole tree)", more)
	}
	return b.String()
}
