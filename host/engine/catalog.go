package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

// Tool groups, chosen with `openchrome mcp --tools core,tasks,...`.
const (
	GroupCore        = "core"
	GroupLong        = "long"
	GroupTasks       = "tasks"
	GroupHandoff     = "handoff"
	GroupInteractive = "interactive" // opt-in
	GroupDebug       = "debug"       // opt-in
)

// Groups lists every group; DefaultGroups those served when none are chosen.
func Groups() []string {
	return []string{GroupCore, GroupLong, GroupTasks, GroupHandoff, GroupInteractive, GroupDebug}
}

// DefaultGroups are all but the opt-in groups.
func DefaultGroups() []string {
	return []string{GroupCore, GroupLong, GroupTasks, GroupHandoff}
}

// Tool is one entry of the catalog.
type Tool struct {
	Name        string
	Group       string
	Description string
	InputSchema *jsonschema.Schema
	// Local tools need no browser: the front-end runs them itself when no
	// daemon is up (they read the ledger).
	Local bool
	// OnTab tools act on one tab and pass the tab gate (defineTab).
	OnTab bool
	// ReadsFiles tools read files the agent names: the front-end sends the
	// agent's side's roots with their calls (protocol.Call's Roots).
	ReadsFiles bool
	// Hints are what MCP clients are told of the tool's effects, from the
	// one table in hints.go.
	Hints Hints

	// enveloped tools take taskId: their calls count against an envelope.
	enveloped bool
	// check decodes and validates arguments without running anything:
	// oc_task_start refuses a task's bad arguments before it starts.
	check func(args json.RawMessage) error
	run   func(ctx context.Context, c *call, args json.RawMessage) (*protocol.ToolResult, error)
	job   job // long-running tools only: the body a background task runs
}

// validator is an input that checks what its schema cannot say (a URL's
// form, one of two arguments); it may normalize itself. define runs it
// before anything else, so bad input sends nothing to the browser.
type validator interface{ validate() error }

// handler is a tool's body, given its decoded, validated input.
type handler[In any] func(ctx context.Context, c *call, in In) (*protocol.ToolResult, error)

// define builds a catalog entry whose schema comes from In's fields and tags
// (`json:"name,omitempty"` marks optional; `jsonschema:"..."` describes);
// shape adjusts what tags cannot say (enums, bounds). A schema that cannot be
// built is a programming error and panics at start-up.
func define[In any](name, group, description string, h handler[In], shape ...func(*jsonschema.Schema)) Tool {
	t, decode := entry[In](name, group, description, shape)
	t.run = func(ctx context.Context, c *call, raw json.RawMessage) (*protocol.ToolResult, error) {
		in, err := decode(raw)
		if err != nil {
			return nil, err
		}
		return h(ctx, c, in)
	}
	return t
}

// entry is a catalog entry without its body, and the decoder of its input.
func entry[In any](name, group, description string, shape []func(*jsonschema.Schema)) (Tool, func(json.RawMessage) (In, error)) {
	s, decode := schemaOf[In](name, shape)
	_, enveloped := s.Properties["taskId"]
	return Tool{
		Name:        name,
		Group:       group,
		Description: description,
		InputSchema: published(s),
		enveloped:   enveloped,
		check:       func(raw json.RawMessage) error { _, err := decode(raw); return err },
	}, decode
}

// schemaOf builds In's schema and the decoder that checks arguments against
// it and validates them.
func schemaOf[In any](name string, shape []func(*jsonschema.Schema)) (*jsonschema.Schema, func(json.RawMessage) (In, error)) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("engine: schema of %s: %v", name, err))
	}
	for _, f := range shape {
		f(s)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("engine: schema of %s: %v", name, err))
	}
	return s, func(raw json.RawMessage) (In, error) {
		var in In
		if err := decodeArgs(resolved, raw, &in); err != nil {
			return in, err
		}
		if v, ok := any(&in).(validator); ok {
			if err := v.validate(); err != nil {
				return in, err
			}
		}
		return in, nil
	}
}

