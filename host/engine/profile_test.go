package engine

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// TestTheProfilesSecretsAreMaskedInResults: what a page's script reads of
// the site's cookies comes back masked, unless the person reveals them.
func TestTheProfilesSecretsAreMaskedInResults(t *testing.T) {
	home := ledger.Home(t.TempDir())
	const cookie = "CANARY-COOKIE-7f3a91"
	asked := 0
	e, _ := newEngineWith(t, Options{Home: home}, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "https://shop.example/"}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			if cmd.Action == "profile.secrets" {
				asked++
				return browser.Secrets{Values: []string{cookie, "tok-" + cookie}}, nil
			}
			return map[string]any{"type": "string", "value": "session=" + cookie + "; lang=en"}, nil
		}))
	text := textOf(t, run(t, e, "javascript_tool", `{"tabId":7,"code":"document.cookie"}`))
	assert.NotContains(t, text, cookie)
	assert.Contains(t, text, "lang=en", "the rest of the page's answer stays")
	assert.Equal(t, 1, asked, "asked once a call")
	textOf(t, run(t, e, "tabs_context", `{}`))
	assert.Equal(t, 1, asked, "a call on no tab asks nothing")

	require.NoError(t, os.WriteFile(home.ConfigFile(), []byte(`{"revealProfileSecrets": true}`), 0o600))
	assert.Contains(t, textOf(t, run(t, e, "javascript_tool", `{"tabId":7,"code":"document.cookie"}`)), cookie,
		"the person chose to see them")
	assert.Equal(t, 1, asked)
}
