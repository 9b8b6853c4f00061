package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// TestTheSitePolicy sets a config.json that blocks one origin (the fixture
// server spelled localhost) and checks every way an agent tab could reach
// it: navigate, tabs_create, a click on a link, a crawl; and that a client
// can narrow the policy but not widen it.
func TestTheSitePolicy(t *testing.T) {
	e := newEnv(t)
	var other atomic.Int32 // requests that reached the blocked origin
	var site string
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/policy.html": func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.Host, "localhost") {
				other.Add(1)
			}
			fmt.Fprintf(w, `<!doctype html><title>Policy</title><h1>Policy</h1>
<a href="%s">Elsewhere</a> <a href="/index.html">Home</a> <a href="%[1]s&tab" target="_blank">Elsewhere in a tab</a>
<button onclick="window.open('%[1]s&popup')">Pop up</button>`, site+"/policy.html?from=link")
		},
	})
	site = siteOnLocalhost(srv, "")
	blocked := siteOnLocalhost(srv, "/policy.html")
	require.NoError(t, os.WriteFile(e.home.ConfigFile(), []byte(`{"blockedOrigins": ["localhost"]}`), 0o600))
	cs := e.client("e2e")

	err := fails(t, cs, "navigate", map[string]any{"url": blocked}, protocol.CodeDomainBlocked)
	assert.Contains(t, err.Message, `rule "localhost"`)
	fails(t, cs, "tabs_create", map[string]any{"url": blocked}, protocol.CodeDomainBlocked)
	err = fails(t, cs, "navigate", map[string]any{"url": "file:///etc/passwd"}, protocol.CodeDomainBlocked)
	assert.Contains(t, err.Hint, "allowFileURLs")

	// A click on a link to it: the click is delivered, the navigation never
	// leaves the browser.
	tab := openTab(t, cs, srv.URL+"/policy.html")
	r := call(t, cs, "interact", map[string]any{"tabId": tab, "query": "Elsewhere", "action": "click"})
	require.True(t, r.IsError, textOf(r))
	a := actedOf(t, r)
	assert.Equal(t, "domain_blocked", a.Error.Code)
	assert.Contains(t, a.Error.Message, "delivered")
	assert.Equal(t, int32(0), other.Load(), "no request reached the blocked origin")
	assert.Equal(t, `"`+srv.URL+`/policy.html"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "location.href"}),
		"the tab stayed")

	// A crawl skips it.
	var crawl struct {
		Pages []struct {
			URL string `json:"url"`
		} `json:"pages"`
	}
	okJSON(t, cs, "crawl", map[string]any{"url": srv.URL + "/policy.html", "maxPages": 5, "sameOrigin": false}, &crawl)
	for _, p := range crawl.Pages {
		assert.NotContains(t, p.URL, "localhost", "the crawl left the blocked origin out")
	}
	assert.Equal(t, int32(0), other.Load())

	// A client narrows the policy: only 127.0.0.1 for it, and it cannot
	// unblock localhost.
	narrow := e.connect(mcp.NewClient(&mcp.Implementation{Name: "narrow", Version: "1"}, nil), nil,
		"--allowed-origins", "127.0.0.1,localhost", "--blocked-origins", "127.0.0.1:1")
	fails(t, narrow, "navigate", map[string]any{"url": blocked}, protocol.CodeDomainBlocked)
	ok(t, narrow, "navigate", map[string]any{"url": srv.URL + "/index.html"})
	only := e.connect(mcp.NewClient(&mcp.Implementation{Name: "only", Version: "1"}, nil), nil, "--allowed-origins", "example.org")
	err = fails(t, only, "navigate", map[string]any{"url": srv.URL + "/index.html"}, protocol.CodeDomainBlocked)
	assert.Contains(t, err.Message, "example.org")
	ok(t, cs, "navigate", map[string]any{"url": srv.URL + "/index.html"}) // the other client is untouched

	// A tab it opens there, by a link or a script, is closed as it opens.
	ok(t, cs, "navigate", map[string]any{"tabId": tab, "url": srv.URL + "/policy.html"})
	for _, query := range []string{"Elsewhere in a tab", "Pop up"} {
		r := call(t, cs, "interact", map[string]any{"tabId": tab, "query": query, "action": "click"})
		require.True(t, r.IsError, textOf(r))
		a := actedOf(t, r)
		assert.Equal(t, "domain_blocked", a.Error.Code, query)
		assert.Contains(t, a.Error.Message, "the tab it opened was closed", query)
		var tabs struct{ Tabs []struct{ URL string } }
		require.NoError(t, json.Unmarshal([]byte(ok(t, cs, "tabs_context", map[string]any{})), &tabs))
		require.Len(t, tabs.Tabs, 1, "%s: only the agent's own tab is left", query)
	}
	// Chrome lets no extension pause a new tab's first request: it may
	// have reached the site. What follows counts afresh.
	other.Store(0)

	// The person edits the policy: the next call follows it.
	require.NoError(t, os.WriteFile(e.home.ConfigFile(), []byte(`{"blockedOrigins": []}`), 0o600))
	ok(t, cs, "navigate", map[string]any{"url": blocked})
	assert.Equal(t, int32(1), other.Load())
}

// TestTheProfilesSecretsNeverComeBack: a site's cookie and a token in its
// storage, which its page also prints, are masked in every tool's output
// and in the evidence written to disk, unless the person reveals them.
func TestTheProfilesSecretsNeverComeBack(t *testing.T) {
	e := newEnv(t)
	const cookie, token = "CANARY-COOKIE-5d81c2aa", "CANARY-TOKEN-93ab00f1e2"
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/account.html": func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: cookie, Path: "/"})
			fmt.Fprint(w, `<!doctype html><title>Account</title><h1>Account</h1><p id="show"></p>
<a href="/echo.html">Echo</a>
<script>localStorage.setItem("authToken", "`+token+`");
document.getElementById("show").textContent = "cookie " + document.cookie + " token " + localStorage.getItem("authToken");</script>`)
		}, // A site that writes the session into its title.
		"/echo.html": func(w http.ResponseWriter, r *http.Request) {
			sid, _ := r.Cookie("sid")
			fmt.Fprintf(w, `<!doctype html><title>Signed in as %s</title><h1>Echo</h1>`, sid.Value)
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/account.html")
	outputs := []string{
		ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.cookie + " " + localStorage.getItem("authToken")`}),
		ok(t, cs, "read_page", map[string]any{"tabId": tab}),
		ok(t, cs, "read_page", map[string]any{"tabId": tab, "mode": "text"}),
		ok(t, cs, "find", map[string]any{"tabId": tab, "query": "cookie"}),
	}
	for _, out := range outputs {
		assert.NotContains(t, out, cookie)
		assert.NotContains(t, out, token)
	}
	assert.Contains(t, outputs[1], "cookie sid=", "the page reads as it did, less the values")
	ok(t, cs, "oc_evidence_bundle", map[string]any{"tabId": tab, "include": []string{"dom", "tree"}})
	secretsOnDisk(t, e.home.Path("evidence"), cookie, token)

	// A navigation's answer names the page's title, as does a click's that
	// navigated: masked with the secrets read with the page it landed on.
	clicked := ok(t, cs, "interact", map[string]any{"tabId": tab, "query": "Echo", "action": "click"})
	for _, out := range []string{
		clicked,
		ok(t, cs, "navigate", map[string]any{"tabId": tab, "url": srv.URL + "/echo.html"}),
		ok(t, cs, "tabs_create", map[string]any{"url": srv.URL + "/echo.html"}),
	} {
		assert.Contains(t, out, "Signed in as", "the title, less the value")
		assert.NotContains(t, out, cookie)
	}

	require.NoError(t, os.WriteFile(e.home.ConfigFile(), []byte(`{"revealProfileSecrets": true}`), 0o600))
	assert.Contains(t, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.cookie"}), cookie,
		"the person chose to let them show")
}

