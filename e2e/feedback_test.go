package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plansPage is the page the person marks up: three plans whose buttons say
// in #picked which was pressed (so that interact on a returned ref shows
// which element it acted on), and a note. With ?csp, the page forbids every
// script but its own, which does not keep the extension out.
const plansPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plans</title>
<style>
  body { margin: 0; font: 16px sans-serif; }
  .plans { display: flex; gap: 40px; padding: 200px 40px 40px; }
  .plan { border: 1px solid #888; padding: 20px; width: 200px; }
  button { font-size: 18px; padding: 10px 20px; }
</style></head><body>
<h1>Choose a plan</h1>
<div class="plans">
  <section class="plan" id="basic"><h2>Basic</h2><p>Free</p><button id="buy-basic">Buy Basic</button></section>
  <section class="plan" id="pro"><h2>Pro</h2><p>10 EUR</p><button id="buy-pro">Buy Pro</button></section>
  <section class="plan" id="team"><h2>Team</h2><p>30 EUR</p><button id="buy-team">Buy Team</button></section>
</div>
<p id="picked">none</p>
<script>
  for (const b of document.querySelectorAll('button')) b.addEventListener('click', () => {
    document.getElementById('picked').textContent = b.id;
  });
</script></body></html>`

func plansSite(t testing.TB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Query().Has("csp") {
			w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'")
		}
		fmt.Fprint(w, plansPage)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// interactiveClient starts `openchrome mcp` with the opt-in interactive
// group, as a client configured for it would. version, if set, is the MCP
// version the client speaks.
func (e *env) interactiveClient(name string, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	e.t.Helper()
	cs, _ := e.interactiveProcess(name, opts, version)
	return cs
}

// interactiveProcess is interactiveClient, with the `openchrome mcp`
// process, for a test that ends it as a client's exit would.
func (e *env) interactiveProcess(name string, opts *mcp.ClientOptions, version string) (*mcp.ClientSession, *exec.Cmd) {
	e.t.Helper()
	cmd := exec.Command(suite.binary, "mcp", "--tools", "core,handoff,interactive")
	cmd.Env = e.environ()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(e.t, err)
	e.t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// answer is browser_request_feedback's result.
type answer struct {
	Responded   bool `json:"responded"`
	TimedOut    bool `json:"timedOut"`
	Dismissed   bool `json:"dismissed"`
	Via         string
	Annotations []struct {
		Kind     string          `json:"kind"`
		Value    json.RawMessage `json:"value"`
		Label    string          `json:"label"`
		X        *float64        `json:"x"`
		Y        *float64        `json:"y"`
		Ref      string          `json:"ref"`
		Role     string          `json:"role"`
		Name     string          `json:"name"`
		Selector string          `json:"selector"`
		Text     string          `json:"text"`
		Rect     *struct{ X, Y, Width, Height float64 }
		Refs     []string `json:"refs"`
	} `json:"annotations"`
}

// ask starts browser_request_feedback and returns the channel its result
// comes on, once the question shows (the overlay is in the page, or, with
// shown nil, at once).
func ask(t testing.TB, ctx context.Context, cs *mcp.ClientSession, args map[string]any, shown func()) <-chan *mcp.CallToolResult {
	t.Helper()
	out := make(chan *mcp.CallToolResult, 1)
	go func() {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_request_feedback", Arguments: args})
		if err != nil {
			r = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		out <- r
	}()
	if shown != nil {
		shown()
	}
	return out
}

// answered waits for a question's result and decodes it.
func answered(t testing.TB, results <-chan *mcp.CallToolResult) answer {
	t.Helper()
	select {
	case r := <-results:
		require.False(t, r.IsError, textOf(r))
		var a answer
		require.NoError(t, json.Unmarshal([]byte(textOf(r)), &a), textOf(r))
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("browser_request_feedback did not return")
		return answer{}
	}
}

const overlayShown = `document.querySelector("openchrome-banner")`

// clickAt presses the mouse at the middle of the element selector finds, as
// the person's click on whatever is on top there (the overlay's layer).
func (p *person) center(selector string) (x, y float64) {
	p.t.Helper()
	var at struct{ X, Y float64 }
	require.NoError(p.t, p.eval(fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).getBoundingClientRect();
		return {x: r.x + r.width / 2, y: r.y + r.height / 2};
	})()`, selector), &at))
	return at.X, at.Y
}

