package e2e

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/manifests"
	"github.com/openchrome/openchrome/protocol"
)

// The demo account of the login site, and the canaries the person's
// browser holds: none of them may reach the agent, the disk or the logs.
const (
	demoUser       = "tomsmith"
	demoPassword   = "SuperSecretPassword!"
	canaryCookie   = "CANARY-COOKIE-7f3a91"
	canaryStorage  = "CANARY-STORAGE-c41d07"
	canaryStoreKey = "prefs" // a key name is not a secret; its value is
)

// loginSite is a login behind a server-side session, as a real site has:
// POST /session with the right credentials sets a session cookie and
// redirects to /secure; the username never appears in a URL or a page.
func loginSite(t testing.TB) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	sessions := map[string]bool{}
	page := func(w http.ResponseWriter, title, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body><main>%s</main></body></html>`, title, body)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", func(w http.ResponseWriter, r *http.Request) {
		flash := ""
		if r.URL.Query().Has("failed") {
			flash = `<div id="flash" role="alert">Your username or password is invalid!</div>`
		}
		page(w, "Login Page", `<h2>Login Page</h2>`+flash+`
<form method="post" action="/session">
<label for="username">Username</label> <input id="username" name="username" autocomplete="off">
<label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="off">
<button id="login" type="submit">Login</button>
</form>`)
	})
	mux.HandleFunc("POST /session", func(w http.ResponseWriter, r *http.Request) {
		if r.PostFormValue("username") != demoUser || r.PostFormValue("password") != demoPassword {
			http.Redirect(w, r, "/login?failed", http.StatusSeeOther)
			return
		}
		id := rand.Text()
		mu.Lock()
		sessions[id] = true
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "session", Value: id, Path: "/", HttpOnly: true})
		http.Redirect(w, r, "/secure", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /secure", func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("session")
		mu.Lock()
		ok := err == nil && sessions[c.Value]
		mu.Unlock()
		if !ok {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		page(w, "Secure Area", `<h2>Secure Area</h2><div id="flash" role="alert">You logged into a secure area!</div><a href="/login">Logout</a>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// recorder keeps the text of every MCP response of a test, to search it for
// secrets at the end.
type recorder struct {
	t   testing.TB
	cs  *mcp.ClientSession
	mu  sync.Mutex
	out []string
}

func (r *recorder) call(tool string, args map[string]any) *mcp.CallToolResult {
	r.t.Helper()
	res := call(r.t, r.cs, tool, args)
	b, _ := json.Marshal(res)
	r.mu.Lock()
	r.out = append(r.out, string(b))
	r.mu.Unlock()
	return res
}

func (r *recorder) ok(tool string, args map[string]any, out any) {
	r.t.Helper()
	res := r.call(tool, args)
	require.False(r.t, res.IsError, "%s: %s", tool, textOf(res))
	if out != nil {
		require.NoError(r.t, json.Unmarshal([]byte(textOf(res)), out), textOf(res))
	}
}

type handoff struct {
	HandoffID       string `json:"handoff_id"`
	Status          string `json:"status"`
	Reason          string `json:"reason"`
	TabID           int    `json:"tab_id"`
	InstructionLine string `json:"instruction_line"`
	Deadline        string `json:"deadline"`
	EndedBy         string `json:"ended_by"`
	Before          struct {
		URL              string   `json:"url"`
		CookieCount      int      `json:"cookie_count"`
		LocalStorageKeys []string `json:"local_storage_keys"`
		DOMFingerprint   string   `json:"dom_fingerprint"`
		ScreenshotRef    string   `json:"screenshot_ref"`
	} `json:"before"`
	After *struct {
		URL           string `json:"url"`
		Title         string `json:"title"`
		CookieCount   int    `json:"cookie_count"`
		ScreenshotRef string `json:"screenshot_ref"`
	} `json:"after"`
	Delta *struct {
		URL            bool `json:"url_changed"`
		Title          bool `json:"title_changed"`
		Origin         bool `json:"origin_changed"`
		CookieCount    bool `json:"cookie_count_changed"`
		StorageKeys    bool `json:"storage_keys_changed"`
		DOMFingerprint bool `json:"dom_fingerprint_changed"`
	} `json:"delta"`
	DeltaSummary string `json:"delta_summary"`
	ResumeHint   string `json:"resume_hint"`
	RunEvidence  string `json:"run_evidence"`
	Error        *struct {
		Code string `json:"code"`
	} `json:"error"`
}

// panelURL is the side panel's page, opened in a tab as a test can (a real
// side panel opens only on a user gesture).
var panelURL = manifests.Origin() + "sidepanel/panel.html"

// TestAHandoffKeepsEverySecret is the login handoff of issue 5: the agent
// hands the tab over, the person logs in and presses Finish in the side
// panel, and the agent resumes from a delta that proves the login without
// holding any of it.
func TestAHandoffKeepsEverySecret(t *testing.T) {
	e := newEnv(t, "OPENCHROME_LOG=debug")
	site := loginSite(t)
	rec := &recorder{t: t, cs: e.client("e2e")}

	var tab struct {
		TabID int `json:"tabId"`
	}
	rec.ok("navigate", map[string]any{"url": site.URL + "/login"}, &tab)
	me := e.personOn(site.URL + "/login")
	require.NoError(t, me.eval(`document.cookie = "tracking=`+canaryCookie+`; path=/"; localStorage.setItem("`+canaryStoreKey+`", "`+canaryStorage+`")`, nil))

	var h handoff
	rec.ok("oc_handoff_start", map[string]any{"reason": "login", "instruction": "Log in with the demo account", "capture_screenshot": true}, &h)
	assert.Equal(t, "RUNNING", h.Status)
	assert.Equal(t, tab.TabID, h.TabID)
	assert.Contains(t, h.InstructionLine, "Handoff (login)")
	deadline, err := time.Parse(time.RFC3339, h.Deadline)
	require.NoError(t, err)
	assert.Contains(t, h.InstructionLine, deadline.Format(time.RFC3339))
	assert.Equal(t, 1, h.Before.CookieCount)
	assert.Equal(t, []string{canaryStoreKey}, h.Before.LocalStorageKeys)
	assert.Regexp(t, `^fnv1a64:[0-9a-f]{16}$`, h.Before.DOMFingerprint)
	assert.FileExists(t, h.Before.ScreenshotRef)

	// The person sees the banner; the page cannot look inside it.
	me.waitFor(`document.querySelector("openchrome-banner")`)
	assert.False(t, me.sees(`document.querySelector("openchrome-banner").shadowRoot`), "the banner's shadow root is closed")
	var badge string
	require.NoError(t, e.devtools().evalExtension(`chrome.action.getBadgeText({})`, &badge))
	assert.Equal(t, "1", badge)
	// The agent may neither read nor act on the page the person has.
	res := rec.call("read_page", map[string]any{})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "conflict")
	res = rec.call("interact", map[string]any{"query": "Login", "action": "click"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "conflict")

	// The person logs in with trusted input.
	me.click("#username")
	me.typeText(demoUser)
	me.click("#password")
	me.typeText(demoPassword)
	me.click("#login")
	me = e.personOn(site.URL + "/secure")
	me.waitFor(`document.querySelector("openchrome-banner")`) // it follows the page

	// They press Finish in the side panel, while the agent waits.
	waited := make(chan handoff, 1)
	go func() {
		var w handoff
		rec.ok("oc_handoff_status", map[string]any{"handoff_id": h.HandoffID, "wait_ms": 30000}, &w)
		waited <- w
	}()
	panel := e.personOpens(panelURL)
	finish := fmt.Sprintf(`[data-handoff-id=%q] [data-action="finish"]`, h.HandoffID)
	panel.waitFor(`document.querySelector('` + finish + `')`)
	panel.click(finish)

	var done handoff
	select {
	case done = <-waited:
	case <-time.After(30 * time.Second):
		t.Fatal("oc_handoff_status did not return after Finish")
	}
	assert.Equal(t, "FINISHED", done.Status)
	assert.Equal(t, "person", done.EndedBy)
	require.NotNil(t, done.Delta)
	assert.True(t, done.Delta.URL, "url changed")
	assert.True(t, done.Delta.Title, "title changed")
	assert.True(t, done.Delta.DOMFingerprint, "DOM fingerprint changed")
	assert.True(t, done.Delta.CookieCount, "the session cookie came")
	assert.False(t, done.Delta.Origin)
	assert.False(t, done.Delta.StorageKeys)
	assert.Equal(t, "Secure Area", done.After.Title)
	assert.Contains(t, done.DeltaSummary, "url changed; title changed; origin unchanged; cookie count changed (1 -> 2)")
	assert.Contains(t, done.ResumeHint, "do not log in again")
	assert.FileExists(t, done.After.ScreenshotRef)

	// The banner is gone; the agent resumes where the person left off.
	me.waitFor(`!document.querySelector("openchrome-banner")`)
	var page string
	res = rec.call("read_page", map[string]any{})
	page = textOf(res)
	assert.Contains(t, page, "Secure Area")
	assert.Contains(t, page, "You logged into a secure area!")
	rec.call("oc_handoff_finish", map[string]any{"handoff_id": h.HandoffID}) // refused: it has ended

	// After a daemon restart the record is still there, finished.
	old, err := bridge.ReadDiscovery(e.home.BridgeFile())
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(old.PID, syscall.SIGKILL))
	e.waitDaemon(old.PID)
	var again handoff
	rec.ok("oc_handoff_status", map[string]any{"handoff_id": h.HandoffID}, &again)
	assert.Equal(t, "FINISHED", again.Status)
	assert.Equal(t, done.DeltaSummary, again.DeltaSummary)

	// Nothing secret anywhere: not in any response, not in the home (the
	// ledger, the logs, anything), whatever the person typed or the
	// browser holds.
	secrets := []string{demoPassword, demoUser, canaryCookie, canaryStorage}
	rec.mu.Lock()
	for _, o := range rec.out {
		for _, s := range secrets {
			assert.NotContains(t, o, s)
		}
	}
	rec.mu.Unlock()
	secretsOnDisk(t, string(e.home), secrets...)
	log, err := os.ReadFile(e.home.LogFile())
	require.NoError(t, err)
	assert.Contains(t, string(log), "oc_handoff_start", "the log was written (and searched)")
}

