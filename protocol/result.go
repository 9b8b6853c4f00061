package protocol

import (
	"encoding/json"
	"errors"
)

// TextResult returns a successful result holding one text block.
func TextResult(text string) *ToolResult {
	return &ToolResult{Content: []Content{{Type: "text", Text: text}}}
}

// ErrorResult turns err into a tool error an agent can act on: the text says
// code, message and hint, and structuredContent carries the same as
// {"error": {...}} for programs. An error without a code becomes internal with
// a generic message: its text may hold paths or secrets, so it stays in the
// log and never reaches the agent.
func ErrorResult(err error) *ToolResult {
	e := AsError(err)
	text := string(e.Code) + ": " + e.Message
	if e.Hint != "" {
		text += "\nhint: " + e.Hint
	}
	structured, _ := Marshal(struct {
		Error *Error `json:"error"`
	}{e})
	return &ToolResult{
		Content:           []Content{{Type: "text", Text: text}},
		StructuredContent: structured,
		IsError:           true,
	}
}

// AsError returns the coded error in err's chain, or an internal error with a
// generic message when there is none.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: "internal error; the daemon's log has the details", Hint: "run: openchrome doctor", err: err}
}

// ResultError returns the coded error a result carries, or nil when it is not
// an error result.
func ResultError(r *ToolResult) *Error {
	if r == nil || !r.IsError {
		return nil
	}
	var s struct {
		Error *Error `json:"error"`
	}
	if json.Unmarshal(r.StructuredContent, &s) == nil && s.Error != nil {
		return s.Error
	}
	msg := ""
	if len(r.Content) > 0 {
		msg = r.Content[0].Text
	}
	return &Error{Code: CodeInternal, Message: msg}
}
