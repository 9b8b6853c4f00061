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

func tabsList() protocol.Command {
	return command("tabs.list", struct{}{}, 0)
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