// TestAHandoffTimesOutEvenAcrossARestart lets a handoff run out: first
// while the daemon watches, then one whose daemon died before its deadline.
func TestAHandoffTimesOutEvenAcrossARestart(t *testing.T) {
	e := newEnv(t)
	site := loginSite(t)
	cs := e.client("e2e")
	ok(t, cs, "navigate", map[string]any{"url": site.URL + "/login"})

	var h handoff
	okJSON(t, cs, "oc_handoff_start", map[string]any{"reason": "captcha", "timeout_ms": 1500}, &h)
	start := time.Now()
	okJSON(t, cs, "oc_handoff_status", map[string]any{"handoff_id": h.HandoffID, "wait_ms": 20000}, &h)
	assert.Equal(t, "TIMED_OUT", h.Status)
	assert.Less(t, time.Since(start), 5*time.Second, "the wait ends at the deadline")
	require.NotNil(t, h.Error)
	assert.Equal(t, "timeout", h.Error.Code)
	err := fails(t, cs, "oc_handoff_finish", map[string]any{"handoff_id": h.HandoffID}, protocol.CodeConflict)
	assert.Contains(t, err.Message, "timed out")
	me := e.personOn(site.URL + "/login")
	me.waitFor(`!document.querySelector("openchrome-banner")`)

	// The next daemon adopts a running handoff and still times it out.
	okJSON(t, cs, "oc_handoff_start", map[string]any{"reason": "2fa", "timeout_ms": 4000}, &h)
	old, err2 := bridge.ReadDiscovery(e.home.BridgeFile())
	require.NoError(t, err2)
	require.NoError(t, syscall.Kill(old.PID, syscall.SIGKILL))
	e.waitDaemon(old.PID)
	var now handoff
	okJSON(t, cs, "oc_handoff_status", map[string]any{"handoff_id": h.HandoffID, "wait_ms": 20000}, &now)
	assert.Equal(t, "TIMED_OUT", now.Status)
	fails(t, cs, "oc_handoff_finish", map[string]any{"handoff_id": h.HandoffID}, protocol.CodeConflict)
}

