package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// fakeBrowser is an in-process extension: it answers each command with what
// answer returns and records the commands and states it saw.
type fakeBrowser struct {
	mu     sync.Mutex
	seen   []protocol.Command
	states []protocol.State
	undone []string // the ids of the commands the engine cancelled
	link   *bridge.Link
}

func (f *fakeBrowser) cancelled() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.undone...)
}

// lastState decodes the last state the browser was sent into out; false
// when none came.
func (f *fakeBrowser) lastState(out any) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.states) == 0 {
		return false
	}
	return json.Unmarshal(f.states[len(f.states)-1].Data, out) == nil
}

func (f *fakeBrowser) actions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.seen {
		out = append(out, c.Action)
	}
	return out
}

func (f *fakeBrowser) last() protocol.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[len(f.seen)-1]
}

// newEngine returns an engine with one fake browser that answers with answer.
func newEngine(t *testing.T, version string, answer func(protocol.Command) (any, *protocol.Error)) (*Engine, *fakeBrowser) {
	return newEngineWith(t, Options{}, version, answer)
}

// newEngineWith is newEngine with options (stores, a clock); Browsers is set
// here. The engine is closed when the test ends.
func newEngineWith(t *testing.T, opts Options, version string, answer func(protocol.Command) (any, *protocol.Error)) (*Engine, *fakeBrowser) {
	t.Helper()
	var e *Engine
	reg := bridge.NewRegistry(bridge.RegistryOptions{
		OnConnect: func(l *bridge.Link) { e.BrowserConnected(l) },
	})
	opts.Browsers = reg
	e = New(opts)
	t.Cleanup(func() { e.Close(context.Background()) })
	fb := &fakeBrowser{}
	fb.link = reg.Add(&protocol.Hello{Role: protocol.RoleExtension, Version: version, Browser: "Fake/1"}, func(f protocol.Frame) error {
		if st, ok := f.(protocol.State); ok {
			fb.mu.Lock()
			fb.states = append(fb.states, st)
			fb.mu.Unlock()
			return nil
		}
		if c, ok := f.(protocol.Cancel); ok {
			fb.mu.Lock()
			fb.undone = append(fb.undone, c.ID)
			fb.mu.Unlock()
			return nil
		}
		cmd, ok := f.(protocol.Command)
		if !ok {
			return nil
		}
		// profile.secrets follows every call on a tab (profile.go); the
		// tests of it look at what it masks, the others at their own
		// commands.
		if cmd.Action != "profile.secrets" {
			fb.mu.Lock()
			fb.seen = append(fb.seen, cmd)
			fb.mu.Unlock()
		}
		go func() {
			data, err := answer(cmd)
			if err != nil {
				fb.link.Deliver(&protocol.CommandResult{ID: cmd.ID, Error: err})
				return
			}
			b, _ := json.Marshal(data)
			fb.link.Deliver(&protocol.CommandResult{ID: cmd.ID, OK: true, Data: b})
		}()
		return nil
	})
	return e, fb
}

func run(t *testing.T, e *Engine, tool, args string) *protocol.ToolResult {
	t.Helper()
	return e.Call(context.Background(), bridge.NewCall("a1", tool, json.RawMessage(args), nil))
}

func textOf(t *testing.T, r *protocol.ToolResult) string {
	t.Helper()
	require.NotNil(t, r)
	for _, c := range r.Content {
		if c.Type == "text" {
			return c.Text
		}
	}
	t.Fatalf("no text in %+v", r)
	return ""
}

func wantError(t *testing.T, r *protocol.ToolResult, code protocol.Code) *protocol.Error {
	t.Helper()
	e := protocol.ResultError(r)
	require.NotNil(t, e, "want a %s error, got %s", code, textOf(t, r))
	assert.Equal(t, code, e.Code, e.Message)
	return e
}

