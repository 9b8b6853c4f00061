package engine

import (
	"encoding/json"
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

// TestANavigationsSecretsComeWithItsPage: navigate asks for the site's
// secrets with the page it lands on, masks its answer with them, and does
// not ask profile.secrets after; a Page never shows them.
func TestANavigationsSecretsComeWithItsPage(t *testing.T) {
	const token = "sess-4f9a1c2e7b"
	asked := 0
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "about:blank"}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "profile.secrets":
				asked++
				return browser.Secrets{}, nil
			case "tab.navigate":
				// A site that puts its session in the URL (;jsessionid=).
				return json.RawMessage(`{"tabId":7,"url":"https://shop.example/;s=` + token + `","title":"Shop","secrets":["` + token + `"]}`), nil
			}
			return map[string]any{}, nil
		}))
	text := textOf(t, run(t, e, "navigate", `{"tabId":7,"url":"https://shop.example/"}`))
	assert.NotContains(t, text, token)
	assert.NotContains(t, text, "secrets")
	assert.Contains(t, text, "Shop")
	assert.Zero(t, asked, "the secrets came with the page")

	var p browser.Page
	require.NoError(t, json.Unmarshal([]byte(`{"tabId":7,"url":"u","title":"t","secrets":["`+token+`"]}`), &p))
	values, read := p.Secrets()
	assert.True(t, read)
	assert.Equal(t, []string{token}, values)
	b, err := json.Marshal(p)
	require.NoError(t, err)
	assert.NotContains(t, string(b), token, "a Page marshals without them")
}

// TestAReadsSecretsComeWithItsTree: read_page asks for the site's secrets
// with the tree, read after it, and masks the tree with them without asking
// profile.secrets.
func TestAReadsSecretsComeWithItsTree(t *testing.T) {
	const token = "tok-77c1e0a9d4"
	asked := 0
	e, fb := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "https://shop.example/"}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "profile.secrets":
				asked++
				return browser.Secrets{}, nil
			case "page.snapshot":
				return json.RawMessage(`{"url":"https://shop.example/","title":"Shop","tree":[{"text":"your token is ` + token + `"}],"secrets":["` + token + `"]}`), nil
			}
			return map[string]any{}, nil
		}))
	text := textOf(t, run(t, e, "read_page", `{"tabId":7}`))
	assert.Contains(t, text, "your token is")
	assert.NotContains(t, text, token)
	assert.Zero(t, asked, "the secrets came with the tree")
	assert.JSONEq(t, `{"tabId":7,"secrets":true}`, string(fb.last().Params))
}