// published is the schema tools/list shows: s without what costs every
// agent tokens and tells it nothing it needs. "additionalProperties": false
// goes (arguments are still checked against s, and an unknown one is still
// refused by name); ["null", T] becomes T (omitting an argument is how an
// agent says null); bounds go (a call past one is refused with a message
// that names it); and tabId's and taskId's descriptions go, said once in
// the server's instructions instead.
func published(s *jsonschema.Schema) *jsonschema.Schema {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("engine: schema: %v", err))
	}
	var p jsonschema.Schema
	if err := json.Unmarshal(b, &p); err != nil {
		panic(fmt.Sprintf("engine: schema: %v", err))
	}
	var trim func(s *jsonschema.Schema)
	trim = func(s *jsonschema.Schema) {
		if s == nil {
			return
		}
		s.AdditionalProperties = nil
		s.Minimum, s.Maximum, s.MinItems, s.MaxItems = nil, nil, nil, nil
		if len(s.Types) == 2 && s.Types[0] == "null" {
			s.Type, s.Types = s.Types[1], nil
		}
		for name, prop := range s.Properties {
			if name == "tabId" || name == "taskId" {
				prop.Description = ""
			}
			trim(prop)
		}
		trim(s.Items)
	}
	trim(&p)
	return &p
}

// enum limits a string property to values.
func enum(s *jsonschema.Schema, prop string, values ...string) {
	p := property(s, prop)
	p.Enum = nil
	for _, v := range values {
		p.Enum = append(p.Enum, v)
	}
}

// between bounds a number property.
func between(s *jsonschema.Schema, prop string, lo, hi float64) {
	p := property(s, prop)
	p.Minimum, p.Maximum = &lo, &hi
}

func property(s *jsonschema.Schema, prop string) *jsonschema.Schema {
	p, ok := s.Properties[prop]
	if !ok {
		panic("engine: schema has no property " + prop)
	}
	return p
}

// Catalog returns every tool, in the order tools/list shows them, each with
// its hints.
func Catalog() []Tool {
	tools := []Tool{
		healthTool(),
		tabsContextTool(),
		tabsCreateTool(),
		tabsCloseTool(),
		navigateTool(),
		readPageTool(),
		findTool(),
		interactTool(),
		actTool(),
		formInputTool(),
		computerTool(),
		waitForTool(),
		screenshotTool(),
		pdfTool(),
		downloadsTool(),
		uploadTool(),
		javascriptTool(),
		consoleTool(),
		networkRequestsTool(),
		networkRequestTool(),
		stopTool(),
		crawlTool(),
		crawlSitemapTool(),
		recordingTool(),
		evidenceTool(),
		sessionSnapshotTool(),
		sessionResumeTool(),
		taskStartTool(),
		taskListTool(),
		taskGetTool(),
		taskUpdateTool(),
		taskFinishTool(),
		taskCancelTool(),
		taskWaitTool(),
		handoffStartTool(),
		handoffStatusTool(),
		handoffFinishTool(),
		handoffCancelTool(),
		feedbackTool(),
	}
	for i := range tools {
		tools[i].Hints = hintsOf(tools[i].Name)
	}
	return tools
}

// Select returns the tools of the given groups; nil selects DefaultGroups.
// Unknown group names are an error that lists the valid ones.
func Select(groups []string) ([]Tool, error) {
	if groups == nil {
		groups = DefaultGroups()
	}
	for _, g := range groups {
		if !slices.Contains(Groups(), g) {
			return nil, fmt.Errorf("unknown tool group %q (groups: %s)", g, strings.Join(Groups(), ", "))
		}
	}
	var out []Tool
	for _, t := range Catalog() {
		if slices.Contains(groups, t.Group) {
			out = append(out, t)
		}
	}
	return out, nil
}

// positive makes an integer property at least 1 (tab ids, counts).
func positive(s *jsonschema.Schema, prop string) {
	lo := 1.0
	property(s, prop).Minimum = &lo
}