// tabs answers tab.list with the given tabs, tab.get with one of them (a
// tab that is not there goes to more, else is tab_not_found), and
// everything else from more. As the extension's router does, a command to
// a tab that is not there is tab_not_found when more is nil.
func tabs(list []browser.Tab, more func(protocol.Command) (any, *protocol.Error)) func(protocol.Command) (any, *protocol.Error) {
	return func(cmd protocol.Command) (any, *protocol.Error) {
		id := tabOf(cmd)
		there := slices.ContainsFunc(list, func(t browser.Tab) bool { return t.TabID == id })
		switch cmd.Action {
		case "tab.list":
			return map[string]any{"tabs": list}, nil
		case "tab.get":
			for _, t := range list {
				if t.TabID == id {
					return t, nil
				}
			}
		}
		if id != 0 && !there && more == nil {
			return nil, protocol.Errorf(protocol.CodeTabNotFound, "no tab %d", id)
		}
		if more == nil {
			return map[string]any{}, nil
		}
		return more(cmd)
	}
}

// tabOf is the tab a command names.
func tabOf(cmd protocol.Command) int {
	var p struct {
		TabID int `json:"tabId"`
	}
	_ = json.Unmarshal(cmd.Params, &p)
	return p.TabID
}

// architecture is the tool catalog of ARCHITECTURE.md §5, by group.
var architecture = map[string][]string{
	GroupCore: strings.Fields(`tabs_context tabs_create tabs_close navigate read_page find interact act form_input
		javascript_tool page_screenshot computer wait_for upload_file downloads console_messages network_requests
		network_request page_pdf oc_connection_health oc_stop`),
	GroupLong:        strings.Fields(`crawl crawl_sitemap recording oc_evidence_bundle oc_session_snapshot oc_session_resume`),
	GroupTasks:       strings.Fields(`oc_task_start oc_task_list oc_task_get oc_task_update oc_task_finish oc_task_cancel oc_task_wait`),
	GroupHandoff:     strings.Fields(`oc_handoff_start oc_handoff_status oc_handoff_finish oc_handoff_cancel`),
	GroupInteractive: {"browser_request_feedback"},
}

// notYetBuilt are the tools of §5 the catalog does not have yet, each with
// the open issue that builds it. Remove a tool from here when it lands.
var notYetBuilt = map[string]string{}

func TestTheCatalogIsTheArchitecturesList(t *testing.T) {
	groupOf := map[string]string{}
	for g, names := range architecture {
		for _, n := range names {
			groupOf[n] = g
		}
	}
	built := map[string]bool{}
	for _, tool := range Catalog() {
		assert.False(t, built[tool.Name], "%s twice", tool.Name)
		built[tool.Name] = true
		g, ok := groupOf[tool.Name]
		if assert.True(t, ok, "%s is not in ARCHITECTURE.md §5", tool.Name) {
			assert.Equal(t, g, tool.Group, "%s's group", tool.Name)
		}
		_, listed := notYetBuilt[tool.Name]
		assert.False(t, listed, "%s is built: take it off notYetBuilt", tool.Name)
		assert.NotEmpty(t, tool.Description)
		assert.LessOrEqual(t, len(tool.Description), 160, "%s: descriptions stay short", tool.Name)
		assert.Equal(t, "object", tool.InputSchema.Type)
	}
	for name := range groupOf {
		_, later := notYetBuilt[name]
		assert.True(t, built[name] || later, "%s of ARCHITECTURE.md §5 is missing from the catalog", name)
	}
}

func TestEveryToolHasHintsThatAgree(t *testing.T) {
	for _, tool := range Catalog() {
		h := tool.Hints
		if h.ReadOnly {
			assert.False(t, h.Destructive || h.Idempotent, "%s: read-only says it all", tool.Name)
		}
		if tool.Local {
			assert.False(t, h.OpenWorld, "%s only reads the ledger", tool.Name)
		}
	}
	assert.Panics(t, func() { hintsOf("teleport") }, "a tool without a row is found at start-up")
}

func TestTheInteractActionsAreTheSharedVector(t *testing.T) {
	b, err := os.ReadFile("../../protocol/testdata/interact-actions.json")
	require.NoError(t, err)
	var want []string
	require.NoError(t, json.Unmarshal(b, &want))
	assert.Equal(t, want, interactActions(), "the extension's element.act reads the same file")
}