// TestATokenInTheAddressNeverComesBack: a sign-in that lands on its
// callback with the token in the address (OAuth's implicit flow, an
// authorization code) has it masked wherever the address is said: the
// click's answer, read_page, a script reading location, tabs_context.
func TestATokenInTheAddressNeverComesBack(t *testing.T) {
	e := sharedEnv(t)
	const code, token = "CANARY-CODE-3b7e11", "CANARY-ACCESS-9f02c4d"
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/start.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Start</title><a href="/cb.html?code=`+code+`&state=s1#access_token=`+token+`&token_type=Bearer">Sign in</a>`)
		},
		"/cb.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Callback</title><p id="at"></p><script>document.getElementById("at").textContent = location.hash;</script>`)
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/start.html")
	outputs := []string{
		ok(t, cs, "interact", map[string]any{"tabId": tab, "query": "Sign in", "action": "click"}),
		ok(t, cs, "read_page", map[string]any{"tabId": tab}),
		ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "location.href"}),
		ok(t, cs, "tabs_context", map[string]any{}),
	}
	for _, out := range outputs {
		assert.Contains(t, out, "/cb.html?code=[redacted]&state=s1")
		assert.NotContains(t, out, code)
		assert.NotContains(t, out, token)
	}
	assert.Contains(t, outputs[1], "#access_token=[redacted]&token_type=Bearer", "the page prints its fragment, less the token")
}

