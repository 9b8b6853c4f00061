package browser

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// answer is a Doer that answers every command with data, or err.
type answer struct {
	data string
	err  error
	got  protocol.Command
}

func (a *answer) Do(_ context.Context, cmd protocol.Command) (json.RawMessage, error) {
	a.got = cmd
	return json.RawMessage(a.data), a.err
}

func TestRunDecodesTheAnswer(t *testing.T) {
	d := &answer{data: `{"tabId":7,"url":"http://x/","title":"X","status":200,"extra":"ignored"}`}
	p, err := TabNavigate(7, "http://x/", 5*time.Second).Run(context.Background(), d)
	require.NoError(t, err)
	assert.Equal(t, Page{TabID: 7, URL: "http://x/", Title: "X", Status: 200}, p)
	assert.Equal(t, "tab.navigate", d.got.Action)
	assert.EqualValues(t, 5000, d.got.TimeoutMs)

	img, err := PageScreenshot(7, Shot{Format: "png"}).Run(context.Background(), &answer{data: `{"data":"iVBORw==","mimeType":"image/png"}`})
	require.NoError(t, err)
	assert.Equal(t, []byte("\x89PNG"), img.Data, "base64 on the wire, bytes here")
}

func TestRunPassesTheExtensionsErrorOn(t *testing.T) {
	stale := protocol.Errorf(protocol.CodeStaleRef, "ref e4 is from a page this tab has left").WithHint("call read_page")
	_, err := ElementAct(Act{TabID: 1, Ref: "e4", Action: "click"}).Run(context.Background(), &answer{err: stale})
	assert.Same(t, stale, err)
}

func TestAMalformedAnswerIsInternalAndQuotesNothing(t *testing.T) {
	_, err := PageText(1).Run(context.Background(), &answer{data: `{"markdown": 12, "secret":"hunter2"}`})
	require.ErrorIs(t, err, protocol.ErrInternal)
	e := protocol.AsError(err)
	assert.NotContains(t, e.Message, "hunter2", "the page's words stay in the log")
	assert.Contains(t, e.Message, "page.text")
}

