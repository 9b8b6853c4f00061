package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logLine logs through a redacting JSON handler and returns the decoded
// line, without its time.
func logLine(t *testing.T, r *Redactor, log func(*slog.Logger)) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	log(slog.New(NewHandler(slog.NewJSONHandler(&buf, nil), r)))
	var line map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &line), buf.String())
	delete(line, "time")
	return line
}

// credentials is a LogValuer whose value is a group holding a secret.
type credentials struct{ user, pass string }

func (c credentials) LogValue() slog.Value {
	return slog.GroupValue(slog.String("user", c.user), slog.String("password", c.pass))
}

func TestHandler(t *testing.T) {
	tests := []struct {
		name string
		log  func(*slog.Logger)
		want map[string]any
	}{
		{"secret attribute", func(l *slog.Logger) {
			l.Info("login", "user", "bob", "password", "hunter2", "apiKey", 42)
		}, map[string]any{"msg": "login", "user": "bob", "password": Mask, "apiKey": Mask}},

		{"message", func(l *slog.Logger) {
			l.Warn("retrying with token=abc")
		}, map[string]any{"level": "WARN", "msg": "retrying with token=[redacted]"}},

		{"url attribute", func(l *slog.Logger) {
			l.Info("navigate", "url", "https://u:p@app.example/cb?code=abc&state=s1")
		}, map[string]any{"msg": "navigate", "url": "https://[redacted]@app.example/cb?code=[redacted]&state=s1"}},

		{"nested group", func(l *slog.Logger) {
			l.Info("request", slog.Group("req",
				slog.String("method", "POST"),
				slog.Group("headers", slog.String("Authorization", "Bearer abc.def"), slog.String("Accept", "*/*")),
				slog.Group("cookie", slog.String("sid", "s"), slog.Int("n", 1)),
			))
		}, map[string]any{"msg": "request", "req": map[string]any{
			"method":  "POST",
			"headers": map[string]any{"Authorization": Mask, "Accept": "*/*"},
			"cookie":  map[string]any{"sid": Mask, "n": Mask},
		}}},

		{"WithAttrs", func(l *slog.Logger) {
			l.With("token", "abc", "tab", 12, "note", "password: hunter2").Info("x", "k", "v")
		}, map[string]any{"msg": "x", "token": Mask, "tab": float64(12), "note": "password: [redacted]", "k": "v"}},

		{"WithGroup", func(l *slog.Logger) {
			l.WithGroup("call").With("tool", "navigate", "secret", "s").Info("done", "url", "https://x.example/?sig=1")
		}, map[string]any{"msg": "done", "call": map[string]any{"tool": "navigate", "secret": Mask, "url": "https://x.example/?sig=[redacted]"}}},

		{"WithGroup naming a secret", func(l *slog.Logger) {
			l.WithGroup("credentials").Info("stored", "user", "bob")
		}, map[string]any{"msg": "stored", "credentials": map[string]any{"user": Mask}}},

		{"error", func(l *slog.Logger) {
			l.Error("failed", "err", fmt.Errorf("dial https://bob:pw@h.example/: %w", errors.New("refused")))
		}, map[string]any{"level": "ERROR", "msg": "failed", "err": "dial https://[redacted]@h.example/: refused"}},

		{"stringer", func(l *slog.Logger) {
			u, _ := url.Parse("https://h.example/cb?code=abc")
			l.Info("u", "url", u)
		}, map[string]any{"msg": "u", "url": "https://h.example/cb?code=[redacted]"}},

		{"struct", func(l *slog.Logger) {
			l.Info("args", "args", struct {
				URL      string `json:"url"`
				Password string `json:"password"`
				Pages    int    `json:"pages"`
			}{"https://x.example/?access_token=t", "hunter2", 3})
		}, map[string]any{"msg": "args", "args": map[string]any{"url": "https://x.example/?access_token=[redacted]", "password": Mask, "pages": float64(3)}}},

		{"log valuer", func(l *slog.Logger) {
			l.Info("c", "who", credentials{"bob", "hunter2"})
		}, map[string]any{"msg": "c", "who": map[string]any{"user": "bob", "password": Mask}}},

		{"other kinds unchanged", func(l *slog.Logger) {
			l.Info("k", "n", 4111111111111111, "ok", true, "d", time.Second)
		}, map[string]any{"msg": "k", "n": float64(4111111111111111), "ok": true, "d": float64(time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := map[string]any{"level": "INFO"}
			for k, v := range tt.want {
				want[k] = v
			}
			assert.Equal(t, want, logLine(t, nil, tt.log))
		})
	}
}

func TestHandlerKnownSecrets(t *testing.T) {
	var r Redactor
	r.Add("typed-into-pw")
	line := logLine(t, &r, func(l *slog.Logger) {
		l.With("field", "typed-into-pw").Info("filled typed-into-pw", "value", "x typed-into-pw y")
	})
	assert.Equal(t, map[string]any{"level": "INFO", "msg": "filled [redacted]", "field": Mask, "value": "x [redacted] y"}, line)
}

func TestHandlerEnabled(t *testing.T) {
	h := NewHandler(slog.NewJSONHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}), nil)
	assert.False(t, h.Enabled(context.Background(), slog.LevelInfo))
	assert.True(t, h.Enabled(context.Background(), slog.LevelError))
	assert.Panics(t, func() { NewHandler(nil, nil) })
}
