package redact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgs(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"crawl",
			`{"url": "https://a.example/docs?token=abc&page=2", "maxPages": 50, "include": ["/docs/*"], "sameOrigin": true}`,
			`{"url":"https://a.example/docs?token=[redacted]&page=2","maxPages":50,"include":["/docs/*"],"sameOrigin":true}`},
		{"session memo",
			`{"objective":"check <billing> page","notes":"login with password=hunter2 then Bearer ya29.a0AfH6SMB"}`,
			`{"objective":"check <billing> page","notes":"login with password=[redacted] then Bearer [redacted]"}`},
		{"secret keys at any depth and of any type",
			`{"form":{"user":"bob","password":"hunter2","pin":1234,"otp":null},"auth":{"user":"x","pass":"y"},"cookies":[{"name":"sid","value":"abc"}]}`,
			`{"form":{"user":"bob","password":"[redacted]","pin":"[redacted]","otp":"[redacted]"},"auth":"[redacted]","cookies":"[redacted]"}`},
		{"headers", `{"headers":{"Authorization":"Bearer x","X-API-Key":"k","Accept":"*/*"}}`,
			`{"headers":{"Authorization":"[redacted]","X-API-Key":"[redacted]","Accept":"*/*"}}`},
		{"relative url", `{"next":"/cb?code=abc&state=1"}`, `{"next":"/cb?code=[redacted]&state=1"}`},
		{"numbers verbatim, a card number masked", `{"ratio":1.5e3,"n":-0,"card":4111111111111111}`,
			`{"ratio":1.5e3,"n":-0,"card":"[redacted]"}`},
		{"key order kept", `{"z":1,"a":2,"m":3}`, `{"z":1,"a":2,"m":3}`},
		{"top-level array", `["a", 1, false, null]`, `["a",1,false,null]`},
		{"top-level string", `"token=abc"`, `"token=[redacted]"`},
		{"long array", `[1,2,3,4,5,6,7,8,9,10,11,12]`, `[1,2,3,4,5,6,7,8,…+4 more]`},
		{"deep nesting", `{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}},"e2":[[1]]}}}}}`, `{"a":{"b":{"c":{"d":{"e":{"f":{…}},"e2":[[…]]}}}}}`},
		{"secret keys in skipped parts are skipped", `[0,1,2,3,4,5,6,7,{"password":"x"}]`, `[0,1,2,3,4,5,6,7,…+1 more]`},
		{"empty", ``, ``},
		{"whitespace", " \n ", ``},
		{"invalid", `{"password": "hunter2"`, `(invalid JSON, 22 bytes)`},
		{"not json at all", `password=hunter2`, `(invalid JSON, 16 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Args(json.RawMessage(tt.in), 0))
		})
	}
}

func TestArgsLongString(t *testing.T) {
	in, err := json.Marshal(map[string]string{"notes": strings.Repeat("é", 150)}) // 300 bytes
	require.NoError(t, err)
	got := Args(in, 0)
	assert.Equal(t, `{"notes":"`+strings.Repeat("é", 100)+`…(+100 bytes)"}`, got)
}

func TestArgsManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteString("}")
	got := Args(json.RawMessage(b.String()), 0)
	assert.True(t, strings.HasPrefix(got, `{"k0":0,"k1":1,`), got)
	assert.True(t, strings.HasSuffix(got, `"k31":31,…+8 more}`), got)
}

func TestArgsMax(t *testing.T) {
	// 64 strings of 100 bytes of 3-byte runes: far over any max.
	items := make([]string, 64)
	for i := range items {
		items[i] = strings.Repeat("€", 33) + "x"
	}
	in, err := json.Marshal(map[string]any{"a": items[:8], "b": items[8:16], "c": items[16:24], "d": items[24:]})
	require.NoError(t, err)

	for _, max := range []int{1, 2, 3, 4, 5, 17, 100, 101, 102, 2048} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			got := Args(in, max)
			assert.LessOrEqual(t, len(got), max)
			assert.True(t, utf8.ValidString(got), "cut inside a rune: %q", got)
			if max >= len("…") {
				assert.True(t, strings.HasSuffix(got, "…"), "no marker: %q", got)
			}
		})
	}
	t.Run("default", func(t *testing.T) {
		got := Args(in, 0)
		assert.LessOrEqual(t, len(got), defaultArgsMax)
		assert.Greater(t, len(got), defaultArgsMax-utf8.UTFMax)
		assert.True(t, strings.HasSuffix(got, "…"))
	})
	t.Run("fits", func(t *testing.T) {
		assert.Equal(t, `{"a":1}`, Args(json.RawMessage(`{"a":1}`), 7))
	})
}

// TestArgsHuge checks that a large input stops being walked once the summary
// is full, and still comes out bounded.
func TestArgsHuge(t *testing.T) {
	big := `{"list":[` + strings.Repeat(`{"a":"`+strings.Repeat("x", 1000)+`"},`, 2000) + `1]}`
	got := Args(json.RawMessage(big), 2048)
	assert.LessOrEqual(t, len(got), 2048)
}