func TestCatalogCostsFewTokens(t *testing.T) {
	// tools/list is paid for in every agent's context. Playwright MCP 0.0.83's
	// list is 20,286 characters, 4,413 o200k tokens; ours must stay well
	// under (about 4.3 characters a token).
	b, err := json.Marshal(func() (out []map[string]any) {
		for _, tool := range Catalog() {
			out = append(out, map[string]any{"name": tool.Name, "description": tool.Description, "inputSchema": tool.InputSchema})
		}
		return out
	}())
	require.NoError(t, err)
	assert.Less(t, len(b), 16_000)
	t.Logf("tools/list: %d tools, %d characters", len(Catalog()), len(b))
}

func TestSelectGroups(t *testing.T) {
	all, err := Select(nil)
	require.NoError(t, err)
	assert.NotEmpty(t, all)
	for _, tool := range all {
		assert.NotContains(t, []string{GroupInteractive, GroupDebug}, tool.Group, "opt-in groups are off by default")
	}
	core, err := Select([]string{GroupCore})
	require.NoError(t, err)
	for _, tool := range core {
		assert.Equal(t, GroupCore, tool.Group)
	}
	_, err = Select([]string{"core", "magic"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"magic"`)
	assert.Contains(t, err.Error(), "handoff")
}

func TestWithoutADaemonBrowserToolsSaySo(t *testing.T) {
	e := New(Options{})
	for _, tool := range []string{"oc_connection_health", "tabs_context", "navigate", "page_screenshot", "javascript_tool"} {
		args := `{}`
		switch tool {
		case "navigate":
			args = `{"url":"https://example.com/"}`
		case "javascript_tool":
			args = `{"code":"1"}`
		}
		t.Run(tool, func(t *testing.T) {
			err := wantError(t, run(t, e, tool, args), protocol.CodeBrowserNotConnected)
			assert.Contains(t, err.Hint, "openchrome doctor")
		})
	}
}

func TestUnknownToolAndBadArguments(t *testing.T) {
	e, fb := newEngine(t, protocol.Version, tabs(nil, nil))
	wantError(t, run(t, e, "teleport", `{}`), protocol.CodeBadRequest)

	tests := []struct{ tool, args, want string }{
		{"navigate", `{}`, `missing required field "url"`},
		{"navigate", `{"url":"http://127.0.0.1/","tabId":"7"}`, "tabId: want integer, got string"},
		{"navigate", `{"url":"http://127.0.0.1/","tabId":0}`, "tabId: must be at least 1"},
		{"page_screenshot", `{"format":"gif"}`, "format: must be one of png, jpeg"},
		{"page_screenshot", `{"quality":101}`, "quality: must be at most 100"},
		{"javascript_tool", `{"script":"1"}`, `unknown field "script"`},
		{"tabs_close", `{}`, `missing required field "tabId"`},
		// act publishes its steps as objects; they are still interact's.
		{"act", `{"steps":[{"ref":"e1","action":"smash"}]}`, "action: must be one of click"},
		{"act", `{"steps":[{"ref":"e1","action":"click","force":true}]}`, `unknown field "force"`},
		{"act", `{"steps":[]}`, "steps"},
		// null is not given: a list inferred from a Go slice would take it.
		{"act", `{"steps":null}`, `missing required field "steps"`},
		{"form_input", `{"fields":null}`, `missing required field "fields"`},
		{"wait_for", `{"text":""}`, "text is empty"},
		{"javascript_tool", `{"code":" "}`, "code is empty"},
		{"find", `{"query":""}`, "query is empty"},
		{"wait_for", `{"url":" "}`, "url is empty"},
		{"downloads", `{"tabId":0}`, "tabId: must be at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			e := wantError(t, run(t, e, tt.tool, tt.args), protocol.CodeBadRequest)
			assert.Contains(t, e.Message, tt.want)
		})
	}
	assert.Empty(t, fb.actions(), "bad arguments send nothing to the browser")
}

// TestATimeoutSaysTimeoutMsOnlyToToolsThatTakeIt: an agent told to pass a
// larger timeoutMs to interact would be refused an unknown argument.
func TestATimeoutSaysTimeoutMsOnlyToToolsThatTakeIt(t *testing.T) {
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			return nil, protocol.Errorf(protocol.CodeTimeout, "%s did not finish in time: it may have been done in part", cmd.Action).
				WithHint("look before trying again (read_page shows where the page is)")
		}))
	err := wantError(t, run(t, e, "interact", `{"tabId":7,"ref":"e1","action":"click"}`), protocol.CodeTimeout)
	assert.Equal(t, "look before trying again (read_page shows where the page is)", err.Hint)
	err = wantError(t, run(t, e, "javascript_tool", `{"tabId":7,"code":"1"}`), protocol.CodeTimeout)
	assert.Equal(t, "look before trying again (read_page shows where the page is), or pass a larger timeoutMs", err.Hint)
}

func TestNavigateRefusesMalformedURLs(t *testing.T) {
	e, fb := newEngine(t, protocol.Version, tabs(nil, nil))
	for _, url := range []string{"", "example", "index.html", "/relative", "http://", "javascript:alert(1)", "chrome://settings", "ht tp://x"} {
		t.Run(url, func(t *testing.T) {
			err := wantError(t, run(t, e, "navigate", `{"url":`+jsonString(url)+`}`), protocol.CodeBadRequest)
			assert.Contains(t, err.Hint, "absolute URL")
		})
	}
	assert.Empty(t, fb.actions())
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestNavigateOpensATabWhenTheAgentHasNone(t *testing.T) {
	e, fb := newEngine(t, protocol.Version, tabs(nil, func(cmd protocol.Command) (any, *protocol.Error) {
		return browser.Page{TabID: 12, URL: "http://127.0.0.1:8080/", Title: "Fixture", Status: 200}, nil
	}))
	r := run(t, e, "navigate", `{"url":"http://127.0.0.1:8080/"}`)
	assert.JSONEq(t, `{"tabId":12,"url":"http://127.0.0.1:8080/","title":"Fixture","status":200}`, textOf(t, r))
	assert.Equal(t, []string{"tab.list", "tab.create"}, fb.actions())
	assert.JSONEq(t, `{"url":"http://127.0.0.1:8080/","active":true,"secrets":true}`, string(fb.last().Params))
}

func TestANavigationThatShowsNothingInTimeSaysWhereItLeftTheTab(t *testing.T) {
	list := []browser.Tab{{TabID: 3, URL: "about:blank", Active: true}}
	tests := []struct {
		name, args, want string
		list             []browser.Tab
	}{
		{"a new tab", `{"url":"http://127.0.0.1/slow"}`, "http://127.0.0.1/slow showed nothing in 30s: its tab was closed", nil},
		{"the agent's tab", `{"url":"http://127.0.0.1/slow","tabId":3,"timeoutMs":5000}`,
			"http://127.0.0.1/slow showed nothing in 5s: the tab goes on loading it", list},
		{"a reload", `{"url":"reload","tabId":3}`, "the page (reload) showed nothing in 30s: the tab goes on loading it", list},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEngine(t, protocol.Version, tabs(tt.list, func(cmd protocol.Command) (any, *protocol.Error) {
				return nil, protocol.Errorf(protocol.CodeTimeout, "%s did not finish in time: it may have been done in part", cmd.Action)
			}))
			err := wantError(t, run(t, e, "navigate", tt.args), protocol.CodeTimeout)
			assert.Equal(t, tt.want, err.Message)
			assert.Contains(t, err.Hint, "timeoutMs")
		})
	}

	// A page its own script holds is not a slow site: the reason stands.
	const held = "the page has not answered for 16 s: a script of its own keeps it busy"
	e, _ := newEngine(t, protocol.Version, tabs(list, func(cmd protocol.Command) (any, *protocol.Error) {
		return nil, protocol.Errorf(protocol.CodeTimeout, held).WithHint("tabs_close ends it")
	}))
	err := wantError(t, run(t, e, "navigate", `{"url":"http://127.0.0.1/next","tabId":3}`), protocol.CodeTimeout)
	assert.Equal(t, held, err.Message)
	assert.Contains(t, err.Hint, "tabs_close ends it")
}

func TestNavigateUsesTheCurrentTab(t *testing.T) {
	list := []browser.Tab{{TabID: 3, URL: "about:blank"}, {TabID: 12, URL: "about:blank", Active: true}}
	e, fb := newEngine(t, protocol.Version, tabs(list, func(cmd protocol.Command) (any, *protocol.Error) {
		var p struct {
			TabID int `json:"tabId"`
		}
		_ = json.Unmarshal(cmd.Params, &p)
		return browser.Page{TabID: p.TabID, URL: "http://127.0.0.1/", Title: "T", Status: 200}, nil
	}))
	run(t, e, "navigate", `{"url":"http://127.0.0.1/","tabId":3}`)
	assert.JSONEq(t, `{"tabId":3,"url":"http://127.0.0.1/","secrets":true}`, string(fb.last().Params))

	// The tab it last used is now current, even though 12 is the active one.
	run(t, e, "navigate", `{"url":"reload"}`)
	assert.JSONEq(t, `{"tabId":3,"direction":"reload","secrets":true}`, string(fb.last().Params))

	// Another agent has its own current tab: the group's active one.
	e.Call(context.Background(), bridge.NewCall("a2", "navigate", json.RawMessage(`{"url":"back","timeoutMs":5000}`), nil))
	assert.JSONEq(t, `{"tabId":12,"direction":"back","secrets":true}`, string(fb.last().Params))
	assert.EqualValues(t, 5000, fb.last().TimeoutMs)
}

func TestNavigateBackWithoutATab(t *testing.T) {
	e, _ := newEngine(t, protocol.Version, tabs(nil, nil))
	wantError(t, run(t, e, "navigate", `{"url":"back"}`), protocol.CodeNotFound)
}

func TestExtensionErrorsPassThrough(t *testing.T) {
	e, _ := newEngine(t, protocol.Version, tabs(nil, func(cmd protocol.Command) (any, *protocol.Error) {
		return nil, protocol.Errorf(protocol.CodeTabNotAllowed, "tab 5 is not in the OpenChrome group").WithHint("open one with tabs_create")
	}))
	err := wantError(t, run(t, e, "tabs_close", `{"tabId":5}`), protocol.CodeTabNotAllowed)
	assert.Equal(t, "open one with tabs_create", err.Hint)
}

func TestTabsContextAndClose(t *testing.T) {
	list := []browser.Tab{{TabID: 4, URL: "http://127.0.0.1/a", Title: "A", Active: true}}
	e, _ := newEngine(t, protocol.Version, tabs(list, nil))
	assert.JSONEq(t, `{"current":4,"tabs":[{"tabId":4,"url":"http://127.0.0.1/a","title":"A","active":true}]}`,
		textOf(t, run(t, e, "tabs_context", `{}`)))
	assert.JSONEq(t, `{"closed":4}`, textOf(t, run(t, e, "tabs_close", `{"tabId":4}`)))

	empty, _ := newEngine(t, protocol.Version, tabs(nil, nil))
	assert.JSONEq(t, `{"tabs":[]}`, textOf(t, run(t, empty, "tabs_context", `{}`)))

	signedIn := []browser.Tab{{TabID: 6, URL: "https://app.example/cb?user=ada#access_token=ya29.a0AfH6SMBx&token_type=Bearer", Active: true}}
	e, _ = newEngine(t, protocol.Version, tabs(signedIn, nil))
	assert.JSONEq(t, `{"current":6,"tabs":[{"tabId":6,"url":"https://app.example/cb?user=ada#access_token=[redacted]&token_type=Bearer","title":"","active":true}]}`,
		textOf(t, run(t, e, "tabs_context", `{}`)), "a token the address carries is masked")
}

func TestToolsThatNeedATab(t *testing.T) {
	e, _ := newEngine(t, protocol.Version, tabs(nil, nil))
	for tool, args := range map[string]string{"page_screenshot": `{}`, "javascript_tool": `{"code":"1"}`} {
		err := wantError(t, run(t, e, tool, args), protocol.CodeNotFound)
		assert.Contains(t, err.Hint, "navigate")
	}
}

func TestJavascriptResults(t *testing.T) {
	list := []browser.Tab{{TabID: 1, Active: true}}
	tests := []struct {
		name   string
		answer any
		want   string
	}{
		{"a string", map[string]any{"type": "string", "value": "Fixture"}, `"Fixture"`},
		{"an object", map[string]any{"type": "object", "value": map[string]int{"a": 1}}, `{"a":1}`},
		{"undefined", map[string]any{"type": "undefined"}, "undefined"},
		{"null", map[string]any{"type": "object", "value": nil}, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEngine(t, protocol.Version, tabs(list, func(protocol.Command) (any, *protocol.Error) { return tt.answer, nil }))
			assert.Equal(t, tt.want, textOf(t, run(t, e, "javascript_tool", `{"code":"x"}`)))
		})
	}

	big := strings.Repeat("x", maxScriptResult*2)
	e, _ := newEngine(t, protocol.Version, tabs(list, func(protocol.Command) (any, *protocol.Error) {
		return map[string]any{"type": "string", "value": big}, nil
	}))
	out := textOf(t, run(t, e, "javascript_tool", `{"code":"x"}`))
	assert.Less(t, len(out), maxScriptResult+200)
	assert.Contains(t, out, fmt.Sprintf("[truncated: the value is %d characters", len(big)+2), "its JSON's length, quotes and all")

	thrown, _ := newEngine(t, protocol.Version, tabs(list, func(protocol.Command) (any, *protocol.Error) {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "script threw: Error: boom")
	}))
	err := wantError(t, run(t, thrown, "javascript_tool", `{"code":"throw new Error('boom')"}`), protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "boom")
}

func TestScreenshotIsAnImage(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 800, 600))))
	list := []browser.Tab{{TabID: 1, Active: true}}
	e, fb := newEngine(t, protocol.Version, tabs(list, func(protocol.Command) (any, *protocol.Error) {
		return map[string]any{"data": base64.StdEncoding.EncodeToString(buf.Bytes()), "mimeType": "image/png"}, nil
	}))
	r := run(t, e, "page_screenshot", `{}`)
	require.Len(t, r.Content, 2)
	assert.Equal(t, "image", r.Content[0].Type)
	assert.Equal(t, "image/png", r.Content[0].MimeType)
	assert.Equal(t, buf.Bytes(), r.Content[0].Data)
	assert.Contains(t, r.Content[1].Text, "800x600")
	assert.JSONEq(t, `{"tabId":1,"format":"png"}`, string(fb.last().Params))

	wantError(t, run(t, e, "page_screenshot", `{"quality":50}`), protocol.CodeBadRequest)
	run(t, e, "page_screenshot", `{"format":"jpeg"}`)
	assert.JSONEq(t, `{"tabId":1,"format":"jpeg","quality":80}`, string(fb.last().Params))
}

func TestAScreenshotTooHeavyForAModelIsTakenAgainAsJPEG(t *testing.T) {
	encode := func(format string, pad int) []byte {
		var buf bytes.Buffer
		img := image.NewRGBA(image.Rect(0, 0, 100, 80))
		if format == "png" {
			require.NoError(t, png.Encode(&buf, img))
		} else {
			require.NoError(t, jpeg.Encode(&buf, img, nil))
		}
		return append(buf.Bytes(), make([]byte, pad)...) // a page of photos, as far as size goes
	}
	tests := []struct {
		name      string
		jpegPad   int
		wantShots int
		wantCode  protocol.Code
	}{
		{"the JPEG fits", 0, 2, ""},
		{"nothing fits", maxImageBytes, 2, protocol.CodeTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list := []browser.Tab{{TabID: 1, Active: true}}
			e, fb := newEngine(t, protocol.Version, tabs(list, func(cmd protocol.Command) (any, *protocol.Error) {
				var p struct{ Format string }
				require.NoError(t, json.Unmarshal(cmd.Params, &p))
				data := encode("png", maxImageBytes)
				if p.Format == "jpeg" {
					data = encode("jpeg", tt.jpegPad)
				}
				return map[string]any{"data": base64.StdEncoding.EncodeToString(data), "mimeType": "image/" + p.Format}, nil
			}))
			r := run(t, e, "page_screenshot", `{"fullPage":true}`)
			shots := 0
			for _, a := range fb.actions() {
				if a == "page.screenshot" {
					shots++
				}
			}
			assert.Equal(t, tt.wantShots, shots)
			if tt.wantCode != "" {
				err := wantError(t, r, tt.wantCode)
				assert.Contains(t, err.Hint, "ref or clip")
				return
			}
			require.False(t, r.IsError)
			assert.Equal(t, "image/jpeg", r.Content[0].MimeType)
			assert.Contains(t, r.Content[1].Text, "100x80 jpeg")
			assert.JSONEq(t, `{"tabId":1,"format":"jpeg","quality":80,"fullPage":true}`, string(fb.last().Params))
		})
	}
}

func TestHealthFlagsAVersionMismatch(t *testing.T) {
	e, _ := newEngine(t, "0.0.1", func(protocol.Command) (any, *protocol.Error) {
		return map[string]int{"groupTabs": 2, "attachedTabs": 1}, nil
	})
	var out struct {
		OK       bool               `json:"ok"`
		Browsers []browserHealthOut `json:"browsers"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_connection_health", `{}`))), &out))
	assert.False(t, out.OK)
	require.Len(t, out.Browsers, 1)
	assert.Equal(t, 2, out.Browsers[0].GroupTabs)
	assert.Contains(t, out.Browsers[0].Problem, "reload the extension")
}

func TestVersionProblem(t *testing.T) {
	build := protocol.Version + ".4711"
	for _, tc := range []struct {
		name, running, want, problem string
	}{
		{"the installed build", build, build, ""},
		{"loaded from its source folder", protocol.Version, build, ""},
		{"no build known", protocol.Version + ".12", "", ""},
		{"another build", protocol.Version + ".12", build, "reload the extension"},
		{"another release", "0.0.1.12", build, "differs from openchrome"},
		{"another release, unbuilt", "0.0.1", build, "differs from openchrome"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := versionProblem(tc.running, tc.want)
			if tc.problem == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.problem)
			}
		})
	}
}

