package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/feedback"
	"github.com/openchrome/openchrome/protocol"
)

// How long the person has to answer, and how much a question may say.
const (
	defaultFeedbackWait = 2 * time.Minute
	minFeedbackWait     = time.Second
	// maxFeedbackWait keeps the person's countdown, and the extension's
	// timedOut answer after it, inside the broker's ten minutes for the
	// whole call: a timeoutMs of 600000 counts down 590 s.
	maxFeedbackWait = protocol.MaxCommandTimeout - browser.FeedbackGrace
	maxPrompt       = 1000
	maxOptionLabel  = 100
	maxOptions      = 12
)

// feedbackOption is one answer a choose question offers: its label, or
// {label, value} (the value is the label when left out).
type feedbackOption browser.FeedbackOption

func (o *feedbackOption) UnmarshalJSON(b []byte) error {
	var label string
	if err := json.Unmarshal(b, &label); err == nil {
		*o = feedbackOption{Label: label, Value: label}
		return nil
	}
	var obj struct {
		Label string `json:"label"`
		Value string `json:"value"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		return errors.New(`options: each is a label, or {"label", "value"}`)
	}
	if obj.Value == "" {
		obj.Value = obj.Label
	}
	*o = feedbackOption(obj)
	return nil
}

type feedbackIn struct {
	Mode      string           `json:"mode"`
	Prompt    string           `json:"prompt" jsonschema:"what to ask the person"`
	Options   []feedbackOption `json:"options,omitempty" jsonschema:"choose: labels, or {label, value}"`
	TimeoutMs int64            `json:"timeoutMs,omitempty" jsonschema:"default 120000"`
	tabArgs
}

// validate checks what the schema cannot say, and clamps the countdown.
func (in *feedbackIn) validate() error {
	bad := func(format string, args ...any) *protocol.Error {
		return protocol.Errorf(protocol.CodeBadRequest, format, args...)
	}
	in.Prompt = strings.TrimSpace(in.Prompt)
	switch {
	case in.Prompt == "":
		return bad("prompt is empty").WithHint("say what the person should confirm, choose or mark")
	case len(in.Prompt) > maxPrompt:
		return bad("prompt is %d bytes; at most %d", len(in.Prompt), maxPrompt)
	case in.Mode != feedback.ModeChoose && len(in.Options) > 0:
		return bad("options are for mode choose, not %s", in.Mode)
	case in.Mode == feedback.ModeChoose && (len(in.Options) < 2 || len(in.Options) > maxOptions):
		return bad("choose needs 2 to %d options, got %d", maxOptions, len(in.Options)).
			WithHint(`e.g. "options": ["Pro", "Free"]; for a yes or no, use mode confirm`)
	}
	seen := map[string]bool{}
	for _, o := range in.Options {
		switch {
		case strings.TrimSpace(o.Label) == "" || o.Value == "":
			return bad("an option has no label")
		case len(o.Label) > maxOptionLabel:
			return bad("an option's label is longer than %d bytes", maxOptionLabel)
		case seen[o.Value]:
			return bad("two options have the value %q", o.Value)
		}
		seen[o.Value] = true
	}
	return nil
}

// wait is the person's countdown: timeoutMs, by default two minutes,
// within what the call has.
func (in *feedbackIn) wait() time.Duration {
	if in.TimeoutMs <= 0 {
		return defaultFeedbackWait
	}
	return min(max(time.Duration(in.TimeoutMs)*time.Millisecond, minFeedbackWait), maxFeedbackWait)
}

func feedbackTool() Tool {
	return defineTab("browser_request_feedback", GroupInteractive,
		"Ask the person at the browser to confirm, choose, or point at, pick, box or comment on the page; marks come back as refs.",
		requestFeedback,
		func(s *jsonschema.Schema) {
			enum(s, "mode", feedback.Modes()...)
			// A label, or {label, value}: checked as each option decodes.
			property(s, "options").Items = &jsonschema.Schema{Types: []string{"string", "object"}}
		})
}

// requestFeedback asks the person, in the tab (or the side panel, where the
// page cannot show the overlay) and, for confirm and choose, at the agent's
// own MCP client when it can ask; the first answer wins.
func requestFeedback(ctx context.Context, c *call, tab int, in feedbackIn) (*protocol.ToolResult, error) {
	opts := make([]browser.FeedbackOption, len(in.Options))
	for i, o := range in.Options {
		opts[i] = browser.FeedbackOption(o)
	}
	r, err := c.engine.questions.Ask(ctx, c, c.bc, feedback.Request{
		TabID: tab, Mode: in.Mode, Prompt: in.Prompt, Options: opts, Wait: in.wait(),
	})
	if err != nil {
		return nil, err
	}
	return jsonResult(r)
}
