package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/protocol"
)

type page struct {
	TabID  int    `json:"tabId"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Status int    `json:"status"`
}

type tabsContext struct {
	Current int `json:"current"`
	Tabs    []struct {
		TabID       int    `json:"tabId"`
		URL         string `json:"url"`
		Title       string `json:"title"`
		OpenerTabID int    `json:"openerTabId"`
	} `json:"tabs"`
}

func TestToolsList(t *testing.T) {
	e := sharedEnv(t)
	res, err := e.client("e2e").ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	for _, want := range []string{"javascript_tool", "navigate", "oc_connection_health", "page_screenshot", "tabs_close", "tabs_context", "tabs_create"} {
		assert.Contains(t, names, want)
	}

	// tools/list is paid for in every agent's context: the default catalog
	// costs fewer o200k tokens than Playwright MCP 0.0.83's 4,415.
	if _, err := os.Stat(filepath.Join("tokens", "node_modules", "gpt-tokenizer")); err != nil {
		t.Fatal("the tokenizer is not installed: run scripts/deps.sh")
	}
	b, err := json.Marshal(res)
	require.NoError(t, err)
	tokens := countTokens(t, filepath.Join("tokens", "count.js"), string(b))
	t.Logf("tools/list: %d tools, %d characters, %d o200k tokens", len(res.Tools), len(b), tokens)
	if p := os.Getenv("OPENCHROME_DUMP_TOOLS"); p != "" {
		require.NoError(t, os.WriteFile(p, b, 0o600))
	}
	assert.Less(t, tokens, 4415)
}

func TestNavigateShowsInTheGroup(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")

	var p page
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/second.html"}, &p)
	assert.Equal(t, site.URL+"/second.html", p.URL)
	assert.Equal(t, "Second Page", p.Title)
	assert.Equal(t, 200, p.Status)

	// A redirect ends on its target, with the target's status.
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/index.html"}, &p)
	assert.Equal(t, site.URL+"/", p.URL, "http.FileServer redirects /index.html to /")
	assert.Equal(t, "Fixture Home", p.Title)
	assert.Equal(t, 200, p.Status)

	var tc tabsContext
	okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
	require.Len(t, tc.Tabs, 1)
	assert.Equal(t, p.TabID, tc.Current)
	assert.Equal(t, p.TabID, tc.Tabs[0].TabID)
	assert.Equal(t, "Fixture Home", tc.Tabs[0].Title)

	// Seen from outside: the tab is in a group titled OpenChrome.
	var group struct {
		Title string `json:"title"`
	}
	require.NoError(t, e.devtools().evalExtension(fmt.Sprintf(
		`chrome.tabs.get(%d).then(t => chrome.tabGroups.get(t.groupId)).then(g => ({title: g.title}))`, p.TabID), &group))
	assert.Equal(t, "OpenChrome", group.Title)

	// History and reload, and the status of a page that is not there.
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/second.html"}, &p)
	assert.Equal(t, "Second Page", p.Title)
	okJSON(t, cs, "navigate", map[string]any{"url": "back"}, &p)
	assert.Equal(t, "Fixture Home", p.Title)
	okJSON(t, cs, "navigate", map[string]any{"url": "forward"}, &p)
	assert.Equal(t, "Second Page", p.Title)
	okJSON(t, cs, "navigate", map[string]any{"url": "reload"}, &p)
	assert.Equal(t, "Second Page", p.Title)
	assert.Equal(t, 200, p.Status)
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/status/404"}, &p)
	assert.Equal(t, 404, p.Status)
	assert.Equal(t, "Status 404", p.Title)
}

// TestNavigateAnswersAPageAnImageHoldsBack navigates to a page whose
// words are there at once but whose load event a slow image holds back
// for a minute: navigate answers 5 s after the document is ready, as still
// loading, and the page reads; reloading it, and leaving it for another,
// are not taken for failures when Chrome calls its load off.
func TestNavigateAnswersAPageAnImageHoldsBack(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	// Chrome may hold the image's request open after the page is left;
	// closing the server would wait the minute out for it.
	t.Cleanup(site.CloseClientConnections)
	cs := e.client("e2e")

	var p struct {
		page
		Loading bool `json:"loading"`
	}
	start := time.Now()
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/slow-image.html"}, &p)
	assert.Less(t, time.Since(start), 20*time.Second, "not the whole minute, nor the call's 30 s")
	assert.True(t, p.Loading)
	assert.Equal(t, "Slow Image", p.Title)
	assert.Equal(t, 200, p.Status)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{}), "The words are here before the picture.")

	p.Loading = false
	okJSON(t, cs, "navigate", map[string]any{"url": "reload"}, &p)
	assert.True(t, p.Loading, "the same page, reloaded while its image loads")
	// A click that leaves the page while it loads, for one that loads as
	// slowly, answers once the words are there too.
	start = time.Now()
	a := actedOf(t, call(t, cs, "interact", map[string]any{"query": "Read it again", "action": "click"}))
	assert.Less(t, time.Since(start), 12*time.Second, "not the 15 s an action waits for a navigation")
	assert.True(t, a.Navigated)
	assert.Equal(t, site.URL+"/slow-image.html?again", a.URL)
	p.Loading = false
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/second.html"}, &p)
	assert.Equal(t, "Second Page", p.Title)
	assert.False(t, p.Loading)

	// A click from a page that has loaded, to the slow one.
	start = time.Now()
	a = actedOf(t, call(t, cs, "interact", map[string]any{"query": "A slow page", "action": "click"}))
	assert.Less(t, time.Since(start), 12*time.Second, "not the 15 s an action waits for a navigation")
	assert.True(t, a.Navigated)
	assert.Equal(t, "Slow Image", a.Title)
}

// TestNavigateAnswersAPageAScriptHoldsBack navigates to a page whose
// parsing a script holds back for a minute: a person sees the words above
// it at once, so navigate answers, as still loading, once they are drawn,
// and not at the call's timeout; a click on a link to it answers so too.
func TestNavigateAnswersAPageAScriptHoldsBack(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	t.Cleanup(site.CloseClientConnections) // the script's request is held open
	cs := e.client("e2e")

	var p struct {
		page
		Loading bool `json:"loading"`
	}
	start := time.Now()
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/slow-script.html"}, &p)
	assert.Less(t, time.Since(start), 20*time.Second, "not the minute, nor the call's 30 s")
	assert.True(t, p.Loading)
	assert.Equal(t, "Slow Script", p.Title)
	assert.Equal(t, 200, p.Status)
	tree := ok(t, cs, "read_page", map[string]any{})
	assert.Contains(t, tree, "The words above the script are here.")
	assert.NotContains(t, tree, "The words below it")

	ok(t, cs, "navigate", map[string]any{"url": site.URL + "/index.html"})
	ok(t, cs, "javascript_tool", map[string]any{"code": `const a = document.createElement('a');
		a.href = '/slow-script.html'; a.textContent = 'The news'; document.body.prepend(a); 'ok'`})
	start = time.Now()
	a := actedOf(t, call(t, cs, "interact", map[string]any{"query": "The news", "action": "click"}))
	assert.Less(t, time.Since(start), 12*time.Second, "not the 15 s an action waits for a navigation")
	assert.True(t, a.Navigated)
	assert.Equal(t, "Slow Script", a.Title)
}

func TestTabsCreateAndClose(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")

	var a, b page
	okJSON(t, cs, "tabs_create", map[string]any{"url": site.URL + "/index.html"}, &a)
	okJSON(t, cs, "tabs_create", map[string]any{"url": site.URL + "/second.html"}, &b)
	assert.Equal(t, "Second Page", b.Title)

	var tc tabsContext
	okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
	assert.Len(t, tc.Tabs, 2)
	assert.Equal(t, b.TabID, tc.Current, "the newest tab is current")

	ok(t, cs, "tabs_close", map[string]any{"tabId": b.TabID})
	okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
	require.Len(t, tc.Tabs, 1)
	assert.Equal(t, a.TabID, tc.Current, "closing the current tab falls back to another")

	fails(t, cs, "tabs_close", map[string]any{"tabId": b.TabID}, protocol.CodeTabNotFound)
}

func TestScreenshotIsTheViewport(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")
	ok(t, cs, "navigate", map[string]any{"url": site.URL + "/tall.html"})

	shot := func(args map[string]any) (image.Config, string) {
		t.Helper()
		r := call(t, cs, "page_screenshot", args)
		require.False(t, r.IsError, textOf(r))
		img, ok := r.Content[0].(*mcp.ImageContent)
		require.True(t, ok, "the first block is an image")
		cfg, format, err := image.DecodeConfig(bytes.NewReader(img.Data))
		require.NoError(t, err)
		assert.Equal(t, "image/"+format, img.MIMEType)
		return cfg, format
	}
	// The first screenshot attaches the debugger, whose infobar ("started
	// debugging this browser") takes its share of the window a moment
	// later: the page and the picture agree once it has.
	var vp struct{ W, H, DPR float64 }
	var cfg image.Config
	var format string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		cfg, format = shot(map[string]any{})
		okJSON(t, cs, "javascript_tool", map[string]any{"code": "({W: innerWidth, H: innerHeight, DPR: devicePixelRatio})"}, &vp)
		if (cfg.Width == int(vp.W*vp.DPR) && cfg.Height == int(vp.H*vp.DPR)) || time.Now().After(deadline) {
			break
		}
	}
	require.NotZero(t, vp.W)
	assert.Equal(t, "png", format)
	assert.Equal(t, int(vp.W*vp.DPR), cfg.Width)
	assert.Equal(t, int(vp.H*vp.DPR), cfg.Height)

	cfg, format = shot(map[string]any{"format": "jpeg", "quality": 60})
	assert.Equal(t, "jpeg", format)
	assert.Equal(t, int(vp.W*vp.DPR), cfg.Width)

	cfg, _ = shot(map[string]any{"fullPage": true})
	assert.Equal(t, int(3000*vp.DPR), cfg.Height, "the whole 3000 px page")
}

func TestJavascriptTool(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")
	ok(t, cs, "navigate", map[string]any{"url": site.URL + "/index.html"})

	assert.Equal(t, `"Fixture Home"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.title"}))
	assert.Equal(t, `42`, ok(t, cs, "javascript_tool", map[string]any{"code": "await new Promise(r => setTimeout(() => r(6 * 7), 10))"}))
	assert.Equal(t, "undefined", ok(t, cs, "javascript_tool", map[string]any{"code": "void 0"}))
	assert.Equal(t, `{"links":1}`, ok(t, cs, "javascript_tool", map[string]any{"code": "({links: document.links.length})"}))
	// What JSON would make {} says what it is; markup stays readable.
	assert.Equal(t, `"<h1>Fixture Home</h1>"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.querySelector('h1')"}))
	assert.Equal(t, `["<a href=\"/second.html\">Second page</a>"]`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.querySelectorAll('a')"}))
	assert.Equal(t, `{"a":1}`, ok(t, cs, "javascript_tool", map[string]any{"code": "new Map([['a', 1]])"}))
	assert.Equal(t, `"1970-01-01T00:00:00.000Z"`, ok(t, cs, "javascript_tool", map[string]any{"code": "new Date(0)"}))
	assert.Equal(t, `"Error: nope"`, ok(t, cs, "javascript_tool", map[string]any{"code": "new Error('nope')"}))

	err := fails(t, cs, "javascript_tool", map[string]any{"code": "throw new Error('the page said no')"}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "the page said no")
}

func TestCancellingALongScript(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/index.html")

	ctx, cancel := context.WithCancel(context.Background())
	hung := hangInPage(t, ctx, cs, tab)
	start := time.Now()
	cancel()
	select {
	case r := <-hung:
		require.True(t, r.IsError)
		assert.Less(t, time.Since(start), 2*time.Second)
	case <-time.After(2 * time.Second):
		t.Fatal("the cancelled call did not return within 2 s")
	}

	// The next call works, in the same session, at once.
	start = time.Now()
	assert.Equal(t, `"Fixture Home"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.title"}))
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestTheExtensionReconnectsAfterTheDaemonDies(t *testing.T) {
	e := newEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")
	var p page
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/index.html"}, &p)

	old, err := bridge.ReadDiscovery(e.home.BridgeFile())
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(old.PID, syscall.SIGKILL))
	fresh := e.waitDaemon(old.PID)
	assert.NotEqual(t, old.Port, fresh.Port)

	// The same MCP session goes on: the front-end finds the new daemon.
	var tc tabsContext
	okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
	require.Len(t, tc.Tabs, 1, "the tab group outlives the daemon")
	assert.Equal(t, p.TabID, tc.Tabs[0].TabID)
	assert.Equal(t, `"Fixture Home"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.title", "tabId": p.TabID}))
}

func TestTwoClientsAtOnce(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	clients := []*mcp.ClientSession{e.client("first"), e.client("second")}

	var wg sync.WaitGroup
	for i, cs := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			url := fmt.Sprintf("%s/index.html?client=%d", site.URL, i)
			var p page
			okJSON(t, cs, "tabs_create", map[string]any{"url": url}, &p)
			for range 10 {
				got := ok(t, cs, "javascript_tool", map[string]any{"code": "location.search"})
				assert.Equal(t, fmt.Sprintf(`"?client=%d"`, i), got, "each client acts in its own current tab")
			}
		}()
	}
	wg.Wait()
}

func TestErrorsAUserCanActOn(t *testing.T) {
	e := sharedEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")
	var p page
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/index.html"}, &p)

	for _, url := range []string{"not a url", "index.html", "javascript:alert(1)", "chrome://settings"} {
		err := fails(t, cs, "navigate", map[string]any{"url": url}, protocol.CodeBadRequest)
		assert.Contains(t, err.Hint, "absolute URL", url)
	}
	// A host as a person types it into the address bar.
	okJSON(t, cs, "navigate", map[string]any{"url": strings.TrimPrefix(site.URL, "http://") + "/second.html"}, &p)
	assert.Equal(t, site.URL+"/second.html", p.URL)
	fails(t, cs, "navigate", map[string]any{"url": site.URL, "tabId": 987654}, protocol.CodeTabNotFound)

	err := fails(t, cs, "navigate", map[string]any{"url": site.URL, "tabId": "12"}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "tabId")
	err = fails(t, cs, "javascript_tool", map[string]any{}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, `"code"`)

	// The tab Chromium opened at start is the user's, not the agent's.
	var userTab int
	require.NoError(t, e.devtools().evalExtension(
		`chrome.tabs.query({}).then(ts => ts.find(t => t.groupId === chrome.tabGroups.TAB_GROUP_ID_NONE).id)`, &userTab))
	err = fails(t, cs, "javascript_tool", map[string]any{"code": "document.cookie", "tabId": userTab}, protocol.CodeTabNotAllowed)
	assert.Contains(t, err.Hint, "tabs_create")
	fails(t, cs, "tabs_close", map[string]any{"tabId": userTab}, protocol.CodeTabNotAllowed)

	// A server that is not there.
	closed := fixtures(t)
	closed.Close()
	fails(t, cs, "navigate", map[string]any{"url": closed.URL + "/"}, protocol.CodeNotFound)

	// The tab shows Chrome's error page now: a read says so, and how to leave it.
	for tool, args := range map[string]map[string]any{"read_page": {}, "find": {"query": "x"}} {
		err = fails(t, cs, tool, args, protocol.CodeNotFound)
		assert.Contains(t, err.Message, "error page", tool)
		assert.Contains(t, err.Hint, "navigate", tool)
	}

	// Everything still works after it.
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/second.html"}, &p)
	assert.Equal(t, `"Second Page"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.title", "tabId": p.TabID}))
}

func TestWithoutADaemon(t *testing.T) {
	skipIfShort(t)
	home := t.TempDir()
	cmd := exec.Command(suite.binary, "mcp")
	cmd.Env = append(cmd.Environ(), "OPENCHROME_HOME="+home)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer cs.Close()

	start := time.Now()
	calls := map[string]map[string]any{
		"oc_connection_health": {},
		"tabs_context":         {},
		"navigate":             {"url": "http://127.0.0.1/"},
	}
	for tool, args := range calls {
		e := fails(t, cs, tool, args, protocol.CodeBrowserNotConnected)
		assert.Contains(t, e.Hint, "openchrome doctor", tool)
	}
	assert.Less(t, time.Since(start), 5*time.Second, "no daemon is said at once")

	// openchrome call says the same, with the fix.
	call := exec.Command(suite.binary, "call", "tabs_context")
	call.Env = cmd.Env
	out, err := call.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "browser_not_connected")
	assert.Contains(t, string(out), "openchrome doctor")
}

func TestCallAndDoctorFromTheShell(t *testing.T) {
	e := newEnv(t)
	site := fixtures(t)

	out, err := e.openchrome("call", "navigate", fmt.Sprintf(`{"url":%q}`, site.URL+"/index.html"))
	require.NoError(t, err, out)
	assert.Contains(t, out, `"title":"Fixture Home"`)

	out, err = e.openchrome("call", "navigate", `{"url":"nope"}`)
	require.Error(t, err)
	assert.Contains(t, out, "bad_request")

	out, err = e.openchrome("doctor")
	t.Log(out)
	assert.Contains(t, out, "daemon")
	assert.Contains(t, out, "Chromium/")
	assert.NotContains(t, out, "FAIL")
	assert.NoError(t, err)
	assert.True(t, strings.Contains(out, "Everything checks out"))
}