func (p *person) mouse(typ string, x, y float64, buttons int) {
	p.t.Helper()
	params := map[string]any{"type": typ, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1}
	if typ == "mouseMoved" && buttons == 0 {
		params["button"] = "none"
	}
	require.NoError(p.t, p.c.send(p.session, "Input.dispatchMouseEvent", params, nil))
}

// clickAt moves to x, y and clicks there.
func (p *person) clickAt(x, y float64) {
	p.mouse("mouseMoved", x, y, 0)
	p.mouse("mousePressed", x, y, 1)
	p.mouse("mouseReleased", x, y, 0)
}

// drag draws a box from one corner to the other with the mouse down.
func (p *person) drag(x1, y1, x2, y2 float64) {
	p.mouse("mouseMoved", x1, y1, 0)
	p.mouse("mousePressed", x1, y1, 1)
	p.mouse("mouseMoved", (x1+x2)/2, (y1+y2)/2, 1)
	p.mouse("mouseMoved", x2, y2, 1)
	p.mouse("mouseReleased", x2, y2, 0)
}

// looksAt brings the person's page to the front, as they switch to it: a
// question brings its own tab to the front, and a page in the background
// takes its input only slowly.
func (p *person) looksAt() {
	p.t.Helper()
	require.NoError(p.t, p.c.send(p.session, "Page.bringToFront", map[string]any{}, nil))
}

// pressEscape presses Escape.
func (p *person) pressEscape() {
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		require.NoError(p.t, p.c.send(p.session, "Input.dispatchKeyEvent", map[string]any{
			"type": typ, "key": "Escape", "code": "Escape", "windowsVirtualKeyCode": 27}, nil))
	}
}

// picked is what the page says was pressed last.
func (p *person) picked() string {
	var s string
	require.NoError(p.t, p.eval(`document.getElementById("picked").textContent`, &s))
	return s
}

