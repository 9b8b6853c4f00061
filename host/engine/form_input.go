package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type formField struct {
	Ref   string     `json:"ref,omitempty"`
	Label string     `json:"label,omitempty" jsonschema:"or its label (a group's: value names its boxes)"`
	Value fieldValue `json:"value" jsonschema:"text, an option, true/false, or a multi-select's list"`
}

// fieldValue is what goes into a field. Agents send a checkbox's true or a
// quantity's 3 as JSON booleans and numbers as often as strings; each is
// taken as the text it prints as. A list is the options a multi-select
// keeps, and only those.
type fieldValue struct {
	text    string
	options []string // the value was a list
}

func (v *fieldValue) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*v = fieldValue{text: s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		if len(list) == 0 {
			return fmt.Errorf("value: a list names at least one option")
		}
		*v = fieldValue{text: list[0], options: list}
		return nil
	}
	var any any
	if err := json.Unmarshal(b, &any); err != nil {
		return err
	}
	switch any.(type) {
	case bool, float64:
		*v = fieldValue{text: strings.TrimSpace(string(b))}
		return nil
	}
	return fmt.Errorf("value: want a string, boolean, number or a list of strings")
}

type formInputIn struct {
	Fields []formField `json:"fields"`
	tabArgs
}

func (in *formInputIn) validate() error {
	named := map[string]int{} // a ref, or a label folded, to its field
	for i, f := range in.Fields {
		if (f.Ref == "") == (f.Label == "") {
			return protocol.Errorf(protocol.CodeBadRequest, "fields[%d]: pass ref or label", i)
		}
		name := cmp.Or(f.Ref, "label "+strings.ToLower(strings.Join(strings.Fields(f.Label), " ")))
		if j, ok := named[name]; ok {
			return protocol.Errorf(protocol.CodeBadRequest, "fields[%d] names the field of fields[%d] again: each field is filled once", i, j).
				WithHint("give each field once, with the value it should keep")
		}
		named[name] = i
	}
	return nil
}

func formInputTool() Tool {
	return defineTab("form_input", GroupCore,
		"Fill form controls at once, checking each value took.",
		formInput,
		func(s *jsonschema.Schema) {
			one := 1
			fields := property(s, "fields")
			fields.MinItems = &one
			value := property(fields.Items, "value")
			value.Type, value.Types = "", []string{"string", "boolean", "number", "array"}
			value.Properties, value.AdditionalProperties, value.Required = nil, nil, nil
		})
}

// fieldResult is what became of one field.
type fieldResult struct {
	Field   string          `json:"field"`
	Ref     string          `json:"ref,omitempty"`
	OK      bool            `json:"ok"`
	Value   json.RawMessage `json:"value,omitempty"`
	Checked *bool           `json:"checked,omitempty"`
	// Formatted: the page wrote the value its own way; Value says how.
	Formatted bool            `json:"formatted,omitempty"`
	Strategy  string          `json:"strategy,omitempty"`
	Error     *protocol.Error `json:"error,omitempty"`
}

func formInput(ctx context.Context, c *call, tab int, in formInputIn) (*protocol.ToolResult, error) {
	out := struct {
		Fields []fieldResult `json:"fields"`
		Filled int           `json:"filled"`
		Failed int           `json:"failed"`
		// Change and NextActions: what filling did beyond the values (an
		// error shown under a field, a total recounted), or what stopped
		// it, when a field's input took the page elsewhere or opened a
		// dialog.
		Change      *change      `json:"change,omitempty"`
		NextActions []nextAction `json:"nextActions,omitempty"`
	}{Fields: make([]fieldResult, 0, len(in.Fields))}
	var did fillChanges
	filled := map[string]string{} // a ref to the field that filled it
	for i, f := range in.Fields {
		r, done := c.fillField(ctx, tab, f, i == len(in.Fields)-1, filled)
		if r.OK {
			out.Filled++
		} else {
			out.Failed++
		}
		out.Fields = append(out.Fields, r)
		if !interrupts(done) {
			if r.OK { // a field that failed says why in its error
				did.add(tab, r.Field, done)
			}
			continue
		}
		// The page the other fields were meant for is held by a dialog or
		// gone: none of them is filled, on it or on another.
		ch, next := changeOf(tab, actedEffects(done))
		out.Change, out.NextActions = &ch, next
		for _, rest := range in.Fields[i+1:] {
			out.Fields = append(out.Fields, notFilled(rest, r.Field, ch))
			out.Failed++
		}
		break
	}
	if out.Change == nil && did.delivered > 0 {
		ch, next := did.change()
		out.Change, out.NextActions = &ch, next
	}
	r, err := jsonResult(out)
	if err != nil {
		return nil, err
	}
	r.IsError = out.Failed > 0
	return r, nil
}

