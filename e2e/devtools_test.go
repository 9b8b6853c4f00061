package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

type consoleOut struct {
	Messages []struct {
		Kind  string `json:"kind"`
		Level string `json:"level"`
		Text  string `json:"text"`
		Stack string `json:"stack"`
		Seq   int    `json:"seq"`
	} `json:"messages"`
	Next int `json:"next"`
}

func readConsole(t *testing.T, r string) consoleOut {
	t.Helper()
	var out consoleOut
	require.NoError(t, json.Unmarshal([]byte(r), &out), r)
	return out
}

func TestConsoleMessages(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/devtools.html")
	ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.NotContains(t, ok(t, cs, "console_messages", map[string]any{"tabId": tab}), "chrome-extension://",
		"what our page script made the page log is not the page's")

	structured := func(tool string, args map[string]any) string {
		r := call(t, cs, tool, args)
		require.False(t, r.IsError, textOf(r))
		b, err := json.Marshal(r.StructuredContent)
		require.NoError(t, err)
		return string(b)
	}
	all := readConsole(t, structured("console_messages", map[string]any{"tabId": tab, "pattern": "load*"}))
	texts := map[string]string{}
	for _, m := range all.Messages {
		texts[m.Text] = m.Level
		if m.Kind == "exception" {
			assert.Contains(t, m.Stack, "loadTime", "an exception has its stack")
		}
	}
	assert.Equal(t, map[string]string{
		"load debug": "debug", "load log 42": "log", "load info": "info", "load warning": "warning", "load error": "error",
		"Error: load-time boom": "error",
	}, texts, "every level, from the page's load, and the uncaught exception")

	loud := readConsole(t, structured("console_messages", map[string]any{"tabId": tab, "level": "warning", "pattern": "load"}))
	assert.Len(t, loud.Messages, 3, "warning, error and the exception")
	boom := readConsole(t, structured("console_messages", map[string]any{"tabId": tab, "pattern": "*-time*"}))
	require.Len(t, boom.Messages, 1)

	// Reading on from the cursor gives only what is new.
	ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `console.log("after the first read")`})
	more := readConsole(t, structured("console_messages", map[string]any{"tabId": tab, "since": all.Next, "level": "log"}))
	var newer []string
	for _, m := range more.Messages {
		assert.Greater(t, m.Seq, all.Messages[len(all.Messages)-1].Seq, "nothing read before comes again")
		newer = append(newer, m.Text)
	}
	assert.Contains(t, newer, "after the first read")
	text := ok(t, cs, "console_messages", map[string]any{"tabId": tab, "level": "error"})
	assert.Contains(t, text, "[exception] Error: load-time boom")
	assert.Contains(t, text, "read on with since=")

	fails(t, cs, "console_messages", map[string]any{"tabId": tab, "level": "loud"}, protocol.CodeBadRequest)
}

// TestACrossSiteFramesConsoleAndRequestsAreThePages: a frame from another
// site runs in its own process, which the tab's debugger session does not
// hear; what it logs and fetches as the page loads is the page's all the
// same, body included.
func TestACrossSiteFramesConsoleAndRequestsAreThePages(t *testing.T) {
	e := sharedEnv(t)
	var srv *httptest.Server
	srv = siteWith(t, map[string]http.HandlerFunc{
		"/shop.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Shop</title><h1>Shop</h1><iframe src="`+siteOnLocalhost(srv, "/pay.html")+`"></iframe>`)
		},
		"/pay.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><p>Pay</p><script>console.error("card form failed to start");
fetch("/api/pay-config").then((r) => r.json()).then((c) => document.body.append("pay mode " + c.mode));</script>`)
		},
		"/api/pay-config": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"mode":"sandbox"}`)
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/shop.html")
	// The frame says when its fetch came back.
	ok(t, cs, "wait_for", map[string]any{"tabId": tab, "text": "pay mode sandbox"})

	logged := ok(t, cs, "console_messages", map[string]any{"tabId": tab, "pattern": "card form*"})
	assert.Contains(t, logged, "card form failed to start", "the frame's console is the page's")
	var list struct {
		Requests []struct {
			ID  int    `json:"id"`
			URL string `json:"url"`
		} `json:"requests"`
	}
	r := call(t, cs, "network_requests", map[string]any{"tabId": tab, "filter": map[string]any{"url": "pay-config"}})
	require.False(t, r.IsError, textOf(r))
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &list), "%s", b)
	require.Len(t, list.Requests, 1, "%s", b)
	assert.Contains(t, ok(t, cs, "network_request", map[string]any{"tabId": tab, "id": list.Requests[0].ID}), `{\"mode\":\"sandbox\"}`,
		"its body, from the frame's own session")
}

