package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// levels are the console's levels, quietest first.
func levels() []string { return []string{"debug", "log", "info", "warning", "error"} }

type consoleIn struct {
	tabArgs
	Level   string `json:"level,omitempty" jsonschema:"this level and louder"`
	Pattern string `json:"pattern,omitempty" jsonschema:"text contains (* wildcard)"`
	Since   int    `json:"since,omitempty" jsonschema:"a next from before"`
	Limit   int    `json:"limit,omitempty"`
}

func consoleTool() Tool {
	return defineTab("console_messages", GroupCore,
		"A tab's console messages of every level and uncaught exceptions, since it joined the group.",
		consoleMessages,
		func(s *jsonschema.Schema) {
			enum(s, "level", levels()...)
			between(s, "since", 0, 1<<53)
			between(s, "limit", 1, 500)
		})
}

// maxConsoleChars bounds one console_messages or network_requests answer,
// about 8,000 tokens: the rest is read on with since.
const maxConsoleChars = 30_000

// writeWithin writes lines to b while it stays within maxConsoleChars (the
// first always goes), says how many did not, and returns how many did.
func writeWithin(b *strings.Builder, lines []string) int {
	for i, l := range lines {
		if i > 0 && b.Len()+len(l) > maxConsoleChars {
			fmt.Fprintf(b, "\n(%d more, not shown)", len(lines)-i)
			return i
		}
		b.WriteString(l)
	}
	return len(lines)
}

func consoleMessages(ctx context.Context, c *call, tab int, in consoleIn) (*protocol.ToolResult, error) {
	var want []string
	if in.Level != "" {
		want = levels()[slices.Index(levels(), in.Level):]
	}
	got, err := browser.ConsoleRead(tab, want, in.Pattern, in.Since, orDefault(in.Limit, 100)).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	got = got.Masked(c.engine.red.Text, c.engine.red.URL)
	var b strings.Builder
	if len(got.Messages) == 0 {
		fmt.Fprintf(&b, "no console messages in tab %d", tab)
	} else {
		fmt.Fprintf(&b, "%d console messages of tab %d:", len(got.Messages), tab)
	}
	lines := make([]string, len(got.Messages))
	for i, m := range got.Messages {
		level := m.Level
		if m.Kind == "exception" {
			level = "exception"
		}
		var e strings.Builder
		fmt.Fprintf(&e, "\n[%s] %s", level, m.Text)
		if m.URL != "" {
			fmt.Fprintf(&e, " (%s:%d)", m.URL, m.Line)
		}
		for line := range strings.SplitSeq(m.Stack, "\n") {
			if line != "" {
				e.WriteString("\n    " + line)
			}
		}
		lines[i] = e.String()
	}
	if n := writeWithin(&b, lines); n < len(got.Messages) {
		got.Messages, got.Next = got.Messages[:n], got.Messages[n].Seq
	}
	if got.Dropped > 0 {
		fmt.Fprintf(&b, "\n(%d older entries were dropped)", got.Dropped)
	}
	fmt.Fprintf(&b, "\nread on with since=%d", got.Next)
	return textResult(b.String(), struct {
		TabID int `json:"tabId"`
		browser.Messages
	}{tab, nonNilMessages(got)})
}

func nonNilMessages(m browser.Messages) browser.Messages {
	m.Messages = nonNil(m.Messages)
	return m
}

type networkListIn struct {
	tabArgs
	Filter *browser.RequestFilter `json:"filter,omitempty" jsonschema:"url part (* wildcard), method, status, type, failed"`
	Since  int                    `json:"since,omitempty"`
	Limit  int                    `json:"limit,omitempty"`
}

func networkRequestsTool() Tool {
	return defineTab("network_requests", GroupCore,
		"A tab's requests since it joined the group: method, URL, type, status or failure, size, time.",
		networkRequests,
		func(s *jsonschema.Schema) {
			between(s, "since", 0, 1<<53)
			between(s, "limit", 1, 500)
		})
}

func networkRequests(ctx context.Context, c *call, tab int, in networkListIn) (*protocol.ToolResult, error) {
	var f browser.RequestFilter
	if in.Filter != nil {
		f = *in.Filter
	}
	got, err := browser.NetworkList(tab, f, in.Since, orDefault(in.Limit, 100)).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if len(got.Requests) == 0 {
		fmt.Fprintf(&b, "no requests in tab %d", tab)
	} else {
		fmt.Fprintf(&b, "%d requests of tab %d (id method status type size time url):", len(got.Requests), tab)
	}
	lines := make([]string, len(got.Requests))
	for i := range got.Requests {
		r := &got.Requests[i]
		r.URL = c.engine.red.URL(r.URL)
		r.Error = c.engine.red.Text(r.Error)
		status := fmt.Sprint(r.Status)
		switch {
		case r.State == "failed":
			status = "failed(" + r.Error + ")"
		case r.State == "pending":
			status = "pending"
		}
		var e strings.Builder
		fmt.Fprintf(&e, "\n#%d %s %s %s", r.ID, r.Method, status, strings.ToLower(r.Type))
		if r.Size > 0 {
			fmt.Fprintf(&e, " %s", bytesText(r.Size))
		}
		if r.Ms > 0 {
			fmt.Fprintf(&e, " %dms", r.Ms)
		}
		e.WriteString(" " + r.URL)
		lines[i] = e.String()
	}
	if n := writeWithin(&b, lines); n < len(got.Requests) {
		got.Requests, got.Next = got.Requests[:n], got.Requests[n].ID
	}
	if got.Dropped > 0 {
		fmt.Fprintf(&b, "\n(%d older requests were dropped)", got.Dropped)
	}
	fmt.Fprintf(&b, "\nread on with since=%d; network_request with an id for headers and body", got.Next)
	got.Requests = nonNil(got.Requests)
	return textResult(b.String(), struct {
		TabID int `json:"tabId"`
		browser.Requests
	}{tab, got})
}

// bytesText is a size as people read it: 812 B, 1.2 kB, 3.4 MB.
func bytesText(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%dB", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fkB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fMB", float64(n)/1_000_000)
}

type networkRequestIn struct {
	tabArgs
	ID     int `json:"id" jsonschema:"from network_requests"`
	Offset int `json:"offset,omitempty"` // into the body: a body is read 30,000 characters a call
}

func networkRequestTool() Tool {
	return defineTab("network_request", GroupCore,
		"A request's response headers and text body. Never request bodies, cookies or credentials.",
		networkRequest,
		func(s *jsonschema.Schema) {
			positive(s, "id")
			between(s, "offset", 0, 1<<31-1)
		})
}

func networkRequest(ctx context.Context, c *call, tab int, in networkRequestIn) (*protocol.ToolResult, error) {
	got, err := browser.NetworkGet(tab, in.ID, in.Offset).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	red := c.engine.red
	got.URL, got.Error = red.URL(got.URL), red.Text(got.Error)
	got.ResponseHeaders = red.Headers(got.ResponseHeaders)
	if got.ResponseHeaders == nil {
		got.ResponseHeaders = map[string]string{}
	}
	// A body is page content, but one that names a token or password by
	// key (a login's JSON answer) is masked like a log line would be.
	got.Body.Text = red.Text(got.Body.Text)
	return jsonResult(got)
}