// fillChanges gathers what filling each field did beyond setting its
// value, for one change of the whole call.
type fillChanges struct {
	delivered int
	typ       string // the first type other than none
	said      []fieldsSaid
	next      []nextAction
}

// ownState is the part of a summary that says the control's own state
// changed ("now checked, "): form_input's field result says it as the value.
var ownState = regexp.MustCompile(`^now (?:un)?(?:checked|selected|pressed)(?:, |$)`)

func (f *fillChanges) add(tab int, field string, done browser.Acted) {
	if done.Delivered == nil || !*done.Delivered {
		return
	}
	f.delivered++
	ch, next := changeOf(tab, actedEffects(done))
	if ch.Type == "none" && ch.Summary == valueSet {
		return
	}
	if ch.Type == "dom" {
		// A checkbox's or an option's own state is the value it took: the
		// field's result says it.
		ch.Summary = ownState.ReplaceAllString(ch.Summary, "")
		if ch.Summary == "" {
			return
		}
	}
	if f.typ == "" && ch.Type != "none" {
		f.typ = ch.Type
	}
	summary := strings.TrimPrefix(ch.Summary, "input delivered; ")
	if n := len(f.said); n > 0 && grows(f.said[n-1].summary, summary) {
		// One text the page writes as the form fills (a summary, a live
		// preview) is said once, as it stands after the last of them.
		f.said[n-1].fields = append(f.said[n-1].fields, field)
		f.said[n-1].summary = summary
	} else {
		f.said = append(f.said, fieldsSaid{[]string{field}, summary})
	}
	if f.next == nil {
		f.next = next
	}
}

func (f *fillChanges) change() (change, []nextAction) {
	if len(f.said) == 0 {
		if f.delivered == 1 {
			return change{"none", valueSet}, nil
		}
		return change{"none", "input delivered; the values are set, nothing else changed"}, nil
	}
	said := make([]string, len(f.said))
	for i, s := range f.said {
		said[i] = strings.Join(s.fields, ", ") + ": " + s.summary
	}
	return change{cmp.Or(f.typ, "none"), strings.Join(said, "; ")}, f.next
}

// fieldsSaid is what filling one or more fields in a row changed:
// `Email: it says alert "Enter a valid email"`.
type fieldsSaid struct {
	fields  []string
	summary string
}

// grows reports whether summary b says what a says and maybe more: the
// same change, or a text that a quoted (and maybe cut short) and b goes on.
func grows(a, b string) bool {
	if a == b {
		return true
	}
	text, quoted := strings.CutSuffix(a, `"`)
	return quoted && strings.HasPrefix(b, strings.TrimSuffix(text, "…"))
}

// interrupts says whether what filling a field did leaves the next fields
// no page to be filled on: a dialog holds it, or it navigated or closed.
func interrupts(a browser.Acted) bool {
	return a.Dialog != "" || a.Closed || (a.Navigated != nil && *a.Navigated)
}

