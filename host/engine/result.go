package engine

import (
	"bytes"
	"encoding/json"

	"github.com/openchrome/openchrome/protocol"
)

// jsonResult answers with v as compact JSON: the text the agent reads, and
// the same object as structuredContent for programs. A v that is not a JSON
// object goes into structuredContent as {"value": v}.
func jsonResult(v any) (*protocol.ToolResult, error) {
	b, err := protocol.Marshal(v)
	if err != nil {
		return nil, err
	}
	r := protocol.TextResult(string(b))
	r.StructuredContent = objectOf(b)
	return r, nil
}

// textResult answers with text for the agent and structured, marshaled, for
// programs.
func textResult(text string, structured any) (*protocol.ToolResult, error) {
	b, err := protocol.Marshal(structured)
	if err != nil {
		return nil, err
	}
	r := protocol.TextResult(text)
	r.StructuredContent = objectOf(b)
	return r, nil
}

// objectOf returns b when it is a JSON object, else {"value": b}: MCP's
// structuredContent is always an object.
func objectOf(b []byte) json.RawMessage {
	if bytes.HasPrefix(b, []byte("{")) {
		return b
	}
	return json.RawMessage(`{"value":` + string(b) + `}`)
}
