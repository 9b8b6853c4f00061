package protocol

import "fmt"

// Code is one of the shared error codes. The list is closed: the extension
// mirrors it in extension/lib/errors.js and the golden vectors keep the two in
// step, so a code added here must be added there too.
type Code string

// The shared error codes (ARCHITECTURE §4).
const (
	CodeBadRequest          Code = "bad_request"
	CodeUnauthorized        Code = "unauthorized"
	CodeBrowserNotConnected Code = "browser_not_connected"
	CodeTabNotFound         Code = "tab_not_found"
	CodeTabNotAllowed       Code = "tab_not_allowed"
	CodeStaleRef            Code = "stale_ref"
	CodeNotFound            Code = "not_found"
	CodeTimeout             Code = "timeout"
	CodeCancelled           Code = "cancelled"
	CodeDomainBlocked       Code = "domain_blocked"
	CodeBudgetExceeded      Code = "budget_exceeded"
	CodeTooLarge            Code = "too_large"
	CodeConflict            Code = "conflict"
	CodeInternal            Code = "internal"
)

// Codes lists every code, in the order of ARCHITECTURE §4.
func Codes() []Code {
	return []Code{
		CodeBadRequest, CodeUnauthorized, CodeBrowserNotConnected,
		CodeTabNotFound, CodeTabNotAllowed, CodeStaleRef, CodeNotFound,
		CodeTimeout, CodeCancelled, CodeDomainBlocked, CodeBudgetExceeded,
		CodeTooLarge, CodeConflict, CodeInternal,
	}
}

// Known reports whether c is on the shared list.
func (c Code) Known() bool {
	for _, k := range Codes() {
		if c == k {
			return true
		}
	}
	return false
}

// Error is a coded error that may be shown to an agent. Message and Hint are
// public: they must never carry a lower layer's text (paths, URLs with
// credentials, tokens). The cause is kept for logs only.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`        // one line, safe to show an agent
	Hint    string `json:"hint,omitempty"` // the call or command that fixes it
	err     error  // the cause, for logs; never marshaled
}

// Errorf returns an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithHint returns a copy of e carrying hint.
func (e *Error) WithHint(hint string) *Error {
	c := *e
	c.Hint = hint
	return &c
}

// WithCause returns a copy of e that unwraps to cause. The cause is for logs;
// it never reaches the wire.
func (e *Error) WithCause(cause error) *Error {
	c := *e
	c.err = cause
	return &c
}

func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, ErrStaleRef) holds whatever the message says.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is. Never return them directly: they carry no message.
var (
	ErrBadRequest          = &Error{Code: CodeBadRequest}
	ErrUnauthorized        = &Error{Code: CodeUnauthorized}
	ErrBrowserNotConnected = &Error{Code: CodeBrowserNotConnected}
	ErrTabNotFound         = &Error{Code: CodeTabNotFound}
	ErrTabNotAllowed       = &Error{Code: CodeTabNotAllowed}
	ErrStaleRef            = &Error{Code: CodeStaleRef}
	ErrNotFound            = &Error{Code: CodeNotFound}
	ErrTimeout             = &Error{Code: CodeTimeout}
	ErrCancelled           = &Error{Code: CodeCancelled}
	ErrDomainBlocked       = &Error{Code: CodeDomainBlocked}
	ErrBudgetExceeded      = &Error{Code: CodeBudgetExceeded}
	ErrTooLarge            = &Error{Code: CodeTooLarge}
	ErrConflict            = &Error{Code: CodeConflict}
	ErrInternal            = &Error{Code: CodeInternal}
)