// TestTheSidePanel checks the person's other controls: cancelling a
// handoff and a task, the activity without arguments, and Stop.
func TestTheSidePanel(t *testing.T) {
	e := newEnv(t)
	site := loginSite(t)
	slow := crawlSite(t, 500*time.Millisecond)
	cs := e.client("e2e")
	ok(t, cs, "navigate", map[string]any{"url": site.URL + "/login"})
	ok(t, cs, "javascript_tool", map[string]any{"code": `"secret-looking-argument-9d8c"`})

	panel := e.personOpens(panelURL)
	panel.waitFor(`document.body.textContent.includes("javascript_tool")`)
	assert.False(t, panel.sees(`document.body.textContent.includes("secret-looking-argument")`), "the activity shows no arguments")
	panel.waitFor(`document.body.textContent.includes("Connected")`)

	// Cancel a handoff from the panel.
	var h handoff
	okJSON(t, cs, "oc_handoff_start", map[string]any{"reason": "permission"}, &h)
	cancel := fmt.Sprintf(`[data-handoff-id=%q] [data-action="cancel"]`, h.HandoffID)
	panel.waitFor(`document.querySelector('` + cancel + `')`)
	panel.click(cancel)
	okJSON(t, cs, "oc_handoff_status", map[string]any{"handoff_id": h.HandoffID, "wait_ms": 10000}, &h)
	assert.Equal(t, "CANCELLED", h.Status)
	assert.Equal(t, "person", h.EndedBy)
	assert.Empty(t, h.DeltaSummary, "a cancelled handoff has no checkpoint")

	// Finish one from its banner: the page cannot press it, the person can.
	okJSON(t, cs, "oc_handoff_start", map[string]any{"reason": "other"}, &h)
	me := e.personOn(site.URL + "/login")
	me.waitFor(`document.querySelector("openchrome-banner")`)
	require.NoError(t, me.eval(`document.querySelector("openchrome-banner").click()`, nil))
	assert.Never(t, func() bool {
		var now handoff
		okJSON(t, cs, "oc_handoff_status", map[string]any{"handoff_id": h.HandoffID}, &now)
		return now.Status != "RUNNING"
	}, 300*time.Millisecond, 50*time.Millisecond, "a script's click does nothing")
	me.clickButton("Finish")
	okJSON(t, cs, "oc_handoff_status", map[string]any{"handoff_id": h.HandoffID, "wait_ms": 10000}, &h)
	assert.Equal(t, "FINISHED", h.Status)
	assert.Equal(t, "person", h.EndedBy)

	// Cancel a task from the panel.
	id := startTask(t, cs, "crawl", map[string]any{"url": slow.URL + "/p/0", "maxPages": 30, "maxDepth": 10, "concurrency": 1})
	cancelTask := fmt.Sprintf(`[data-task-id=%q] [data-action="cancel-task"]`, id)
	panel.waitFor(`document.querySelector('` + cancelTask + `')`)
	panel.click(cancelTask)
	var m task
	okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 10000}, &m)
	assert.Equal(t, "CANCELLED", m.Status)

	// Stop: a call in flight, a task and a handoff all end; the debugger
	// lets go of the tabs.
	id = startTask(t, cs, "crawl", map[string]any{"url": slow.URL + "/p/0", "maxPages": 30, "maxDepth": 10, "concurrency": 1})
	okJSON(t, cs, "oc_handoff_start", map[string]any{"reason": "other"}, &h)
	other := e.client("e2e-2")
	errc := hangInPage(t, context.Background(), other, openTab(t, other, site.URL+"/login"))
	panel.click("#stop")
	select {
	case r := <-errc:
		require.NotNil(t, r)
		assert.True(t, r.IsError)
		assert.Contains(t, textOf(r), "the person pressed Stop")
	case <-time.After(10 * time.Second):
		t.Fatal("Stop did not end the call in flight")
	}
	// The extension ends its own commands first and tells the daemon after:
	// a call made before the daemon has heard is one in flight, stopped too.
	// The handoff is ended after the calls, so once it is, a call is new;
	// a look made before may be stopped itself.
	require.Eventually(t, func() bool {
		r := call(t, cs, "oc_handoff_status", map[string]any{"handoff_id": h.HandoffID})
		return !r.IsError && json.Unmarshal([]byte(textOf(r)), &h) == nil && h.Status == "CANCELLED"
	}, 10*time.Second, 50*time.Millisecond)
	assert.Equal(t, "stop", h.EndedBy)
	okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 10000}, &m)
	assert.Equal(t, "CANCELLED", m.Status)
	// The crawl knew it was stopped before the page it was reading did: it
	// keeps no page whose error is the Stop.
	assert.NotContains(t, string(getTask(t, cs, id, true).Result), "pressed Stop")
	var health struct {
		Browsers []struct {
			AttachedTabs int `json:"attachedTabs"`
		} `json:"browsers"`
	}
	// The crawl's last page may still be closing when its task is marked
	// cancelled: the debugger lets go as it closes.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		okJSON(t, cs, "oc_connection_health", map[string]any{}, &health)
		if health.Browsers[0].AttachedTabs == 0 || time.Now().After(deadline) {
			break
		}
	}
	if !assert.Zero(t, health.Browsers[0].AttachedTabs, "the debugger let go") {
		pages, err := e.pages()
		t.Logf("the browser's pages (%v): %+v", err, pages)
	}

	// The agent can go on afterwards.
	ok(t, cs, "tabs_context", map[string]any{})
}

