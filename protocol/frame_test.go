package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type golden struct {
	Name    string          `json:"name"`
	Channel string          `json:"channel"`
	Frame   json.RawMessage `json:"frame"`
	Raw     string          `json:"raw"`
}

func loadGolden(t *testing.T, name string) []golden {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	var vs []golden
	require.NoError(t, json.Unmarshal(b, &vs))
	require.NotEmpty(t, vs)
	return vs
}

func decodeOn(channel string, b []byte) (Frame, error) {
	if channel == "agent" {
		return DecodeAgentFrame(b)
	}
	return DecodeBrowserFrame(b)
}

func TestGoldenFramesRoundTrip(t *testing.T) {
	for _, v := range loadGolden(t, "frames.json") {
		t.Run(v.Name, func(t *testing.T) {
			f, err := decodeOn(v.Channel, v.Frame)
			require.NoError(t, err)
			out, err := Encode(f)
			require.NoError(t, err)
			assert.JSONEq(t, string(v.Frame), string(out))
			assert.True(t, bytes.HasPrefix(out, []byte(`{"type":"`+f.frameType()+`"`)), "type comes first: %s", out)
		})
	}
}

func TestInvalidFramesAreBadRequests(t *testing.T) {
	for _, v := range loadGolden(t, "invalid.json") {
		t.Run(v.Name, func(t *testing.T) {
			f, err := decodeOn(v.Channel, []byte(v.Raw))
			assert.Nil(t, f)
			assert.ErrorIs(t, err, ErrBadRequest)
		})
	}
}

func TestDecodeTypes(t *testing.T) {
	tests := []struct {
		name    string
		channel string
		raw     string
		want    Frame
	}{
		{"result on the agent channel is a call result", "agent",
			`{"type":"result","id":"c1","result":{"content":[]}}`,
			&CallResult{ID: "c1", Result: &ToolResult{Content: []Content{}}}},
		{"result on the browser channel is a command result", "browser",
			`{"type":"result","id":"k1","ok":true,"data":{"a":1}}`,
			&CommandResult{ID: "k1", OK: true, Data: json.RawMessage(`{"a":1}`)}},
		{"an unknown error code from a newer extension becomes internal", "browser",
			`{"type":"result","id":"k1","ok":false,"error":{"code":"gremlins","message":"m"}}`,
			&CommandResult{ID: "k1", Error: &Error{Code: CodeInternal, Message: "m (gremlins)"}}},
		{"image data is base64", "agent",
			`{"type":"result","id":"c1","result":{"content":[{"type":"image","data":"AAE=","mimeType":"image/png"}]}}`,
			&CallResult{ID: "c1", Result: &ToolResult{Content: []Content{{Type: "image", Data: []byte{0, 1}, MimeType: "image/png"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := decodeOn(tt.channel, []byte(tt.raw))
			require.NoError(t, err)
			assert.Equal(t, tt.want, f)
		})
	}
}

func TestClampTimeout(t *testing.T) {
	tests := []struct {
		ms   int64
		want time.Duration
	}{
		{0, DefaultCommandTimeout},
		{-5, DefaultCommandTimeout},
		{1500, 1500 * time.Millisecond},
		{MaxCommandTimeout.Milliseconds(), MaxCommandTimeout},
		{MaxCommandTimeout.Milliseconds() + 1, MaxCommandTimeout},
		{1 << 62, MaxCommandTimeout},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ClampTimeout(tt.ms), "ms=%d", tt.ms)
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range []string{"frames.json", "invalid.json"} {
		b, err := os.ReadFile("testdata/" + name)
		require.NoError(f, err)
		var vs []golden
		require.NoError(f, json.Unmarshal(b, &vs))
		for _, v := range vs {
			f.Add(string(v.Frame) + v.Raw)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, decode := range []func([]byte) (Frame, error){DecodeAgentFrame, DecodeBrowserFrame} {
			fr, err := decode([]byte(s))
			if err != nil {
				if !errorsIsCoded(err) {
					t.Fatalf("uncoded error %v", err)
				}
				continue
			}
			// Whatever decodes must encode and decode again to the same frame.
			out, err := Encode(fr)
			if err != nil {
				t.Fatalf("encode %#v: %v", fr, err)
			}
			again, err := decode(out)
			if err != nil {
				t.Fatalf("re-decode %s: %v", out, err)
			}
			out2, _ := Encode(again)
			if !bytes.Equal(out, out2) {
				t.Fatalf("not stable:\n%s\n%s", out, out2)
			}
		}
	})
}

func errorsIsCoded(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Code.Known()
}

func TestFramesKeepAPagesMarkup(t *testing.T) {
	// A page's "<h1>" or "a && b" reaches an agent as it is, not as
	// "\u003ch1\u003e": the escaping costs tokens and reads badly.
	f := CommandResult{ID: "c1", OK: true, Data: json.RawMessage(`{"value":"<h1>a && b</h1>"}`)}
	for name, encode := range map[string]func(Frame) ([]byte, error){
		"Encode": Encode,
		"Writer": func(f Frame) ([]byte, error) {
			var buf bytes.Buffer
			err := NewWriter(&buf, 1<<20).WriteFrame(f)
			return buf.Bytes(), err
		},
	} {
		b, err := encode(f)
		require.NoError(t, err, name)
		assert.Contains(t, string(b), `"<h1>a && b</h1>"`, name)
	}
}
