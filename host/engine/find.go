package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type findIn struct {
	Query string `json:"query" jsonschema:"a name, text, label, placeholder or title; a role and a name (button Save); or a CSS selector"`
	TabID int    `json:"tabId,omitempty" jsonschema:"default: the current tab"`
	Limit int    `json:"limit,omitempty" jsonschema:"default 10"`
}

func findTool() Tool {
	return readOnly(define("find", GroupCore,
		"Find elements by name, text, label, role or CSS selector; ranked, with refs and why each matched.",
		find,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			between(s, "limit", 1, 100)
		}))
}

// candidate is one match of page.find.
type candidate struct {
	Ref   int    `json:"ref"`
	Role  string `json:"role"`
	Name  string `json:"name"`
	Why   string `json:"why"`
	Score int    `json:"score"`
}

type findResult struct {
	Candidates []candidate `json:"candidates"`
	Total      int         `json:"total"`
}

func find(ctx context.Context, c *call, in findIn) (*protocol.ToolResult, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "query is empty")
	}
	tab, err := c.needTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	limit := in.Limit
	if limit == 0 {
		limit = 10
	}
	var r findResult
	if err := c.do(ctx, pageFind(tab, in.Query, limit), &r); err != nil {
		return nil, err
	}
	if len(r.Candidates) == 0 {
		return protocol.TextResult(fmt.Sprintf("no match for %q in tab %d; try other words, or read_page", in.Query, tab)), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d matches for %q in tab %d:\n", len(r.Candidates), r.Total, in.Query, tab)
	for _, m := range r.Candidates {
		name := ""
		if m.Name != "" {
			name = " " + strconv.Quote(m.Name)
		}
		fmt.Fprintf(&b, "%s%s e%d (%s)\n", m.Role, name, m.Ref, m.Why)
	}
	return protocol.TextResult(strings.TrimSuffix(b.String(), "\n")), nil
}