func TestNetworkRequests(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/devtools.html")
	ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": fmt.Sprintf("await go(%q)", closedPort(t)+"/refused")})

	type request struct {
		ID     int    `json:"id"`
		Method string `json:"method"`
		URL    string `json:"url"`
		Type   string `json:"type"`
		State  string `json:"state"`
		Status int    `json:"status"`
		Error  string `json:"error"`
		Size   int    `json:"size"`
	}
	list := func(filter map[string]any) []request {
		r := call(t, cs, "network_requests", map[string]any{"tabId": tab, "filter": filter})
		require.False(t, r.IsError, textOf(r))
		var out struct {
			Requests []request `json:"requests"`
		}
		b, _ := json.Marshal(r.StructuredContent)
		require.NoError(t, json.Unmarshal(b, &out))
		return out.Requests
	}
	page := list(map[string]any{"url": "/devtools.html"})
	require.NotEmpty(t, page, "the page's own load is there: the tab was watched before it loaded")
	assert.Equal(t, 200, page[0].Status)
	assert.Equal(t, "Document", page[0].Type)

	missing := list(map[string]any{"url": "missing.json"})
	require.Len(t, missing, 1)
	assert.Equal(t, 404, missing[0].Status)
	refused := list(map[string]any{"failed": true})
	require.Len(t, refused, 1)
	assert.Contains(t, refused[0].URL, "/refused")
	assert.Contains(t, refused[0].Error, "ERR_CONNECTION_REFUSED")
	xhr := list(map[string]any{"type": "XHR"})
	require.Len(t, xhr, 1)
	assert.Contains(t, xhr[0].URL, "from=xhr")
	// The page's await ends with the headers; the body may still be coming.
	var fetched []request
	require.Eventually(t, func() bool {
		fetched = list(map[string]any{"url": "from=fetch", "status": 200, "method": "GET"})
		return len(fetched) == 1 && fetched[0].State == "done"
	}, 10*time.Second, 50*time.Millisecond, "the fetch finishes")
	assert.Positive(t, fetched[0].Size)

	var detail struct {
		Status          int               `json:"status"`
		ResponseHeaders map[string]string `json:"responseHeaders"`
		Body            struct {
			Text string `json:"text"`
		} `json:"body"`
	}
	okJSON(t, cs, "network_request", map[string]any{"tabId": tab, "id": fetched[0].ID}, &detail)
	assert.Equal(t, 200, detail.Status)
	assert.Contains(t, detail.ResponseHeaders["Content-Type"]+detail.ResponseHeaders["content-type"], "text/html")
	assert.Contains(t, detail.Body.Text, "Login Page", "a text body comes back")
	fails(t, cs, "network_request", map[string]any{"tabId": tab, "id": 99999}, protocol.CodeNotFound)

	// A long answer is read in parts, each within what a client takes.
	whole := itemsJSON(3000)
	require.Equal(t, strconv.Itoa(len(whole)), ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
		"code": `fetch("/api/items?n=3000").then((r) => r.text()).then((t) => t.length)`}))
	var long []request
	require.Eventually(t, func() bool {
		long = list(map[string]any{"url": "/api/items"})
		return len(long) == 1 && long[0].State == "done"
	}, 10*time.Second, 50*time.Millisecond)
	var read strings.Builder
	for offset := 0; ; {
		var part struct {
			Body struct {
				Text      string `json:"text"`
				Truncated int    `json:"truncated"`
				Next      int    `json:"next"`
			} `json:"body"`
		}
		okJSON(t, cs, "network_request", map[string]any{"tabId": tab, "id": long[0].ID, "offset": offset}, &part)
		assert.LessOrEqual(t, len(part.Body.Text), 30000)
		assert.Equal(t, len(whole), part.Body.Truncated)
		read.WriteString(part.Body.Text)
		if part.Body.Next == 0 {
			break
		}
		offset = part.Body.Next
	}
	assert.Equal(t, whole, read.String())
	fails(t, cs, "network_request", map[string]any{"tabId": tab, "id": long[0].ID, "offset": len(whole) + 5}, protocol.CodeBadRequest)
	assert.Contains(t, ok(t, cs, "network_requests", map[string]any{"tabId": tab}), "failed(net::ERR_CONNECTION_REFUSED)")
}