func TestHealthWithNoBrowser(t *testing.T) {
	e := New(Options{Browsers: bridge.NewRegistry(bridge.RegistryOptions{})})
	err := wantError(t, run(t, e, "oc_connection_health", `{}`), protocol.CodeBrowserNotConnected)
	assert.Contains(t, err.Hint, "openchrome doctor")
}

func TestAPanickingToolIsAnInternalError(t *testing.T) {
	e, _ := newEngine(t, protocol.Version, tabs(nil, nil))
	e.tools["boom"] = define("boom", GroupCore, "panics", func(context.Context, *call, struct{}) (*protocol.ToolResult, error) {
		panic("boom")
	})
	err := wantError(t, run(t, e, "boom", `{}`), protocol.CodeInternal)
	assert.NotContains(t, err.Message, "boom", "a panic's text stays in the log")
	a := e.state.recent()
	require.NotEmpty(t, a)
	assert.Equal(t, "internal", a[0].Error, "the side panel shows it failed")
}

func TestACancelledCallSaysCancelled(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 1}}, func(protocol.Command) (any, *protocol.Error) {
		<-block
		return nil, nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *protocol.ToolResult)
	go func() {
		done <- e.Call(ctx, bridge.NewCall("a1", "javascript_tool", json.RawMessage(`{"code":"await new Promise(() => {})"}`), nil))
	}()
	cancel()
	wantError(t, <-done, protocol.CodeCancelled)
}