// TestCommands pins each constructor to its wire action and params
// (docs/wire.md): the extension's tests decode the same names.
func TestCommands(t *testing.T) {
	text, yes := "hi", true
	tests := []struct {
		cmd    protocol.Command
		action string
		params string
	}{
		{TabList().Command, "tab.list", `{}`},
		{TabGet(3).Command, "tab.get", `{"tabId":3}`},
		{TabCreate("about:blank", false, 0).Command, "tab.create", `{"url":"about:blank","active":false}`},
		{TabClose(3).Command, "tab.close", `{"tabId":3}`},
		{TabNavigate(3, "http://x/", 0).Command, "tab.navigate", `{"tabId":3,"url":"http://x/"}`},
		{TabGo(3, "back", 0).Command, "tab.navigate", `{"tabId":3,"direction":"back"}`},
		{PageScreenshot(3, Shot{Format: "jpeg", Quality: 60, FullPage: true}).Command, "page.screenshot", `{"tabId":3,"format":"jpeg","quality":60,"fullPage":true}`},
		{PageScreenshot(3, Shot{Format: "png", Clip: &Rect{1, 2, 30, 40}}).Command, "page.screenshot", `{"tabId":3,"format":"png","clip":{"x":1,"y":2,"width":30,"height":40}}`},
		{PageScreenshot(3, Shot{Format: "png", Ref: "e4"}).Command, "page.screenshot", `{"tabId":3,"format":"png","ref":"e4"}`},
		{PagePDF(3, true, false).Command, "page.pdf", `{"tabId":3,"landscape":true}`},
		{PageEvaluate(3, "1+1", 0).Command, "page.evaluate", `{"tabId":3,"expression":"1+1"}`},
		{PageSnapshot(3).Command, "page.snapshot", `{"tabId":3}`},
		{PageText(3).Command, "page.text", `{"tabId":3}`},
		{PageCrawl(3, "links").Command, "page.crawl", `{"tabId":3,"output":"links"}`},
		{PageDOM(3).Command, "page.dom", `{"tabId":3}`},
		{PageWait(3, WaitCondition{Text: &text}, time.Second).Command, "page.wait", `{"tabId":3,"condition":{"text":"hi"},"waitMs":1000}`},
		{ElementAct(Act{TabID: 3, Ref: "e1", Action: "fill", Text: &text}).Command, "element.act", `{"tabId":3,"ref":"e1","action":"fill","text":"hi"}`},
		{ElementLocate(3, "e1").Command, "element.locate", `{"tabId":3,"ref":"e1"}`},
		{ElementFind(3, "Save", 2).Command, "element.find", `{"tabId":3,"query":"Save","limit":2}`},
		{ElementField(3, "Email", "", nil).Command, "element.field", `{"tabId":3,"label":"Email"}`},
		{ElementField(3, "Toppings", "Ham", []string{"Ham", "Olives"}).Command, "element.field", `{"tabId":3,"label":"Toppings","value":"Ham","values":["Ham","Olives"]}`},
		{InputAction("click", Input{TabID: 3, At: &Point{1, 2}, Button: "left"}).Command, "input.click", `{"tabId":3,"at":{"x":1,"y":2},"button":"left"}`},
		{InputViewport(3).Command, "input.viewport", `{"tabId":3}`},
		{ObserveEvents(3, 5, "console").Command, "observe.events", `{"tabId":3,"since":5,"kinds":["console"],"limit":500}`},
		{ConsoleRead(3, []string{"warning", "error"}, "boom", 4, 10).Command, "console.read", `{"tabId":3,"levels":["warning","error"],"pattern":"boom","since":4,"limit":10}`},
		{NetworkList(3, RequestFilter{URL: "/api", Failed: &yes}, 0, 20).Command, "network.list", `{"tabId":3,"filter":{"url":"/api","failed":true},"limit":20}`},
		{NetworkGet(3, 7, 0).Command, "network.get", `{"tabId":3,"id":7}`},
		{NetworkGet(3, 7, 30000).Command, "network.get", `{"tabId":3,"id":7,"offset":30000}`},
		{HandoffStateOf(3).Command, "handoff.state", `{"tabId":3}`},
		{FeedbackRequest(FeedbackAsk{TabID: 3, RequestID: "r1", Mode: "choose", Prompt: "Which?",
			Options: []FeedbackOption{{Label: "A", Value: "a"}}, TimeoutMs: 1000}).Command, "feedback.request",
			`{"tabId":3,"requestId":"r1","mode":"choose","prompt":"Which?","options":[{"label":"A","value":"a"}],"timeoutMs":1000}`},
		{BrowserHealth().Command, "browser.health", `{}`},
		{BrowserStop().Command, "browser.stop", `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			assert.Equal(t, tt.action, tt.cmd.Action)
			assert.JSONEq(t, tt.params, string(tt.cmd.Params))
		})
	}
	// A wait's command outlives the wait, so the extension's own timeout,
	// which says what it saw, comes first.
	assert.EqualValues(t, 6000, PageWait(3, WaitCondition{}, time.Second).TimeoutMs)
	// So does a question's: the person's countdown ends first, and its
	// timedOut answer reaches the host.
	assert.EqualValues(t, 130_000, FeedbackRequest(FeedbackAsk{TimeoutMs: 120_000}).TimeoutMs)
}

func TestMaskedRedactsEveryText(t *testing.T) {
	evs := Events{Events: []Event{{Kind: "console", Text: "token=abc", URL: "http://x/?k=1", Error: "e", Stack: "at f"}}, Next: 2}
	up := func(s string) string { return "<" + s + ">" }
	got := evs.Masked(up, up)
	assert.Equal(t, Event{Kind: "console", Text: "<token=abc>", URL: "<http://x/?k=1>", Error: "<e>", Stack: "<at f>"}, got.Events[0])
	assert.Equal(t, "token=abc", evs.Events[0].Text, "the original is left alone")
	assert.Equal(t, 2, got.Next)
}
