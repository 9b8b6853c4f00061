package engine

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type formField struct {
	Ref   string `json:"ref,omitempty" jsonschema:"the control, e.g. e12"`
	Label string `json:"label,omitempty" jsonschema:"instead of ref: the control's label (for radios, the group's, with value naming the option)"`
	Value string `json:"value" jsonschema:"text; an option for selects and radios; true or false for checkboxes"`
}

type formInputIn struct {
	Fields []formField `json:"fields"`
	TabID  int         `json:"tabId,omitempty" jsonschema:"default: the current tab"`
}

func formInputTool() Tool {
	return define("form_input", GroupCore,
		"Fill many form controls at once (text, select, checkbox, radio, date, contenteditable), checking each value took.",
		formInput,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			one := 1
			property(s, "fields").MinItems = &one
		})
}

// fieldResult is what became of one field.
type fieldResult struct {
	Field    string          `json:"field"`
	Ref      string          `json:"ref,omitempty"`
	OK       bool            `json:"ok"`
	Value    any             `json:"value,omitempty"`
	Checked  any             `json:"checked,omitempty"`
	Strategy any             `json:"strategy,omitempty"`
	Error    *protocol.Error `json:"error,omitempty"`
}

func formInput(ctx context.Context, c *call, in formInputIn) (*protocol.ToolResult, error) {
	for i, f := range in.Fields {
		if (f.Ref == "") == (f.Label == "") {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "fields[%d]: pass ref or label", i)
		}
	}
	tab, err := c.actTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	results := make([]fieldResult, 0, len(in.Fields))
	failed := 0
	for _, f := range in.Fields {
		r := c.fillField(ctx, tab, f)
		if !r.OK {
			failed++
		}
		results = append(results, r)
	}
	b, err := marshal(map[string]any{"fields": results, "filled": len(results) - failed, "failed": failed})
	if err != nil {
		return nil, err
	}
	res := protocol.TextResult(string(b))
	if failed > 0 {
		res.IsError = true
		res.StructuredContent = b
	}
	return res, nil
}

// fillField fills one field; every failure is the field's, not the call's.
func (c *call) fillField(ctx context.Context, tab int, f formField) fieldResult {
	r := fieldResult{Field: f.Ref}
	if f.Label != "" {
		r.Field = f.Label
	}
	fail := func(err error) fieldResult {
		r.Error = protocol.AsError(err)
		return r
	}
	ref := f.Ref
	action := "fill"
	if f.Label != "" {
		var found struct {
			Ref  int    `json:"ref"`
			Role string `json:"role"`
		}
		if err := c.do(ctx, pageField(tab, f.Label, f.Value), &found); err != nil {
			return fail(err)
		}
		ref = fmt.Sprintf("e%d", found.Ref)
		if found.Role == "radio" {
			action = "check" // the group's option named value
		}
	}
	r.Ref = ref
	value := f.Value
	var out map[string]any
	if err := c.do(ctx, elementAct(elementParams{TabID: tab, Ref: ref, Action: action, Text: &value}), &out); err != nil {
		return fail(err)
	}
	c.learnSecret(out, value)
	if out["hitl"] != nil {
		return fail(protocol.Errorf(protocol.CodeTimeout, "no strategy could set %s", out["target"]).
			WithHint("call oc_handoff_start with reason manual_recovery"))
	}
	r.Value, r.Checked, r.Strategy = out["value"], out["checked"], out["strategy"]
	if out["value_set"] == true {
		r.Value = "(set; not shown)"
	}
	r.OK = out["verified"] != false
	if !r.OK {
		r.Error = protocol.Errorf(protocol.CodeConflict, "the control did not keep the value").
			WithHint("read_page to see it; some controls rewrite what is typed")
	}
	return r
}