// closedPort returns the address of a loopback port nothing listens on: a
// request there is refused at once.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return "http://" + addr
}

func TestScreenshotsOfAnElementAndARectangle(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/boxes.html")
	card := refOf(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `region "Card"`)

	assert.Equal(t, [2]int{240, 120}, screenshotSize(t, cs, map[string]any{"tabId": tab, "ref": card}),
		"the element below the fold, scrolled into view, its box only")
	assert.Equal(t, [2]int{100, 50}, screenshotSize(t, cs, map[string]any{"tabId": tab, "clip": map[string]any{"x": 10, "y": 20, "width": 100, "height": 50}}))
	fails(t, cs, "page_screenshot", map[string]any{"tabId": tab, "ref": card, "fullPage": true}, protocol.CodeBadRequest)
	fails(t, cs, "page_screenshot", map[string]any{"tabId": tab, "clip": map[string]any{"x": 0, "y": 0, "width": 0, "height": 5}}, protocol.CodeBadRequest)
}

// screenshotSize takes page_screenshot with args and says the picture's
// width and height.
func screenshotSize(t *testing.T, cs *mcp.ClientSession, args map[string]any) [2]int {
	t.Helper()
	r := call(t, cs, "page_screenshot", args)
	require.False(t, r.IsError, textOf(r))
	img, isImage := r.Content[0].(*mcp.ImageContent)
	require.True(t, isImage)
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	require.NoError(t, err)
	return [2]int{cfg.Width, cfg.Height}
}

// TestAScreenshotIsInTheCSSPixelsComputerTakes shoots a tab on a screen of
// two device pixels to a CSS pixel, as a Mac's is: the picture is in CSS
// pixels, so a point read off it is the point computer clicks.
func TestAScreenshotIsInTheCSSPixelsComputerTakes(t *testing.T) {
	e := newEnvFlags(t, []string{"--force-device-scale-factor=2"})
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/keys.html")
	require.Equal(t, "2", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "devicePixelRatio"}))
	// The first screenshot attaches the debugger, whose infobar ("started
	// debugging this browser") takes its height from the viewport a moment
	// later: the page and the picture agree once it has.
	var view, shot [2]int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		shot = screenshotSize(t, cs, map[string]any{"tabId": tab})
		okJSON(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "[document.documentElement.clientWidth, document.documentElement.clientHeight]"}, &view)
		if view == shot || time.Now().After(deadline) {
			break
		}
	}
	assert.Equal(t, view, shot, "the viewport, in CSS pixels, as computer takes them")
	keys := refOf(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `textbox "Keys"`)
	var box [2]int
	okJSON(t, cs, "javascript_tool", map[string]any{"tabId": tab,
		"code": `(() => { const r = document.querySelector("#keys").getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)] })()`}, &box)
	assert.Equal(t, box, screenshotSize(t, cs, map[string]any{"tabId": tab, "ref": keys}), "an element, in CSS pixels")
	assert.Equal(t, [2]int{100, 50}, screenshotSize(t, cs, map[string]any{"tabId": tab, "clip": map[string]any{"x": 0, "y": 0, "width": 100, "height": 50}}))
}