// TestAFinishedHandoffPointsItsRunAtIt links a handoff to a running task:
// the person finishes it in the side panel with no agent connected, and the
// task gains exactly one evidence pointer.
func TestAFinishedHandoffPointsItsRunAtIt(t *testing.T) {
	e := newEnv(t)
	site := loginSite(t)
	slow := crawlSite(t, 500*time.Millisecond)
	cs := e.client("e2e")
	ok(t, cs, "navigate", map[string]any{"url": site.URL + "/login"})
	run := startTask(t, cs, "crawl", map[string]any{"url": slow.URL + "/p/0", "maxPages": 30, "maxDepth": 10, "concurrency": 1})

	var h handoff
	okJSON(t, cs, "oc_handoff_start", map[string]any{"reason": "manual_recovery", "run_id": run}, &h)
	require.NoError(t, cs.Close()) // the agent goes away
	panel := e.personOpens(panelURL)
	finish := fmt.Sprintf(`[data-handoff-id=%q] [data-action="finish"]`, h.HandoffID)
	panel.waitFor(`document.querySelector('` + finish + `')`)
	panel.click(finish)

	cs = e.client("e2e-again")
	okJSON(t, cs, "oc_handoff_status", map[string]any{"handoff_id": h.HandoffID, "wait_ms": 10000}, &h)
	assert.Equal(t, "FINISHED", h.Status)
	assert.Equal(t, "person", h.EndedBy)
	assert.Equal(t, "attached", h.RunEvidence)
	assert.Contains(t, h.ResumeHint, "Nothing on tab", "the page did not change")
	fails(t, cs, "oc_handoff_finish", map[string]any{"handoff_id": h.HandoffID}, protocol.CodeConflict)

	var m struct {
		Evidence []struct {
			Kind string `json:"kind"`
			Ref  string `json:"ref"`
		} `json:"evidence"`
	}
	okJSON(t, cs, "oc_task_get", map[string]any{"task_id": run}, &m)
	require.Len(t, m.Evidence, 1, "exactly one pointer")
	assert.Equal(t, "handoff", m.Evidence[0].Kind)
	assert.Equal(t, h.HandoffID, m.Evidence[0].Ref)
	events, err := os.ReadFile(filepath.Join(e.home.Tasks(), run, "events.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(events), `"kind":"evidence"`))
	ok(t, cs, "oc_task_cancel", map[string]any{"task_id": run})
}