// TestTheOverlayAnswersInEveryMode asks the person in each mode, on the
// page: their marks come back as refs that interact acts on exactly; Skip,
// Escape and the countdown end a question three different ways; a page's
// script can neither answer nor dismiss it; and the tab is the person's
// while it waits.
func TestTheOverlayAnswersInEveryMode(t *testing.T) {
	e := newEnv(t)
	site := plansSite(t)
	cs := e.interactiveClient("e2e", nil, "")
	tab := openTab(t, cs, site.URL+"/")
	me := e.personOn(site.URL)
	shown := func() { me.waitFor(overlayShown) }
	gone := func() { me.waitFor("!" + overlayShown) }
	ctx := context.Background()

	// confirm, and what the page's script cannot do meanwhile.
	res := ask(t, ctx, cs, map[string]any{"mode": "confirm", "prompt": "Buy the Pro plan?"}, shown)
	assert.False(t, me.sees(overlayShown+`.shadowRoot`), "the overlay's shadow root is closed")
	require.NoError(t, me.eval(`document.querySelector("openchrome-banner").click();
		document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: true}))`, nil))
	held := fails(t, cs, "read_page", map[string]any{"tabId": tab}, "conflict")
	assert.Contains(t, held.Hint, "browser_request_feedback")
	assert.Eventually(t, func() bool { return badgeText(e) == "1" }, 5*time.Second, 20*time.Millisecond, "the badge flags the question")
	select {
	case r := <-res:
		t.Fatalf("a page's script answered the question: %s", textOf(r))
	default:
	}
	me.clickButton("Confirm")
	a := answered(t, res)
	assert.True(t, a.Responded)
	assert.Equal(t, "overlay", a.Via)
	require.Len(t, a.Annotations, 1)
	assert.Equal(t, "confirm", a.Annotations[0].Kind)
	assert.JSONEq(t, "true", string(a.Annotations[0].Value))
	gone()

	// choose
	res = ask(t, ctx, cs, map[string]any{"mode": "choose", "prompt": "Which plan?",
		"options": []any{"Basic", map[string]string{"label": "Pro plan", "value": "pro"}}}, shown)
	me.clickButton("Pro plan")
	a = answered(t, res)
	require.Len(t, a.Annotations, 1)
	assert.Equal(t, "choice", a.Annotations[0].Kind)
	assert.JSONEq(t, `"pro"`, string(a.Annotations[0].Value))
	assert.Equal(t, "Pro plan", a.Annotations[0].Label)

	// point: the ref is the button under the spot, and interact presses it.
	res = ask(t, ctx, cs, map[string]any{"mode": "point", "prompt": "Where do I click to buy Team?"}, shown)
	me.clickAt(me.center("#buy-team"))
	a = answered(t, res)
	require.Len(t, a.Annotations, 1)
	pt := a.Annotations[0]
	assert.Equal(t, "point", pt.Kind)
	require.NotNil(t, pt.X)
	require.NotEmpty(t, pt.Ref)
	gone()
	ok(t, cs, "interact", map[string]any{"ref": pt.Ref, "action": "click"})
	assert.Equal(t, "buy-team", me.picked())

	// element: hovering shows it, clicking picks it, with what it is.
	res = ask(t, ctx, cs, map[string]any{"mode": "element", "prompt": "Which button?"}, shown)
	me.clickAt(me.center("#buy-basic"))
	a = answered(t, res)
	require.Len(t, a.Annotations, 1)
	el := a.Annotations[0]
	assert.Equal(t, "element", el.Kind)
	assert.Equal(t, "button", el.Role)
	assert.Equal(t, "Buy Basic", el.Name)
	assert.Equal(t, "#buy-basic", el.Selector)
	assert.Equal(t, "Buy Basic", el.Text)
	ok(t, cs, "interact", map[string]any{"ref": el.Ref, "action": "click"})
	assert.Equal(t, "buy-basic", me.picked())

	// region: every element in the box, the Pro plan's button among them.
	res = ask(t, ctx, cs, map[string]any{"mode": "region", "prompt": "Box the plan you mean"}, shown)
	var box struct{ X, Y, W, H float64 }
	require.NoError(t, me.eval(`(() => { const r = document.getElementById("pro").getBoundingClientRect();
		return {x: r.x, y: r.y, w: r.width, h: r.height}; })()`, &box))
	me.drag(box.X-5, box.Y-5, box.X+box.W+5, box.Y+box.H+5)
	a = answered(t, res)
	require.Len(t, a.Annotations, 1)
	rg := a.Annotations[0]
	assert.Equal(t, "region", rg.Kind)
	require.NotNil(t, rg.Rect)
	assert.InDelta(t, box.W+10, rg.Rect.Width, 2)
	require.NotEmpty(t, rg.Refs)
	page := ok(t, cs, "read_page", map[string]any{})
	buyPro := refOf(t, page, `button "Buy Pro"`)
	assert.Contains(t, rg.Refs, buyPro, "the box's refs are read_page's")
	ok(t, cs, "interact", map[string]any{"ref": buyPro, "action": "click"})
	assert.Equal(t, "buy-pro", me.picked())

	// comment: a click, then the note; what the person pastes is redacted.
	res = ask(t, ctx, cs, map[string]any{"mode": "comment", "prompt": "Anything wrong here?"}, shown)
	me.clickAt(me.center("#buy-team"))
	me.typeText("too dear; token=sk_live_0123456789abcdefghij")
	me.clickButton("Send")
	a = answered(t, res)
	require.Len(t, a.Annotations, 1)
	cm := a.Annotations[0]
	assert.Equal(t, "comment", cm.Kind)
	assert.Equal(t, "too dear; token=[redacted]", cm.Text)
	require.NotEmpty(t, cm.Ref)
	ok(t, cs, "interact", map[string]any{"ref": cm.Ref, "action": "click"})
	assert.Equal(t, "buy-team", me.picked())

	// Skip, Escape and the countdown: dismissed, dismissed, timed out.
	res = ask(t, ctx, cs, map[string]any{"mode": "region", "prompt": "Box it"}, shown)
	me.clickButton("Skip")
	a = answered(t, res)
	assert.Equal(t, answer{Dismissed: true, Via: "overlay"}, withoutMarks(a))
	res = ask(t, ctx, cs, map[string]any{"mode": "point", "prompt": "Where?"}, shown)
	me.pressEscape()
	a = answered(t, res)
	assert.Equal(t, answer{Dismissed: true, Via: "overlay"}, withoutMarks(a))
	start := time.Now()
	res = ask(t, ctx, cs, map[string]any{"mode": "confirm", "prompt": "Quick?", "timeoutMs": 1500}, shown)
	a = answered(t, res)
	assert.Equal(t, answer{TimedOut: true}, withoutMarks(a))
	assert.Less(t, time.Since(start), 6*time.Second)
	gone()
	ok(t, cs, "read_page", map[string]any{}) // the agent has the tab again

	// A page whose CSP forbids every style and script of others: the
	// overlay is the extension's, in its isolated world, with a
	// constructed style sheet, so it still shows and answers.
	ok(t, cs, "navigate", map[string]any{"url": site.URL + "/?csp"})
	me = e.personOn(site.URL + "/?csp")
	res = ask(t, ctx, cs, map[string]any{"mode": "confirm", "prompt": "Here too?"}, func() { me.waitFor(overlayShown) })
	me.clickButton("Confirm")
	a = answered(t, res)
	assert.Equal(t, "overlay", a.Via)
}

