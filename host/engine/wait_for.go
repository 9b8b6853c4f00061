package engine

import (
	"context"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type waitForIn struct {
	Text      *string `json:"text,omitempty"`
	TextGone  *string `json:"textGone,omitempty"`
	Ref       string  `json:"ref,omitempty"`
	Selector  *string `json:"selector,omitempty" jsonschema:"CSS"`
	URL       *string `json:"url,omitempty" jsonschema:"in the URL (* wildcard)"`
	Predicate *string `json:"predicate,omitempty" jsonschema:"JavaScript to be truthy"`
	State     string  `json:"state,omitempty" jsonschema:"for ref, selector; default visible"`
	TimeoutMs int64   `json:"timeoutMs,omitempty" jsonschema:"default 5000"`
	tabArgs
}

func (in waitForIn) target() target { return in.sentTarget() }

func (in *waitForIn) validate() error {
	set := 0
	for _, given := range []bool{in.Text != nil, in.TextGone != nil, in.Ref != "", in.Selector != nil, in.URL != nil, in.Predicate != nil} {
		if given {
			set++
		}
	}
	if in.State != "" && in.Ref == "" && in.Selector == nil {
		return protocol.Errorf(protocol.CodeBadRequest, "state applies to ref and selector")
	}
	if set == 0 && in.TimeoutMs > 0 {
		return nil // a pause: an animation, a debounce the page does not show
	}
	if set != 1 {
		return protocol.Errorf(protocol.CodeBadRequest, "wait_for takes exactly one of text, textGone, ref, selector, url, predicate (got %d)", set).
			WithHint("or timeoutMs alone, to wait that long")
	}
	// An empty condition holds on every page at once: it would answer met
	// without waiting for anything.
	for name, s := range map[string]*string{"text": in.Text, "textGone": in.TextGone, "selector": in.Selector, "url": in.URL, "predicate": in.Predicate} {
		if s != nil && strings.TrimSpace(*s) == "" {
			return protocol.Errorf(protocol.CodeBadRequest, "%s is empty: it would hold at once", name).
				WithHint("give what to wait for, or timeoutMs alone to wait that long")
		}
	}
	return nil
}

func waitForTool() Tool {
	return defineTab("wait_for", GroupCore,
		"Wait for text to show or go, an element's state, a URL, a predicate, or just timeoutMs.",
		waitFor,
		func(s *jsonschema.Schema) {
			enum(s, "state", "visible", "hidden", "attached", "detached", "enabled")
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()-5000))
		})
}

func waitFor(ctx context.Context, c *call, tab int, in waitForIn) (*protocol.ToolResult, error) {
	wait := 5 * time.Second
	if in.TimeoutMs > 0 {
		wait = time.Duration(in.TimeoutMs) * time.Millisecond
	}
	cond := browser.WaitCondition{Text: in.Text, TextGone: in.TextGone, Ref: in.Ref, Selector: in.Selector,
		URL: in.URL, Predicate: in.Predicate, State: in.State}
	start := c.engine.now()
	if cond == (browser.WaitCondition{}) {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return jsonResult(struct {
			WaitedMs int64 `json:"waitedMs"`
		}{wait.Milliseconds()})
	}
	out, err := browser.PageWait(tab, cond, wait).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	return jsonResult(struct {
		browser.Waited
		WaitedMs int64 `json:"waitedMs"`
	}{out, c.engine.now().Sub(start).Milliseconds()})
}
