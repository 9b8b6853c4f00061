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
// not ask profile.secrets after.
func TestANavigationsSecretsComeWithItsPage(t *testing.T) {
	const token = "sess-4f9a1c2e7b"
	// A site that puts its session in the URL (;jsessionid=).
	e, _, asked := carrying(t, "about:blank", "tab.navigate",
		`{"tabId":7,"url":"https://shop.example/;s=`+token+`","title":"Shop","secrets":["`+token+`"]}`)
	text := textOf(t, run(t, e, "navigate", `{"tabId":7,"url":"https://shop.example/"}`))
	assert.NotContains(t, text, token)
	assert.NotContains(t, text, "secrets")
	assert.Contains(t, text, "Shop")
	assert.Zero(t, *asked, "the secrets came with the page")
}

// TestAReadsSecretsComeWithItsTree: read_page asks for the site's secrets
// with the tree, read after it, and masks the tree with them without asking
// profile.secrets.
func TestAReadsSecretsComeWithItsTree(t *testing.T) {
	const token = "tok-77c1e0a9d4"
	e, fb, asked := carrying(t, "https://shop.example/", "page.snapshot",
		`{"url":"https://shop.example/","title":"Shop","tree":[{"text":"your token is `+token+`"}],"secrets":["`+token+`"]}`)
	text := textOf(t, run(t, e, "read_page", `{"tabId":7}`))
	assert.Contains(t, text, "your token is")
	assert.NotContains(t, text, token)
	assert.Zero(t, *asked, "the secrets came with the tree")
	assert.JSONEq(t, `{"tabId":7,"secrets":true}`, string(fb.last().Params))
}

// TestAnActionsSecretsComeWithItsAnswer: interact, act's last step and
// form_input's last field ask for the site's secrets with the action's
// answer, read after it, and mask the result with them without asking
// profile.secrets; the steps and fields before the last do not ask.
func TestAnActionsSecretsComeWithItsAnswer(t *testing.T) {
	const token = "sess-0b5e2d9c41"
	// A login that lands on a page whose title shows the session.
	e, fb, asked := carrying(t, "https://shop.example/", "element.act",
		`{"action":"click","delivered":true,"ref":"e3","title":"Welcome `+token+`","changes":"no visible change","secrets":["`+token+`"]}`)
	text := textOf(t, run(t, e, "interact", `{"tabId":7,"ref":"e3","action":"click"}`))
	assert.Contains(t, text, "Welcome")
	assert.NotContains(t, text, token)
	assert.NotContains(t, text, "secrets", "the answer never shows them")
	assert.Zero(t, *asked, "the secrets came with the answer")

	text = textOf(t, run(t, e, "act", `{"tabId":7,"steps":[{"ref":"e3","action":"click"},{"ref":"e3","action":"click"}]}`))
	assert.NotContains(t, text, token)
	assert.Zero(t, *asked)
	fb.mu.Lock()
	seen := append([]protocol.Command(nil), fb.seen...)
	fb.mu.Unlock()
	var withSecrets []bool
	for _, c := range seen {
		if c.Action == "element.act" {
			var p struct{ Secrets bool }
			require.NoError(t, json.Unmarshal(c.Params, &p))
			withSecrets = append(withSecrets, p.Secrets)
		}
	}
	assert.Equal(t, []bool{true, false, true}, withSecrets, "interact's step, then act's last only")

	// form_input likewise: its last field.
	textOf(t, run(t, e, "form_input", `{"tabId":7,"fields":[{"ref":"e3","value":"a"},{"ref":"e4","value":"b"}]}`))
	assert.Zero(t, *asked)
	fb.mu.Lock()
	seen = append([]protocol.Command(nil), fb.seen[len(fb.seen)-2:]...)
	fb.mu.Unlock()
	assert.NotContains(t, string(seen[0].Params), `"secrets"`)
	assert.Contains(t, string(seen[1].Params), `"secrets":true`)
}

// TestAPasswordThePersonTypedStaysMasked: what a page's password field
// holds (the person typed it in a hand-over) is masked in the call that
// read it and in every call after, when the form is sent and the field is
// gone: a page that logs it, or echoes it on the next page.
func TestAPasswordThePersonTypedStaysMasked(t *testing.T) {
	const password = "Hand-Typed-Pass-61"
	fieldHolds := true
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "https://shop.example/login"}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "profile.secrets":
				if fieldHolds {
					return browser.Secrets{HeldValues: []string{password}}, nil
				}
				return browser.Secrets{}, nil
			case "page.snapshot":
				// A snapshot's answer brings them too, as "held".
				return json.RawMessage(`{"url":"https://shop.example/","title":"Shop","tree":[{"text":"welcome"}],"secrets":[],"held":["Snap-Held-Secret-9"]}`), nil
			}
			return map[string]any{"type": "string", "value": "the field says " + password}, nil
		}))
	text := textOf(t, run(t, e, "javascript_tool", `{"tabId":7,"code":"document.querySelector('input').value"}`))
	assert.NotContains(t, text, password)
	assert.Contains(t, text, "the field says")

	fieldHolds = false
	text = textOf(t, run(t, e, "javascript_tool", `{"tabId":7,"code":"document.body.innerText"}`))
	assert.NotContains(t, text, password, "still masked once the field is gone")

	textOf(t, run(t, e, "read_page", `{"tabId":7}`))
	assert.Equal(t, "[redacted]", e.red.Known("Snap-Held-Secret-9"), "learned from a snapshot's answer")
}

// carrying is an engine whose fake browser answers action with answer (the
// site's secrets in it) and counts the profile.secrets it is asked.
func carrying(t *testing.T, url, action, answer string) (*Engine, *fakeBrowser, *int) {
	asked := new(int)
	e, fb := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: url}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "profile.secrets":
				*asked++
				return browser.Secrets{}, nil
			case action:
				return json.RawMessage(answer), nil
			}
			return map[string]any{}, nil
		}))
	return e, fb, asked
}
