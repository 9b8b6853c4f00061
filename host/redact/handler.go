package redact

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
)

// logAnyMax bounds the summary of a struct, map or slice logged as one
// attribute value.
const logAnyMax = 4096

// NewHandler returns a slog.Handler that redacts every record before next
// sees it: the message through r's Text; string values through r's URL when
// they look like a URL and r's Text otherwise; errors by their Error() text;
// fmt.Stringers by their String(); other structured values (structs, maps,
// slices) as JSON through r's Args; the whole value of any attribute or group
// whose key names a secret ("password", "authToken", WithGroup("cookies")).
// Numbers, bools, times and durations pass unchanged. Handlers derived with
// WithAttrs and WithGroup redact the same way. r may be nil for the patterns
// alone.
//
// Logging structured values goes through encoding/json, so a value logged
// with slog.Any appears as JSON whatever handler is below.
func NewHandler(next slog.Handler, r *Redactor) slog.Handler {
	if next == nil {
		panic("redact: NewHandler needs a handler to pass records to")
	}
	return &handler{next: next, r: r}
}

type handler struct {
	next slog.Handler
	r    *Redactor
	// secret is set below a group (WithGroup) whose name names a secret:
	// every value logged there is masked.
	secret bool
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.Text(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a, h.secret))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = h.attr(a, h.secret)
	}
	return &handler{next: h.next.WithAttrs(out), r: h.r, secret: h.secret}
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return &handler{next: h.next.WithGroup(name), r: h.r, secret: h.secret || isSecretKey(name)}
}

// attr redacts one attribute; secret says it sits in a group whose name
// names a secret.
func (h *handler) attr(a slog.Attr, secret bool) slog.Attr {
	v := a.Value.Resolve()
	secret = secret || isSecretKey(a.Key)
	if v.Kind() == slog.KindGroup {
		in := v.Group()
		out := make([]slog.Attr, len(in))
		for i, g := range in {
			out[i] = h.attr(g, secret)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	}
	if secret {
		return slog.String(a.Key, Mask)
	}
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.value(v.String()))
	case slog.KindAny:
		return slog.Attr{Key: a.Key, Value: h.any(v.Any())}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// any redacts a value logged with slog.Any that is not a group.
func (h *handler) any(x any) slog.Value {
	switch x := x.(type) {
	case nil:
		return slog.AnyValue(nil)
	case error:
		return slog.StringValue(h.r.Text(x.Error()))
	case fmt.Stringer: // *url.URL, net.IP, ids
		return slog.StringValue(h.r.value(x.String()))
	case []byte:
		return slog.StringValue(h.r.Text(string(x)))
	}
	raw, err := json.Marshal(x)
	if err != nil {
		return slog.StringValue(h.r.Text(fmt.Sprintf("%+v", x)))
	}
	s := h.r.Args(raw, logAnyMax)
	if json.Valid([]byte(s)) {
		return slog.AnyValue(json.RawMessage(s)) // stays structured in a JSON log
	}
	return slog.StringValue(s)
}