func TestAClosedCurrentTabFallsBackToAnother(t *testing.T) {
	list := []browser.Tab{{TabID: 3, Active: true}}
	e, fb := newEngine(t, protocol.Version, tabs(list, func(cmd protocol.Command) (any, *protocol.Error) {
		if tabOf(cmd) == 99 {
			return nil, protocol.Errorf(protocol.CodeTabNotFound, "no tab 99")
		}
		return browser.Page{TabID: tabOf(cmd), URL: "http://127.0.0.1/", Title: "T"}, nil
	}))
	e.agent("a1").currentTab = 99 // the user closed it since

	r := run(t, e, "navigate", `{"url":"http://127.0.0.1/"}`)
	assert.JSONEq(t, `{"tabId":3,"url":"http://127.0.0.1/","title":"T"}`, textOf(t, r))
	assert.Equal(t, []string{"tab.list", "tab.navigate"}, fb.actions(),
		"the gate picks a tab that is there before anything is sent to one")

	// An explicit tabId is never second-guessed. navigate's first step is a
	// command to the tab, which the extension's router refuses before it
	// runs; a tool that does more first has the gate look the tab up.
	wantError(t, run(t, e, "navigate", `{"url":"http://127.0.0.1/","tabId":99}`), protocol.CodeTabNotFound)
	assert.Equal(t, "tab.navigate", fb.last().Action)
	wantError(t, run(t, e, "act", `{"steps":[{"action":"click","ref":"e1"}],"tabId":99}`), protocol.CodeTabNotFound)
	assert.Equal(t, "tab.get", fb.last().Action, "nothing reached tab 99")
}

