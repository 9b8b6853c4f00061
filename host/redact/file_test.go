package redact

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFileMasksURLSecretsAndKnownOnesOnly(t *testing.T) {
	r := new(Redactor)
	r.Add("hunter2-typed")
	v := map[string]any{
		"start": "https://a.example/docs?page=2&access_token=tok-CANARY-1",
		"pages": []map[string]string{{
			"url":     "https://a.example/x?code=abc123&sig=0f0f0f0f",
			"content": "See https://a.example/cb?session=SESS-CANARY-2 for more. Typed hunter2-typed. Build id deadbeefdeadbeefdeadbeef stays.",
		}},
	}
	b, err := json.Marshal(v) // escapes & as \u0026
	require.NoError(t, err)
	require.Contains(t, string(b), `\u0026`)
	out := r.File(b)
	require.True(t, json.Valid(out), "%s", out)
	s := string(out)
	for _, secret := range []string{"tok-CANARY-1", "SESS-CANARY-2", "abc123", "hunter2-typed"} {
		assert.NotContains(t, s, secret)
	}
	assert.Contains(t, s, "page=2", "a harmless parameter stays")
	assert.Contains(t, s, "deadbeefdeadbeefdeadbeef", "page text is not second-guessed")
	assert.Equal(t, s, string(r.File(out)), "idempotent")
}

func TestUnescapeAmp(t *testing.T) {
	assert.Equal(t, `a&b`, unescapeAmp(`a\u0026b`))
	assert.Equal(t, `a&b`, unescapeAmp(`a\\u0026b`), "JSON in a JSON string: its escape, quoted")
	assert.Equal(t, `a&b`, unescapeAmp(`a\\\\u0026b`), "three levels deep")
	assert.Equal(t, `a\\\u0026b`, unescapeAmp(`a\\\u0026b`), "a literal backslash before an escape: left as it is")
	assert.Equal(t, `plain`, unescapeAmp(`plain`))
}

func TestFileKeepsJSONInsideJSONValid(t *testing.T) {
	inner, err := json.Marshal(map[string]string{"url": "http://h/p?lang=en&access_token=CANARY99"})
	require.NoError(t, err)
	outer, err := json.Marshal(map[string]string{"args_summary": string(inner)})
	require.NoError(t, err)
	out := File(outer)
	require.True(t, json.Valid(out), "%s", out)
	assert.NotContains(t, string(out), "CANARY99")
	var back map[string]string
	require.NoError(t, json.Unmarshal(out, &back))
	assert.True(t, json.Valid([]byte(back["args_summary"])), "the JSON inside stays JSON: %s", back["args_summary"])
}
