package browser

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecretsAreReadWithAnAnswerAndNeverWritten decodes each answer that
// can bring the site's secrets, and what embeds one, and writes it back:
// the secrets are read, the rest of the answer is whole, and no JSON made
// from it shows them.
func TestSecretsAreReadWithAnAnswerAndNeverWritten(t *testing.T) {
	const token = "sess-4f9a7c"
	tests := []struct {
		name string
		data string
		into any
		kept string // a field of the answer that must survive the round
	}{
		{name: "page", data: `{"tabId":7,"url":"http://x/","title":"X","secrets":["` + token + `"]}`, into: new(Page), kept: `"url":"http://x/"`},
		{name: "tree", data: `{"url":"http://x/","title":"X","tree":[],"nodes":3,"secrets":["` + token + `"]}`, into: new(Tree), kept: `"nodes":3`},
		{name: "acted", data: `{"action":"click","ref":"e4","secrets":["` + token + `"]}`, into: new(Acted), kept: `"ref":"e4"`},
		{name: "uploaded", data: `{"action":"upload","files":2,"chooser":true,"secrets":["` + token + `"]}`, into: new(Uploaded), kept: `"files":2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, json.Unmarshal([]byte(tt.data), tt.into))
			values, read := tt.into.(Carrier).Secrets()
			assert.True(t, read)
			assert.Equal(t, []string{token}, values)
			b, err := json.Marshal(tt.into)
			require.NoError(t, err)
			assert.NotContains(t, string(b), token)
			assert.NotContains(t, string(b), "secrets")
			assert.Contains(t, string(b), tt.kept, "the rest of the answer is whole")
			// Embedded in a result of the engine's, as interact's is.
			b, err = json.Marshal(struct {
				Note string `json:"note"`
				Carrier
			}{"n", tt.into.(Carrier)})
			require.NoError(t, err)
			assert.NotContains(t, string(b), token)
		})
	}
	var none Acted
	require.NoError(t, json.Unmarshal([]byte(`{"action":"click"}`), &none))
	_, read := none.Secrets()
	assert.False(t, read, "an answer sent without them did not read them")
}