func TestWaitForTimeAloneIsAPause(t *testing.T) {
	list := []browser.Tab{{TabID: 1, Active: true}}
	e, fb := newEngine(t, protocol.Version, tabs(list, nil))
	start := time.Now()
	r := run(t, e, "wait_for", `{"timeoutMs":30}`)
	assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)
	assert.JSONEq(t, `{"waitedMs":30}`, textOf(t, r))
	assert.NotContains(t, fb.actions(), "page.wait", "nothing on the page to wait for")

	err := wantError(t, run(t, e, "wait_for", `{}`), protocol.CodeBadRequest)
	assert.Contains(t, err.Hint, "timeoutMs alone")
	wantError(t, run(t, e, "wait_for", `{"state":"hidden","timeoutMs":30}`), protocol.CodeBadRequest)
}

func TestConsoleMessagesKeepToABudget(t *testing.T) {
	long := strings.Repeat("x", 900)
	var msgs []browser.Event
	for i := range 100 {
		msgs = append(msgs, browser.Event{Seq: 10 + i, Kind: "console", Level: "log", Text: fmt.Sprintf("%d %s", i, long),
			Stack: strings.Repeat("at f (app.js:1:1)\n", 40)})
	}
	list := []browser.Tab{{TabID: 1, Active: true}}
	e, _ := newEngine(t, protocol.Version, tabs(list, func(protocol.Command) (any, *protocol.Error) {
		return browser.Messages{Messages: msgs, Next: 110}, nil
	}))
	r := run(t, e, "console_messages", `{}`)
	text := textOf(t, r)
	assert.Less(t, len(text), maxConsoleChars+2000)
	assert.Contains(t, text, "more, not shown")
	shown := strings.Count(text, "[log] ")
	require.Greater(t, shown, 0)
	assert.Contains(t, text, fmt.Sprintf("read on with since=%d", 10+shown), "the next read starts at the first not shown")
	var structured struct{ Messages []browser.Event }
	require.NoError(t, json.Unmarshal(r.StructuredContent, &structured))
	assert.Len(t, structured.Messages, shown)
}

func TestNetworkRequestsKeepToABudget(t *testing.T) {
	var reqs []browser.Request
	for i := range 100 {
		reqs = append(reqs, browser.Request{ID: 5 + i, Method: "GET", State: "done", Status: 200, Type: "Fetch",
			URL: fmt.Sprintf("https://api.example/items/%d?q=%s", i, strings.Repeat("a", 1500))})
	}
	list := []browser.Tab{{TabID: 1, Active: true}}
	e, _ := newEngine(t, protocol.Version, tabs(list, func(protocol.Command) (any, *protocol.Error) {
		return browser.Requests{Requests: reqs, Next: 105}, nil
	}))
	text := textOf(t, run(t, e, "network_requests", `{}`))
	assert.Less(t, len(text), maxConsoleChars+2000)
	shown := strings.Count(text, "\n#")
	require.Greater(t, shown, 0)
	assert.Contains(t, text, fmt.Sprintf("read on with since=%d", 5+shown))
}
