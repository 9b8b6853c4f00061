package frontend

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openchrome/openchrome/protocol"
)

// multiRoundTrip is the first MCP version in which a server may not send a
// request (elicitation among them) while it serves a call: SEP-2322's
// multi round-trip requests take their place, and the go-sdk refuses
// Elicit in such a session.
const multiRoundTrip = "2026-07-28"

// asker returns how the daemon's questions reach the person at ss's client
// (MCP elicitation, form mode), or nil when they cannot: the client
// declared no elicitation, only URL mode, or speaks a version whose
// multi round-trip requests replace elicitation during a call. A question
// asked that way ends the call's turn and cannot be withdrawn when the
// person answers in the browser first, which is the whole point of asking
// in two places, so such a client is simply not asked.
func asker(ss *mcp.ServerSession) func(context.Context, protocol.Ask) protocol.Answer {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil || p.ProtocolVersion >= multiRoundTrip {
		return nil
	}
	if c := p.Capabilities.Elicitation; c.Form == nil && c.URL != nil {
		return nil // URL mode only
	}
	return func(ctx context.Context, q protocol.Ask) protocol.Answer { return elicit(ctx, ss, q) }
}

// elicit puts q to the person as a form: no field for a confirmation
// (accept is yes), one titled enum for a choice. When ctx ends (the
// daemon withdrew q) the go-sdk cancels the request, and the client takes
// its prompt away. Anything that goes wrong is a cancel: the person was
// not asked here, and may still answer in the browser.
func elicit(ctx context.Context, ss *mcp.ServerSession, q protocol.Ask) protocol.Answer {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: q.Message, RequestedSchema: formOf(q)})
	if err != nil || res == nil {
		return protocol.Answer{Action: protocol.AnswerCancel}
	}
	switch res.Action {
	case protocol.AnswerAccept:
		if len(q.Choices) == 0 {
			return protocol.Answer{Action: protocol.AnswerAccept}
		}
		v, _ := res.Content["choice"].(string)
		for _, c := range q.Choices {
			if c.Value == v {
				return protocol.Answer{Action: protocol.AnswerAccept, Value: v}
			}
		}
		return protocol.Answer{Action: protocol.AnswerCancel}
	case protocol.AnswerDecline:
		return protocol.Answer{Action: protocol.AnswerDecline}
	}
	return protocol.Answer{Action: protocol.AnswerCancel}
}

// formOf is q's requested schema: flat, primitive properties only, as MCP
// elicitation allows.
func formOf(q protocol.Ask) map[string]any {
	props := map[string]any{}
	form := map[string]any{"type": "object", "properties": props}
	if len(q.Choices) == 0 {
		return form
	}
	one := make([]map[string]any, 0, len(q.Choices))
	for _, c := range q.Choices {
		one = append(one, map[string]any{"const": c.Value, "title": c.Label})
	}
	props["choice"] = map[string]any{"type": "string", "title": "Your choice", "oneOf": one}
	form["required"] = []string{"choice"}
	return form
}