// badgeText is the extension's toolbar badge.
func badgeText(e *env) string {
	var badge string
	_ = e.devtools().evalExtension(`chrome.action.getBadgeText({})`, &badge)
	return badge
}

// withoutMarks is a with no annotations, for comparing the rest.
func withoutMarks(a answer) answer {
	assert.Empty(nil, a.Annotations)
	a.Annotations = nil
	return a
}

// TestAQuestionEndsWithItsCall ends questions the other ways: the agent
// cancels (the overlay is gone within a second), the agent goes away, and
// the person presses Stop in the side panel.
func TestAQuestionEndsWithItsCall(t *testing.T) {
	e := newEnv(t)
	site := plansSite(t)
	cs := e.interactiveClient("e2e", nil, "")
	openTab(t, cs, site.URL+"/")
	me := e.personOn(site.URL)
	shown := func() { me.waitFor(overlayShown) }
	gone := func(within time.Duration, why string) {
		t.Helper()
		require.Eventually(t, func() bool { return me.sees("!" + overlayShown) }, within, 20*time.Millisecond, why)
	}

	// MCP cancellation.
	ctx, cancel := context.WithCancel(context.Background())
	res := ask(t, ctx, cs, map[string]any{"mode": "point", "prompt": "Where?"}, shown)
	cancel()
	gone(time.Second, "cancelling the call removes the overlay within a second")
	<-res

	// The agent goes away: its client ends `openchrome mcp` (SIGTERM).
	// (The go-sdk client's own Close would wait for the call first.)
	other, proc := e.interactiveProcess("e2e-other", nil, "")
	res = ask(t, context.Background(), other, map[string]any{"mode": "confirm", "prompt": "Still there?"}, shown)
	require.NoError(t, proc.Process.Signal(syscall.SIGTERM))
	gone(5*time.Second, "an agent that disconnects takes its question with it")
	<-res

	// Stop, in the side panel, which lists the question meanwhile.
	panel := e.personOpens(panelURL)
	res = ask(t, context.Background(), cs, map[string]any{"mode": "region", "prompt": "Box it"}, shown)
	panel.waitFor(`document.querySelector("#questions [data-request-id]")`)
	panel.looksAt()
	panel.click("#stop")
	select {
	case r := <-res:
		assert.True(t, r.IsError)
		assert.Contains(t, textOf(r), "the person pressed Stop")
	case <-time.After(10 * time.Second):
		t.Fatal("Stop did not end the question")
	}
	gone(5*time.Second, "Stop removes the overlay")
	panel.waitFor(`!document.querySelector("#questions [data-request-id]")`)
	ok(t, cs, "read_page", map[string]any{}) // Stop is a brake, not a lock
}

