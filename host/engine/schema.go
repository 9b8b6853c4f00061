package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

// decodeArgs validates raw against a tool's schema and decodes it into in.
// Errors are bad_request and name the field first, e.g.
// `invalid arguments: quality: must be at most 100`. An argument given as
// null is taken as not given: the schema a Go slice or map infers allows
// null, and act's {"steps": null} would otherwise run no step and succeed.
func decodeArgs(resolved *jsonschema.Resolved, raw json.RawMessage, in any) error {
	v := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &v); err != nil {
			return protocol.Errorf(protocol.CodeBadRequest, "invalid arguments: not a JSON object")
		}
	}
	maps.DeleteFunc(v, func(_ string, x any) bool { return x == nil })
	if err := resolved.Validate(v); err != nil {
		field, _ := schemaFailure(err.Error())
		return protocol.Errorf(protocol.CodeBadRequest, "invalid arguments: %s", describeSchemaError(err.Error())).
			WithHint(argsHint(resolved.Schema(), v, field))
	}
	b, _ := json.Marshal(v) // v came from JSON: it marshals
	if err := json.Unmarshal(b, in); err != nil {
		return protocol.Errorf(protocol.CodeBadRequest, "invalid arguments: %v", err)
	}
	return nil
}

// argsHint says what the arguments should have been when some are unknown:
// the property an argument meant when they differ only in case, '_' or '-'
// (taskId for task_id, full_page for fullPage); the list they belong in when
// they are the fields of its items (form_input's ref and value sent without
// "fields"); else the arguments the tool takes. An unknown field of a list's
// item (form_input's {"query": …} for {"label": …}) is told the same way,
// of the item. A known argument of the wrong shape (interact's "to" given
// a ref) is told what its schema says of it.
func argsHint(s *jsonschema.Schema, v map[string]any, field string) string {
	unknown, meant := unknownArgs(s, v)
	if meant != "" {
		return meant
	}
	if len(unknown) > 0 && len(s.Properties) == 0 {
		return "it takes no arguments: call it with {}"
	}
	if len(unknown) == 0 || len(s.Properties) == 0 {
		if hint := itemsHint(s, v); hint != "" {
			return hint
		}
		if p := propertyAt(s, field); p != nil && p.Description != "" {
			return fmt.Sprintf("%s: %s", field, p.Description)
		}
		return "see the tool's input schema in tools/list"
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		items := s.Properties[name].Items
		if items == nil || items.Properties == nil {
			continue
		}
		inItems := true
		for _, arg := range unknown {
			if _, ok := items.Properties[arg]; !ok {
				inItems = false
				break
			}
		}
		if inItems {
			return fmt.Sprintf("put %s in the items of %q, like {%q: [{%s}]}", quoteAll(unknown), name, name, sample(unknown))
		}
	}
	return "it takes " + quoteAll(slices.Sorted(maps.Keys(s.Properties)))
}

// unknownArgs returns the arguments of v that s does not have, or, for the
// first that differs from one of them only in case, '_' or '-', the hint
// naming the one it meant.
func unknownArgs(s *jsonschema.Schema, v map[string]any) (unknown []string, meant string) {
	fold := func(k string) string {
		return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))
	}
	for _, arg := range slices.Sorted(maps.Keys(v)) {
		if _, known := s.Properties[arg]; known {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			if fold(name) == fold(arg) {
				return nil, fmt.Sprintf("did you mean %q? (for %q)", name, arg)
			}
		}
		unknown = append(unknown, arg)
	}
	return unknown, ""
}

// itemsHint is argsHint for the first item of a list argument with a field
// its items do not have: "did you mean" for a near miss, else the fields an
// item takes.
func itemsHint(s *jsonschema.Schema, v map[string]any) string {
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		items := s.Properties[name].Items
		list, _ := v[name].([]any)
		if items == nil || len(items.Properties) == 0 {
			continue
		}
		for _, item := range list {
			fields, _ := item.(map[string]any)
			unknown, meant := unknownArgs(items, fields)
			if meant != "" {
				return fmt.Sprintf("in %s[]: %s", name, meant)
			}
			if len(unknown) > 0 {
				return fmt.Sprintf("an item of %q takes %s", name, quoteAll(slices.Sorted(maps.Keys(items.Properties))))
			}
		}
	}
	return ""
}

// quoteAll is `"a", "b"`.
func quoteAll(names []string) string {
	return `"` + strings.Join(names, `", "`) + `"`
}

// sample is `"a": …, "b": …`, the shape of an item holding names.
func sample(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%q: …", n)
	}
	return strings.Join(parts, ", ")
}