// notFilled is the result of a field left alone because filling field
// before it did ch.
func notFilled(f formField, field string, ch change) fieldResult {
	r := fieldResult{Field: f.Ref, Ref: f.Ref}
	if f.Label != "" {
		r.Field, r.Ref = f.Label, ""
	}
	next := "call read_page, then form_input with the fields left that the page still has"
	if ch.Type == "dialog" {
		next = "answer it (interact accept_dialog or dismiss_dialog), then call form_input with the fields left"
	}
	r.Error = protocol.Errorf(protocol.CodeConflict, "not filled: filling %s did this: %s", field, ch.Summary).WithHint(next)
	return r
}

// fillField fills one field, and says what filling it did; every failure
// is the field's, not the call's. The last field brings the site's secrets
// with its answer (elementAct). A label that finds a control an earlier
// field of the call filled (filled: ref to that field) fills nothing: a
// field is filled once.
func (c *call) fillField(ctx context.Context, tab int, f formField, last bool, filled map[string]string) (fieldResult, browser.Acted) {
	r := fieldResult{Field: f.Ref}
	if f.Label != "" {
		r.Field = f.Label
	}
	fail := func(err error) (fieldResult, browser.Acted) {
		r.Error = protocol.AsError(err)
		return r, browser.Acted{}
	}
	claim := func(ref string) error {
		if by, ok := filled[ref]; ok && by != r.Field {
			return protocol.Errorf(protocol.CodeBadRequest, "not filled: %s is the field %s filled above: each field is filled once", ref, by).
				WithHint("give each field once, with the value it should keep")
		}
		filled[ref] = r.Field
		return nil
	}
	value := f.Value.text
	done, err := refinding(f.Label != "", func() (browser.Acted, error) {
		ref, action := f.Ref, "fill"
		if f.Label != "" {
			// A form a script renders after the page loads is waited for.
			found, err := appearing(ctx, c, func() (browser.Field, bool, error) {
				r, err := browser.ElementField(tab, f.Label, value, f.Value.options).Run(ctx, c)
				return r, err == nil, err
			})
			if err != nil {
				return browser.Acted{}, err
			}
			if len(found.Alike) > 1 {
				return browser.Acted{}, alike(tab, f.Label, found.Alike)
			}
			ref = fmt.Sprintf("e%d", found.Ref)
			r.Ref = ref // the group's answer returns before the field's is set below
			if err := claim(ref); err != nil {
				return browser.Acted{}, err
			}
			switch {
			case found.Boxes != nil:
				return c.fillGroup(ctx, tab, f, found, last)
			case found.InGroup:
				action = "check" // the group's option named value
			case found.Role == "combobox":
				// Its option named value, from the browser's list or the
				// page's own (an autocomplete types it first).
				action = "select"
			}
		}
		r.Ref = ref
		if err := claim(ref); err != nil {
			return browser.Acted{}, err
		}
		if f.Value.options != nil {
			// The options a multi-select keeps; a control of one value
			// says it takes one.
			return c.elementAct(ctx, browser.Act{TabID: tab, Ref: ref, Action: "select", Values: f.Value.options}, last)
		}
		// A combobox named by ref takes its option as one named by label does.
		return c.elementAct(ctx, browser.Act{TabID: tab, Ref: ref, Action: action, Text: &value, Pick: action == "fill"}, last)
	})
	if err != nil {
		return fail(c.drawnAnew(ctx, tab, f.Ref, err))
	}
	c.learnSecret(done, value)
	if done.Blocked != nil {
		return fail(blockedError(done))
	}
	if done.Unpicked != "" {
		r.Error = unpickedError(done) // what was typed stays typed
		return r, done
	}
	r.Value, r.Checked, r.Strategy = done.Value, done.Checked, done.Strategy
	if done.ValueSet {
		r.Value = json.RawMessage(`"(set; not shown)"`)
	}
	r.OK = done.Verified == nil || *done.Verified
	r.Formatted = done.Formatted
	switch {
	case !r.OK && done.Unkept != "" && done.Keys > 0:
		// A slider the page draws, set by its keys: where they left it.
		r.Error = protocol.Errorf(protocol.CodeConflict, "the control did not keep the value: %s", done.Unkept).
			WithHint("give a value its steps reach, or drag it (interact drag with to)")
	case !r.OK && done.Unkept != "":
		r.Error = protocol.Errorf(protocol.CodeConflict, "the control did not keep the value: %s", done.Unkept).
			WithHint("shorten the value to what the field takes, or check what the page asks for")
	case !r.OK:
		r.Error = protocol.Errorf(protocol.CodeConflict, "the control did not keep the value").
			WithHint("read_page to see it; some controls rewrite what is typed")
	}
	return r, done
}