// TestTheSidePanelAnswersQuestions answers confirm and choose in the side
// panel, the place a page cannot cover or imitate, and a question on a page
// that cannot show the overlay (an extension page in the agent's group)
// over a screenshot of it.
func TestTheSidePanelAnswersQuestions(t *testing.T) {
	e := newEnv(t)
	site := plansSite(t)
	cs := e.interactiveClient("e2e", nil, "")
	openTab(t, cs, site.URL+"/")
	me := e.personOn(site.URL)
	panel := e.personOpens(panelURL)
	const question = `#questions [data-request-id]`
	inPanel := func() { panel.waitFor(`document.querySelector('` + question + `')`) }

	res := ask(t, context.Background(), cs, map[string]any{"mode": "confirm", "prompt": "Buy the Pro plan?"}, inPanel)
	assert.True(t, panel.sees(`document.querySelector('`+question+` .instruction').textContent === "Buy the Pro plan?"`))
	me.waitFor(overlayShown) // the page shows it too
	panel.looksAt()
	panel.click(question + ` button[data-answer="confirm"]`)
	a := answered(t, res)
	assert.True(t, a.Responded)
	assert.Equal(t, "panel", a.Via)
	require.Len(t, a.Annotations, 1)
	assert.Equal(t, "confirm", a.Annotations[0].Kind)
	me.waitFor("!" + overlayShown) // and no longer

	res = ask(t, context.Background(), cs, map[string]any{"mode": "choose", "prompt": "Which plan?",
		"options": []any{"Basic", map[string]string{"label": "Pro", "value": "pro"}}}, inPanel)
	panel.looksAt()
	panel.click(question + ` button[data-answer="choice"][data-value="pro"]`)
	a = answered(t, res)
	assert.Equal(t, "panel", a.Via)
	require.Len(t, a.Annotations, 1)
	assert.JSONEq(t, `"pro"`, string(a.Annotations[0].Value))

	// A page no extension may script: the question goes to the panel, over
	// a screenshot; a point there is in the screenshot's pixels, no ref.
	var restricted int
	require.NoError(t, e.devtools().evalExtension(fmt.Sprintf(`(async () => {
		const [agent] = await chrome.tabs.query({url: %q});
		const t = await chrome.tabs.create({url: chrome.runtime.getURL("sidepanel/panel.html?restricted"), windowId: agent.windowId});
		await chrome.tabs.group({groupId: agent.groupId, tabIds: t.id});
		return t.id;
	})()`, site.URL+"/*"), &restricted))
	res = ask(t, context.Background(), cs, map[string]any{"tabId": restricted, "mode": "point", "prompt": "Where is it?"}, inPanel)
	shot := question + ` img[data-shot]`
	panel.waitFor(`document.querySelector('` + shot + `')?.naturalWidth > 0`)
	assert.True(t, panel.sees(`document.querySelector('`+question+`').textContent.includes("cannot show OpenChrome's overlay")`))
	panel.looksAt()
	panel.click(shot)
	a = answered(t, res)
	assert.True(t, a.Responded)
	assert.Equal(t, "panel", a.Via)
	require.Len(t, a.Annotations, 1)
	pt := a.Annotations[0]
	assert.Equal(t, "point", pt.Kind)
	require.NotNil(t, pt.X)
	require.NotNil(t, pt.Y)
	assert.Greater(t, *pt.X, 100.0, "screenshot pixels, the middle of the shot")
	assert.Empty(t, pt.Ref, "no DOM, no ref")

	res = ask(t, context.Background(), cs, map[string]any{"tabId": restricted, "mode": "confirm", "prompt": "Close it?"}, inPanel)
	panel.looksAt()
	panel.click(question + ` button[data-answer="confirm"]`)
	a = answered(t, res)
	assert.True(t, a.Responded)
	assert.Equal(t, "panel", a.Via)
}