// TestAPasswordThePersonTypedNeverComesBack: what the person typed into a
// password field (in the page, a same-origin frame, a cross-site frame read
// before, or a closed shadow root), which the page then logs and echoes on
// the next page, is masked in every output.
func TestAPasswordThePersonTypedNeverComesBack(t *testing.T) {
	e := sharedEnv(t)
	const pass, framed, shadowed, away = "CANARY-PASS-41c9e0", "CANARY-FRAMED-77ab3", "CANARY-SHADOW-5e2f1", "CANARY-AWAY-0c4d2"
	// A password its "show" button turned into text, and a PIN the page
	// draws as dots: a person reads them as secrets.
	const unhidden, dotted = "CANARY-SHOWN-6a1f03", "CANARY-DOTS-93e7c5"
	var srv *httptest.Server
	srv = siteWith(t, map[string]http.HandlerFunc{
		"/signin.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Sign in</title><h1>Sign in</h1>
<form action="/echo.html"><input type="password" name="pw" id="pw"><button>Sign in</button></form>
<iframe srcdoc="<input type=password id=inner>"></iframe><x-login></x-login>
<label>Password <input type="text" id="shown" value="`+unhidden+`"></label> <label>PIN <input id="dotted" style="-webkit-text-security: disc" value="`+dotted+`"></label>
<iframe src="`+siteOnLocalhost(srv, "/card.html")+`"></iframe>
<script>document.getElementById("pw").value = "`+pass+`";
document.querySelector("x-login").attachShadow({mode: "closed"}).innerHTML = '<input type="password" value="`+shadowed+`">';
onload = () => { document.querySelector("iframe").contentDocument.getElementById("inner").value = "`+framed+`"; console.log("typed " + document.getElementById("pw").value); };</script>`)
		}, // A cross-site frame whose script reads back what it holds.
		"/card.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><label>PIN <input type="password" id="pin" value="`+away+`"></label>
<button onclick="document.getElementById('said').textContent = 'you typed ' + document.getElementById('pin').value">Show</button><p id="said"></p>`)
		}, // A page that echoes what was sent.
		"/echo.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<!doctype html><title>Echo</title><p>you sent %s</p>`, r.URL.Query().Get("pw"))
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/signin.html")
	read := ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `[document.getElementById("pw").value,
document.querySelector("iframe").contentDocument.getElementById("inner").value, "` + shadowed + `",
document.getElementById("shown").value, document.getElementById("dotted").value].join(" ")`})
	assert.Equal(t, `"[redacted] [redacted] [redacted] [redacted] [redacted]"`, read)
	// The cross-site frame, once read, is looked into too.
	shownTree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	shown := ok(t, cs, "interact", map[string]any{"tabId": tab, "query": "Show", "action": "click"})
	assert.Contains(t, shown, "you typed [redacted]")
	assert.NotContains(t, shown, away)
	outputs := []string{
		ok(t, cs, "console_messages", map[string]any{"tabId": tab}),
		ok(t, cs, "interact", map[string]any{"tabId": tab, "query": "Sign in button", "action": "click"}),
		ok(t, cs, "read_page", map[string]any{"tabId": tab}),
		ok(t, cs, "tabs_context", map[string]any{}),
	}
	assert.Contains(t, outputs[0], "typed [redacted]")
	assert.Contains(t, outputs[2], "you sent [redacted]", "the field is gone; what it held is still masked")
	for _, out := range outputs {
		assert.NotContains(t, out, pass)
	}
	for _, out := range []string{read, shownTree} {
		assert.NotContains(t, out, unhidden)
		assert.NotContains(t, out, dotted)
	}
}
