package browser

import (
	"encoding/json"
	"time"

	"github.com/openchrome/openchrome/host/pagetree"
)

// Image is a screenshot: Data is the image itself (base64 on the wire).
type Image struct {
	Data     []byte `json:"data"`
	MimeType string `json:"mimeType"`
	// Scale, when under 1, is how far a screenshot was shrunk to keep
	// within the 8000 px an image a model reads may have.
	Scale float64 `json:"scale,omitempty"`
}

// Rect is a rectangle in CSS pixels of a tab's viewport (or, for a
// feedback region on a screenshot, its pixels).
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Shot says what a screenshot shows: the viewport, the whole page
// (FullPage), a rectangle of the viewport (Clip) or one element (Ref); as
// png or jpeg (Quality 0: the extension's default).
type Shot struct {
	Format   string `json:"format"`
	Quality  int    `json:"quality,omitempty"`
	FullPage bool   `json:"fullPage,omitempty"`
	Clip     *Rect  `json:"clip,omitempty"`
	Ref      string `json:"ref,omitempty"`
	// Background: never change which tab a window shows to take it (a
	// recording's frames, while the agent works in another tab).
	Background bool `json:"background,omitempty"`
}

// PageScreenshot shoots tab as s says.
func PageScreenshot(tab int, s Shot) Command[Image] {
	return command[Image]("page.screenshot", struct {
		TabID int `json:"tabId"`
		Shot
	}{tab, s}, 0)
}

// PagePDF prints tab's page to PDF.
func PagePDF(tab int, landscape, printBackground bool) Command[Image] {
	return command[Image]("page.pdf", struct {
		TabID           int  `json:"tabId"`
		Landscape       bool `json:"landscape,omitempty"`
		PrintBackground bool `json:"printBackground,omitempty"`
	}{tab, landscape, printBackground}, 2*time.Minute)
}

// Evaluation is what a script returned: its JSON value and its CDP type
// ("undefined" has no value).
type Evaluation struct {
	Value json.RawMessage `json:"value"`
	Type  string          `json:"type"`
}

// PageEvaluate runs expression in tab's main world.
func PageEvaluate(tab int, expression string, timeout time.Duration) Command[Evaluation] {
	return command[Evaluation]("page.evaluate", struct {
		TabID      int    `json:"tabId"`
		Expression string `json:"expression"`
	}{tab, expression}, timeout)
}

// Tree is a tab's tree, cross-origin frames in place.
type Tree struct {
	URL       string          `json:"url"`
	Title     string          `json:"title"`
	Tree      []pagetree.Node `json:"tree"`
	Nodes     int             `json:"nodes"`
	Truncated bool            `json:"truncated"`
	// PDF: the tab shows a PDF in Chrome's own viewer, whose text no read
	// of the page reaches.
	PDF bool `json:"pdf,omitempty"`
	carried
}

// PageSnapshot reads tab's tree, handing out refs.
func PageSnapshot(tab int) Command[Tree] {
	return command[Tree]("page.snapshot", tabParams{tab}, 0)
}

// Text is a page's main content as Markdown.
type Text struct {
	URL      string `json:"url"`
	Title    string `json:"title"`
	Markdown string `json:"markdown"`
	PDF      bool   `json:"pdf,omitempty"` // as Tree's
}

// PageText reads tab's main content as Markdown.
func PageText(tab int) Command[Text] {
	return command[Text]("page.text", tabParams{tab}, 0)
}

// Crawled is what a crawl keeps of a page, its links absolute.
type Crawled struct {
	URL     string   `json:"url"`
	Title   string   `json:"title"`
	Content string   `json:"content"`
	Links   []string `json:"links"`
}

// PageCrawl reads tab's page as a crawl keeps it: output is markdown, text
// or links.
func PageCrawl(tab int, output string) Command[Crawled] {
	return command[Crawled]("page.crawl", struct {
		TabID  int    `json:"tabId"`
		Output string `json:"output"`
	}{tab, output}, 0)
}

// DOM is a page's HTML from a sanitized copy: no values, no scripts.
type DOM struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	HTML  string `json:"html"`
	Bytes int    `json:"bytes"`
}

// PageDOM reads tab's top document's sanitized HTML.
func PageDOM(tab int) Command[DOM] {
	return command[DOM]("page.dom", tabParams{tab}, 0)
}

// WaitCondition is what page.wait waits for: one of its fields.
type WaitCondition struct {
	Text      *string `json:"text,omitempty"`
	TextGone  *string `json:"textGone,omitempty"`
	Ref       string  `json:"ref,omitempty"`
	Selector  *string `json:"selector,omitempty"`
	URL       *string `json:"url,omitempty"`
	Predicate *string `json:"predicate,omitempty"`
	State     string  `json:"state,omitempty"`
}

// Waited says a wait's condition held, what was seen, and where the tab is.
type Waited struct {
	Met   bool   `json:"met"`
	Seen  string `json:"seen"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// PageWait waits up to wait for c; the command itself gets a little longer,
// so that the extension's own timeout, which says what it saw, comes first.
func PageWait(tab int, c WaitCondition, wait time.Duration) Command[Waited] {
	return command[Waited]("page.wait", struct {
		TabID     int           `json:"tabId"`
		Condition WaitCondition `json:"condition"`
		WaitMs    int64         `json:"waitMs"`
	}{tab, c, wait.Milliseconds()}, wait+5*time.Second)
}