// TestTheAgentsClientAnswersToo puts confirm and choose to the person at
// the agent's MCP client too (elicitation): the first answer wins, and the
// other place is withdrawn at once.
func TestTheAgentsClientAnswersToo(t *testing.T) {
	e := newEnv(t)
	site := plansSite(t)
	prompts := make(chan *mcp.ElicitRequest, 1)
	replies := make(chan *mcp.ElicitResult, 1)
	withdrawn := make(chan struct{}, 1)
	cs := e.interactiveClient("e2e", &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			prompts <- req
			select {
			case r := <-replies:
				return r, nil
			case <-ctx.Done():
				withdrawn <- struct{}{}
				return nil, ctx.Err()
			}
		},
	}, "2025-11-25") // a version in which a server may ask during a call
	openTab(t, cs, site.URL+"/")
	me := e.personOn(site.URL)
	both := func() {
		me.waitFor(overlayShown)
		select {
		case req := <-prompts:
			assert.Contains(t, req.Params.Message, "Which plan?")
		case <-time.After(10 * time.Second):
			t.Fatal("the client was not asked")
		}
	}

	// The terminal first: the overlay goes.
	res := ask(t, context.Background(), cs, map[string]any{"mode": "choose", "prompt": "Which plan?",
		"options": []any{"Basic", map[string]string{"label": "Pro", "value": "pro"}}}, both)
	replies <- &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "pro"}}
	a := answered(t, res)
	assert.True(t, a.Responded)
	assert.Equal(t, "client", a.Via)
	require.Len(t, a.Annotations, 1)
	assert.JSONEq(t, `"pro"`, string(a.Annotations[0].Value))
	me.waitFor("!" + overlayShown)

	// The page first: the client's prompt is withdrawn.
	res = ask(t, context.Background(), cs, map[string]any{"mode": "choose", "prompt": "Which plan?",
		"options": []any{"Basic", "Pro"}}, both)
	me.clickButton("Basic")
	a = answered(t, res)
	assert.Equal(t, "overlay", a.Via)
	select {
	case <-withdrawn:
	case <-time.After(5 * time.Second):
		t.Fatal("the client's prompt was not withdrawn")
	}

	// A marking question is for the page only.
	res = ask(t, context.Background(), cs, map[string]any{"mode": "point", "prompt": "Where?"}, func() { me.waitFor(overlayShown) })
	me.pressEscape()
	assert.True(t, answered(t, res).Dismissed)
	assert.Empty(t, prompts, "the client was not asked to point")
}

// TestAQuestionSurvivesAWorkerStop stops the extension's service worker
// while the person is asked. The question lives on in
// chrome.storage.session and in the page; the person's answer wakes the
// worker, which takes the question up again and keeps the answer; the
// daemon, which outlives the worker, asks again for the same request once
// the link is back, and the agent's call gets the answer.
func TestAQuestionSurvivesAWorkerStop(t *testing.T) {
	e := newEnv(t)
	site := plansSite(t)
	cs := e.interactiveClient("e2e", nil, "")
	openTab(t, cs, site.URL+"/")
	me := e.personOn(site.URL)
	res := ask(t, context.Background(), cs, map[string]any{"mode": "confirm", "prompt": "Keep going?"}, func() { me.waitFor(overlayShown) })
	var stored []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Result *answer
	}
	require.NoError(t, e.devtools().evalExtension(`chrome.storage.session.get("feedback").then(s => s.feedback)`, &stored))
	require.Len(t, stored, 1)
	assert.NotEmpty(t, stored[0].ID)
	assert.Equal(t, "pending", stored[0].Status)

	// A worker that is stopped may start again at once (the page's overlay
	// wakes it): a worker without the mark is a new one.
	require.NoError(t, e.devtools().evalExtension(`globalThis.beforeStop = true`, nil))
	require.NoError(t, me.c.send(me.session, "ServiceWorker.enable", map[string]any{}, nil))
	require.NoError(t, me.c.send(me.session, "ServiceWorker.stopAllWorkers", map[string]any{}, nil))
	require.Eventually(t, func() bool {
		var same bool
		err := e.devtools().evalExtension(`globalThis.beforeStop === true`, &same)
		return err != nil || !same
	}, 10*time.Second, 50*time.Millisecond, "the worker stops")
	assert.True(t, me.sees(overlayShown), "the question is still on the page")

	me.clickButton("Confirm") // the answer wakes the worker
	me.waitFor("!" + overlayShown)
	var r *mcp.CallToolResult
	select {
	case r = <-res:
	case <-time.After(30 * time.Second):
		t.Fatal("the call neither ended nor got the answer")
	}
	// The daemon outlives the worker (#15): the call goes on, and the
	// restarted worker hands over the answer it kept.
	require.False(t, r.IsError, textOf(r))
	a := answered(t, func() <-chan *mcp.CallToolResult { c := make(chan *mcp.CallToolResult, 1); c <- r; return c }())
	assert.True(t, a.Responded, "the answer reached the agent across the worker's restart")
	assert.Equal(t, "overlay", a.Via)
}
