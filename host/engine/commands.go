package engine

import (
	"encoding/json"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// Constructors for the extension's commands (docs/wire.md), named for their
// action. They build commands; they run nothing.

// tabInfo is a tab as the extension describes it.
type tabInfo struct {
	TabID  int    `json:"tabId"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Active bool   `json:"active,omitempty"`
	Status string `json:"status,omitempty"`
}

// pageInfo is where a tab ended up after a navigation.
type pageInfo struct {
	TabID  int    `json:"tabId"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Status int    `json:"status,omitempty"` // HTTP status, when there was a response
}

func command(action string, params any, timeout time.Duration) protocol.Command {
	b, err := json.Marshal(params)
	if err != nil {
		panic("engine: params of " + action + ": " + err.Error()) // params are our own structs
	}
	return protocol.Command{Action: action, Params: b, TimeoutMs: timeout.Milliseconds()}
}

type tabParams struct {
	TabID int `json:"tabId"`
}

func browserHealth() protocol.Command {
	return command("browser.health", struct{}{}, 5*time.Second)
}

func browserStop() protocol.Command {
	return command("browser.stop", struct{}{}, 10*time.Second)
}

func pageHandoffState(tab int) protocol.Command {
	return command("handoff.state", tabParams{tab}, 0)
}

func tabsList() protocol.Command {
	return command("tab.list", struct{}{}, 0)
}

func tabCreate(url string, active bool, timeout time.Duration) protocol.Command {
	return command("tab.create", struct {
		URL    string `json:"url,omitempty"`
		Active bool   `json:"active"`
	}{url, active}, timeout)
}

func tabClose(tab int) protocol.Command {
	return command("tab.close", tabParams{tab}, 0)
}

func tabNavigate(tab int, url string, timeout time.Duration) protocol.Command {
	return command("tab.navigate", struct {
		TabID int    `json:"tabId"`
		URL   string `json:"url"`
	}{tab, url}, timeout)
}

// tabGo moves through history or reloads: direction is back, forward or reload.
func tabGo(tab int, direction string, timeout time.Duration) protocol.Command {
	return command("tab.navigate", struct {
		TabID     int    `json:"tabId"`
		Direction string `json:"direction"`
	}{tab, direction}, timeout)
}

func pageScreenshot(tab int, format string, quality int, fullPage bool) protocol.Command {
	return command("page.screenshot", struct {
		TabID    int    `json:"tabId"`
		Format   string `json:"format"`
		Quality  int    `json:"quality,omitempty"`
		FullPage bool   `json:"fullPage,omitempty"`
	}{tab, format, quality, fullPage}, 0)
}

func pageEvaluate(tab int, expression string, timeout time.Duration) protocol.Command {
	return command("page.evaluate", struct {
		TabID      int    `json:"tabId"`
		Expression string `json:"expression"`
	}{tab, expression}, timeout)
}

func pageSnapshot(tab int) protocol.Command {
	return command("page.snapshot", tabParams{tab}, 0)
}

func pageText(tab int) protocol.Command {
	return command("page.text", tabParams{tab}, 0)
}

func pageFind(tab int, query string, limit int) protocol.Command {
	return command("element.find", struct {
		TabID int    `json:"tabId"`
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}{tab, query, limit}, 0)
}

func pageField(tab int, label, value string) protocol.Command {
	return command("element.field", struct {
		TabID int    `json:"tabId"`
		Label string `json:"label"`
		Value string `json:"value,omitempty"`
	}{tab, label, value}, 0)
}

// waitCondition is what page.wait waits for: one of its fields.
type waitCondition struct {
	Text      *string `json:"text,omitempty"`
	TextGone  *string `json:"textGone,omitempty"`
	Ref       string  `json:"ref,omitempty"`
	Selector  *string `json:"selector,omitempty"`
	URL       *string `json:"url,omitempty"`
	Predicate *string `json:"predicate,omitempty"`
	State     string  `json:"state,omitempty"`
}

// pageWait waits up to wait; the command itself gets a little longer, so
// that the extension's own timeout, which says what it saw, comes first.
func pageWait(tab int, c waitCondition, wait time.Duration) protocol.Command {
	return command("page.wait", struct {
		TabID     int           `json:"tabId"`
		Condition waitCondition `json:"condition"`
		WaitMs    int64         `json:"waitMs"`
	}{tab, c, wait.Milliseconds()}, wait+5*time.Second)
}

// elementParams are the params of element.act.
type elementParams struct {
	TabID     int      `json:"tabId"`
	Ref       string   `json:"ref,omitempty"`
	Action    string   `json:"action"`
	Text      *string  `json:"text,omitempty"`
	Key       string   `json:"key,omitempty"`
	Values    []string `json:"values,omitempty"`
	Direction string   `json:"direction,omitempty"`
	Amount    int      `json:"amount,omitempty"`
}

func elementAct(p elementParams) protocol.Command {
	return command("element.act", p, 60*time.Second)
}

// point is a position in CSS pixels of a tab's viewport.
type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

func inputCommand(action string, params any) protocol.Command {
	return command("input."+action, params, 0)
}

func elementLocate(tab int, ref string) protocol.Command {
	return command("element.locate", struct {
		TabID int    `json:"tabId"`
		Ref   string `json:"ref"`
	}{tab, ref}, 0)
}

func pageCrawl(tab int, output string) protocol.Command {
	return command("page.crawl", struct {
		TabID  int    `json:"tabId"`
		Output string `json:"output"`
	}{tab, output}, 0)
}

func pageObserve(tab int, on bool) protocol.Command {
	return command("observe.set", struct {
		TabID int  `json:"tabId"`
		On    bool `json:"on"`
	}{tab, on}, 0)
}

// pageEvents reads the observed console, network and navigation entries of
// a tab from since on.
func pageEvents(tab, since int, kinds []string) protocol.Command {
	return command("observe.events", struct {
		TabID int      `json:"tabId"`
		Since int      `json:"since,omitempty"`
		Kinds []string `json:"kinds,omitempty"`
		Limit int      `json:"limit"`
	}{tab, since, kinds, 500}, 0)
}

func pageDOM(tab int) protocol.Command {
	return command("page.dom", tabParams{tab}, 0)
}