// TestALongPagesPictureFitsAnImageAModelReads shoots pages longer than the
// 8000 px Claude's API takes either way: shrunk to fit and said so, or,
// when that would leave the text unreadable, refused with what to take.
func TestALongPagesPictureFitsAnImageAModelReads(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/list.html")
	height := ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.documentElement.scrollHeight"})
	long, err := strconv.Atoi(height)
	require.NoError(t, err, height)
	require.Greater(t, long, 8000, "the fixture is longer than an image may be")

	r := call(t, cs, "page_screenshot", map[string]any{"tabId": tab, "fullPage": true})
	require.False(t, r.IsError, textOf(r))
	img, isImage := r.Content[0].(*mcp.ImageContent)
	require.True(t, isImage)
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	require.NoError(t, err)
	assert.LessOrEqual(t, cfg.Height, 8000)
	assert.Greater(t, cfg.Height, 7900, "shrunk no further than it must")
	assert.Contains(t, textOf(r), "shrunk to 0.")

	ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.body.style.height = "40000px"`})
	err2 := fails(t, cs, "page_screenshot", map[string]any{"tabId": tab, "fullPage": true}, protocol.CodeTooLarge)
	assert.Contains(t, err2.Message, "too small to read")
	assert.Contains(t, err2.Hint, "ref of a smaller element")
}

func TestPagePDFIsAFileWithALink(t *testing.T) {
	e := newEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/boxes.html")
	r := call(t, cs, "page_pdf", map[string]any{"tabId": tab})
	require.False(t, r.IsError, textOf(r))
	var out struct {
		Path  string `json:"path"`
		Pages int    `json:"pages"`
		Bytes int64  `json:"bytes"`
		State string `json:"state"`
	}
	b, _ := json.Marshal(r.StructuredContent)
	require.NoError(t, json.Unmarshal(b, &out))
	pdf, err := os.ReadFile(out.Path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(pdf), "%PDF-"))
	assert.GreaterOrEqual(t, out.Pages, 2, "over 3,000 px of page print on more than one sheet")
	assert.Equal(t, "verified", out.State)
	assert.Equal(t, int64(len(pdf)), out.Bytes)
	assert.True(t, strings.HasPrefix(out.Path, filepath.Join(string(e.home), "artifacts")), out.Path)
	link := resourceLink(t, r)
	assert.Equal(t, "file://"+out.Path, link.URI)
	assert.Equal(t, "application/pdf", link.MIMEType)
}

// resourceLink is the one resource_link a result carries.
func resourceLink(t *testing.T, r *mcp.CallToolResult) *mcp.ResourceLink {
	t.Helper()
	for _, c := range r.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			return l
		}
	}
	t.Fatalf("no resource_link in %s", textOf(r))
	return nil
}

func TestAScreenshotOfAHiddenTab(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	hidden := openTab(t, cs, site.URL+"/form.html")
	other := openTab(t, cs, site.URL+"/index.html")
	require.Equal(t, map[int]bool{hidden: false, other: true}, activeOf(t, cs, hidden, other))

	// The window shows another of the agent's tabs: this one is shown, as
	// before input, and shot.
	r := call(t, cs, "page_screenshot", map[string]any{"tabId": hidden})
	require.False(t, r.IsError, textOf(r))
	assert.Equal(t, map[int]bool{hidden: true, other: false}, activeOf(t, cs, hidden, other))

	// The person's own tab is shown: it stays shown, and the screenshot
	// either finds a frame Chrome still has or says the tab is hidden; it
	// never waits for a frame Chrome will not draw.
	e.personOpens(site.URL + "/index.html?who=person")
	require.Equal(t, map[int]bool{hidden: false, other: false}, activeOf(t, cs, hidden, other))
	for range 3 {
		r = call(t, cs, "page_screenshot", map[string]any{"tabId": hidden})
		if r.IsError {
			err := errorOf(t, r)
			assert.Equal(t, protocol.CodeConflict, err.Code, err.Message)
			assert.Contains(t, err.Message, "hidden")
			assert.Contains(t, err.Hint, "read_page")
			break
		}
	}
	assert.Equal(t, map[int]bool{hidden: false, other: false}, activeOf(t, cs, hidden, other), "the person's tab stays shown")

	// A recording of the hidden tab skips the frames Chrome does not draw
	// and ends when its time is up.
	id := startTask(t, cs, "recording", map[string]any{"tabId": hidden, "durationMs": 3000, "intervalMs": 500})
	var m task
	okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 20000}, &m)
	assert.Equal(t, "COMPLETED", m.Status)
	var res struct {
		Frames  int    `json:"frames"`
		Skipped int    `json:"skipped"`
		Stopped string `json:"stopped"`
	}
	require.NoError(t, json.Unmarshal(getTask(t, cs, id, true).Result, &res))
	assert.Equal(t, "duration", res.Stopped)
	assert.Positive(t, res.Frames+res.Skipped)
	assert.Equal(t, map[int]bool{hidden: false, other: false}, activeOf(t, cs, hidden, other), "a recording never changes the tab shown")
}