// fillGroup gives a group of checkboxes named by its label (a fieldset's
// legend) the boxes of a list, as a multi-select keeps the options listed
// and only those: each box the list names is checked, each other one
// unchecked. A value that names no box fails the field before any box is
// touched; a box already as wanted is not clicked. A radio group takes one
// option. The answer's value is the boxes now checked.
func (c *call) fillGroup(ctx context.Context, tab int, f formField, found browser.Field, last bool) (browser.Acted, error) {
	names := make([]string, len(found.Boxes))
	for i, b := range found.Boxes {
		names[i] = b.Name
	}
	if slices.ContainsFunc(found.Boxes, func(b browser.Choice) bool { return b.Role == "radio" }) {
		if len(f.Value.options) > 1 {
			return browser.Acted{}, protocol.Errorf(protocol.CodeBadRequest, "%q is a radio group: one of its options is picked, not %d",
				f.Label, len(f.Value.options)).WithHint("give value as one option's name, e.g. " + strconv.Quote(names[0]))
		}
		return c.elementAct(ctx, browser.Act{TabID: tab, Ref: fmt.Sprintf("e%d", found.Ref), Action: "check"}, last)
	}
	if len(found.Missing) > 0 {
		return browser.Acted{}, protocol.Errorf(protocol.CodeNotFound, "%q has no box named %s: nothing was changed",
			f.Label, quoteAll(found.Missing)).WithHint("its boxes: " + strings.Join(names, ", "))
	}
	out := browser.Acted{Action: "check", Ref: fmt.Sprintf("e%d", found.Ref)}
	var on, said, set []string
	verified := true
	for i, b := range found.Boxes {
		action := "uncheck"
		if b.On {
			action, on = "check", append(on, b.Name)
		}
		a, err := c.elementAct(ctx, browser.Act{TabID: tab, Ref: fmt.Sprintf("e%d", b.Ref), Action: action}, last && i == len(found.Boxes)-1)
		if err == nil && a.Blocked == nil && !interrupts(a) {
			if a.Delivered != nil && *a.Delivered {
				out.Delivered, out.Strategy = a.Delivered, a.Strategy
				set = append(set, b.Name)
				if s := ownState.ReplaceAllString(a.Changes, ""); s != "" {
					said = append(said, s)
				}
			}
			verified = verified && (a.Verified == nil || *a.Verified)
			out.PageErrors = append(out.PageErrors, a.PageErrors...)
			out.RequestErrors = append(out.RequestErrors, a.RequestErrors...)
			out.Opened = append(out.Opened, a.Opened...)
			out.Downloads = append(out.Downloads, a.Downloads...)
			continue
		}
		// What stopped the list at this box is the field's answer; the
		// boxes before it stay as they were set.
		if err != nil && len(set) > 0 {
			e := *protocol.AsError(err)
			e.Message = fmt.Sprintf("%s (set before it: %s)", e.Message, strings.Join(set, ", "))
			return a, &e
		}
		return a, err
	}
	out.Changes = strings.Join(said, "; ")
	if out.Changes == "" && out.Delivered != nil {
		out.Changes = "now checked" // only the boxes' own state changed
	}
	out.Verified = &verified
	out.Value, _ = json.Marshal(strings.Join(on, ", "))
	return out, nil
}
