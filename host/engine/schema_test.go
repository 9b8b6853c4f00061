package engine

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

type schemaStep struct {
	Action string `json:"action"`
	Ref    string `json:"ref,omitempty"`
}

type schemaIn struct {
	URL     string       `json:"url"`
	Quality int          `json:"quality,omitempty"`
	Format  string       `json:"format,omitempty"`
	Steps   []schemaStep `json:"steps,omitempty"`
}

func TestDecodeArgsNamesTheField(t *testing.T) {
	s, err := jsonschema.For[schemaIn](nil)
	require.NoError(t, err)
	enum(s, "format", "png", "jpeg")
	between(s, "quality", 1, 100)
	one, two := 1, 2
	property(s, "steps").MinItems, property(s, "steps").MaxItems = &one, &two
	resolved, err := s.Resolve(nil)
	require.NoError(t, err)

	tests := []struct {
		args string
		want string
	}{
		{`{}`, `invalid arguments: missing required field "url"`},
		{`{"url":5}`, `invalid arguments: url: want string, got integer`},
		{`{"url":"x","quality":0}`, `invalid arguments: quality: must be at least 1`},
		{`{"url":"x","quality":101}`, `invalid arguments: quality: must be at most 100`},
		{`{"url":"x","quality":1.5}`, `invalid arguments: quality: want integer, got number`},
		{`{"url":"x","format":"gif"}`, `invalid arguments: format: must be one of png, jpeg`},
		{`{"url":"x","steps":[{"ref":"e1"}]}`, `invalid arguments: steps[]: missing required field "action"`},
		{`{"url":"x","steps":[{"action":5}]}`, `invalid arguments: steps[].action: want string, got integer`},
		{`{"url":"x","steps":"no"}`, `invalid arguments: steps: want array, got string`},
		{`{"url":"x","steps":[]}`, `invalid arguments: steps: needs at least 1 item`},
		{`{"url":"x","steps":[{"action":"a"},{"action":"b"},{"action":"c"}]}`, `invalid arguments: steps: takes at most 2 items`},
		{`{"url":"x","tabid":1}`, `invalid arguments: unknown field "tabid"`},
		{`{"a":1,"b":2,"url":"x"}`, `invalid arguments: unknown fields "a", "b"`},
		{`[1]`, `invalid arguments: not a JSON object`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var in schemaIn
			err := decodeArgs(resolved, json.RawMessage(tt.args), &in)
			require.ErrorIs(t, err, protocol.ErrBadRequest)
			assert.Equal(t, tt.want, protocol.AsError(err).Message)
		})
	}

	var in schemaIn
	require.NoError(t, decodeArgs(resolved, json.RawMessage(`{"url":"x","quality":80,"steps":[{"action":"click","ref":"e2"}]}`), &in))
	assert.Equal(t, schemaIn{URL: "x", Quality: 80, Steps: []schemaStep{{Action: "click", Ref: "e2"}}}, in)
}

func TestAnUnknownArgumentNamesTheOneItMeant(t *testing.T) {
	s, err := jsonschema.For[schemaIn](nil)
	require.NoError(t, err)
	resolved, err := s.Resolve(nil)
	require.NoError(t, err)
	tests := []struct{ args, hint string }{
		{`{"url":"x","Qual_ity":1}`, `did you mean "quality"? (for "Qual_ity")`},
		{`{"URL":"x"}`, `did you mean "url"? (for "URL")`},
		{`{"url":"x","colour":1}`, `it takes "format", "quality", "steps", "url"`},
		{`{"url":"x","action":"click","ref":"e1"}`, `put "action", "ref" in the items of "steps", like {"steps": [{"action": …, "ref": …}]}`},
		{`{"url":"x","action":"click","colour":1}`, `it takes "format", "quality", "steps", "url"`},
		{`{"url":"x","steps":[{"action":"a"},{"action":"b","query":"Send"}]}`, `an item of "steps" takes "action", "ref"`},
		{`{"url":"x","steps":[{"Action":"a"}]}`, `in steps[]: did you mean "action"? (for "Action")`},
	}
	for _, tt := range tests {
		var in schemaIn
		err := decodeArgs(resolved, json.RawMessage(tt.args), &in)
		require.ErrorIs(t, err, protocol.ErrBadRequest, tt.args)
		assert.Equal(t, tt.hint, protocol.AsError(err).Hint, tt.args)
	}
}

func TestAToolWithoutArgumentsSaysSo(t *testing.T) {
	s, err := jsonschema.For[struct{}](nil)
	require.NoError(t, err)
	resolved, err := s.Resolve(nil)
	require.NoError(t, err)
	var in struct{}
	err = decodeArgs(resolved, json.RawMessage(`{"tabId":1}`), &in)
	require.ErrorIs(t, err, protocol.ErrBadRequest)
	assert.Equal(t, `invalid arguments: unknown field "tabId"`, protocol.AsError(err).Message)
	assert.Equal(t, "it takes no arguments: call it with {}", protocol.AsError(err).Hint)
	require.NoError(t, decodeArgs(resolved, json.RawMessage(`{}`), &in))
}

func TestAnArgumentOfTheWrongShapeIsToldWhatItIs(t *testing.T) {
	type item struct {
		To []float64 `json:"to,omitempty" jsonschema:"[x, y] to drop at"`
	}
	type in struct {
		To    []float64 `json:"to,omitempty" jsonschema:"[x, y] to drop at"`
		Steps []item    `json:"steps,omitempty"`
		Bare  []float64 `json:"bare,omitempty"`
	}
	s, err := jsonschema.For[in](nil)
	require.NoError(t, err)
	resolved, err := s.Resolve(nil)
	require.NoError(t, err)
	tests := []struct{ args, msg, hint string }{
		{`{"to":"e14"}`, `invalid arguments: to: want array, got string`, `to: [x, y] to drop at`},
		{`{"steps":[{"to":{"ref":"e3"}}]}`, `invalid arguments: steps[].to: want array, got object`, `steps[].to: [x, y] to drop at`},
		{`{"bare":"x"}`, `invalid arguments: bare: want array, got string`, `see the tool's input schema in tools/list`},
	}
	for _, tt := range tests {
		var v in
		err := decodeArgs(resolved, json.RawMessage(tt.args), &v)
		require.ErrorIs(t, err, protocol.ErrBadRequest, tt.args)
		assert.Equal(t, tt.msg, protocol.AsError(err).Message, tt.args)
		assert.Equal(t, tt.hint, protocol.AsError(err).Hint, tt.args)
	}
}

func TestDescribeSchemaErrorPassesUnknownTextThrough(t *testing.T) {
	assert.Equal(t, "x: something new", describeSchemaError("validating root: validating /properties/x: something new"))
	assert.Equal(t, "odd", describeSchemaError("validating root: odd"))
}