var (
	// "validating /properties/steps/items/properties/action: type: ..."
	reLast    = regexp.MustCompile(`^validating (/[^:]*): (.*)$`)
	reType    = regexp.MustCompile(`^type: .* has type "(\w+)", want (?:one of )?"(?:null, )?([\w, ]+)"$`)
	reEnum    = regexp.MustCompile(`^enum: .* does not equal any of: \[(.*)\]$`)
	reBound   = regexp.MustCompile(`^(minimum|maximum|exclusiveMinimum|exclusiveMaximum): .* (?:less|greater) than ([-\d.e+]+)$`)
	reMissing = regexp.MustCompile(`^required: missing properties: \[(.*)\]$`)
	reExtra   = regexp.MustCompile(`^unexpected additional properties \[(.*)\]$`)
	reItems   = regexp.MustCompile(`^(minItems|maxItems): array length \d+ is (?:less|greater) than (\d+)$`)
)

// schemaFailure splits jsonschema-go's validation error into the path of
// the argument it names (steps[].action; "" when it names none) and what
// it says of it. The deepest "validating <pointer>: " names the argument.
func schemaFailure(msg string) (field, detail string) {
	line, _, _ := strings.Cut(msg, "\n")
	if i := strings.LastIndex(line, "validating /"); i >= 0 {
		if m := reLast.FindStringSubmatch(line[i:]); m != nil {
			return fieldPath(m[1]), m[2]
		}
	}
	return "", strings.TrimPrefix(line, "validating root: ")
}

// propertyAt is the schema of the argument at path (steps[].action), or nil.
func propertyAt(s *jsonschema.Schema, path string) *jsonschema.Schema {
	if path == "" {
		return nil
	}
	for _, name := range strings.Split(path, ".") {
		list := strings.HasSuffix(name, "[]")
		if s = s.Properties[strings.TrimSuffix(name, "[]")]; s == nil {
			return nil
		}
		if list {
			if s = s.Items; s == nil {
				return nil
			}
		}
	}
	return s
}

// describeSchemaError turns jsonschema-go's validation error into one line
// that names the field first. The library's text is not a stable API: what
// is not recognised passes through, minus its prefixes.
func describeSchemaError(msg string) string {
	field, detail := schemaFailure(msg)
	join := func(field, s string) string {
		if field == "" {
			return s
		}
		return field + ": " + s
	}
	switch {
	case reType.MatchString(detail):
		m := reType.FindStringSubmatch(detail)
		return join(field, "want "+m[2]+", got "+m[1])
	case reEnum.MatchString(detail):
		return join(field, "must be one of "+strings.ReplaceAll(reEnum.FindStringSubmatch(detail)[1], " ", ", "))
	case reBound.MatchString(detail):
		m := reBound.FindStringSubmatch(detail)
		n, _ := strconv.ParseFloat(m[2], 64)
		bound := strconv.FormatFloat(n, 'f', -1, 64)
		switch m[1] {
		case "minimum":
			return join(field, "must be at least "+bound)
		case "maximum":
			return join(field, "must be at most "+bound)
		case "exclusiveMinimum":
			return join(field, "must be more than "+bound)
		default:
			return join(field, "must be less than "+bound)
		}
	case reMissing.MatchString(detail):
		return join(field, "missing required "+fields(reMissing.FindStringSubmatch(detail)[1]))
	case reItems.MatchString(detail):
		m := reItems.FindStringSubmatch(detail)
		if m[1] == "minItems" {
			return join(field, "needs at least "+m[2]+" item"+plural(m[2]))
		}
		return join(field, "takes at most "+m[2]+" item"+plural(m[2]))
	case reExtra.MatchString(detail):
		return join(field, "unknown "+fields(reExtra.FindStringSubmatch(detail)[1]))
	}
	return join(field, detail)
}

// plural is "s" unless n is "1".
func plural(n string) string {
	if n == "1" {
		return ""
	}
	return "s"
}

// fieldPath turns a schema pointer into the argument's path:
// /properties/steps/items/properties/action -> steps[].action.
func fieldPath(pointer string) string {
	var b strings.Builder
	parts := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties":
			if i+1 < len(parts) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(parts[i+1])
				i++
			}
		case "items":
			b.WriteString("[]")
		}
	}
	return b.String()
}

// fields turns the library's `"b" "a"` (in map order) into
// `fields "a", "b"`, sorted so the message is the same every time.
func fields(list string) string {
	names := strings.Split(list, `" "`)
	for i, n := range names {
		names[i] = strings.Trim(n, `"`)
	}
	slices.Sort(names)
	word := "field"
	if len(names) > 1 {
		word = "fields"
	}
	return word + ` "` + strings.Join(names, `", "`) + `"`
}
