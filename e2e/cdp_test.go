package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/manifests"
)

// cdpClient is a minimal Chrome DevTools Protocol client on the browser's
// debugging port. Tests use it to play the human and to look at the browser
// from outside the extension under test.
type cdpClient struct {
	ws *websocket.Conn

	wmu sync.Mutex // serializes writes
	mu  sync.Mutex // guards the fields below
	seq int
	out map[int]chan cdpReply
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// dialCDP connects to the browser whose --user-data-dir is udd: Chromium
// writes its debugging port and path to DevToolsActivePort there.
func dialCDP(udd string) (*cdpClient, error) {
	var raw []byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		raw, err = os.ReadFile(filepath.Join(udd, "DevToolsActivePort"))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("cdp: no DevToolsActivePort: %w", err)
		}
	}
	lines := strings.Fields(string(raw))
	if len(lines) < 2 {
		return nil, fmt.Errorf("cdp: DevToolsActivePort holds %q", raw)
	}
	ws, _, err := websocket.DefaultDialer.Dial("ws://127.0.0.1:"+lines[0]+lines[1], nil)
	if err != nil {
		return nil, fmt.Errorf("cdp: %w", err)
	}
	c := &cdpClient{ws: ws, out: map[int]chan cdpReply{}}
	go c.read()
	return c, nil
}

func (c *cdpClient) read() {
	for {
		var msg struct {
			ID int `json:"id"`
			cdpReply
		}
		if err := c.ws.ReadJSON(&msg); err != nil {
			c.mu.Lock()
			for id, ch := range c.out {
				close(ch)
				delete(c.out, id)
			}
			c.mu.Unlock()
			return
		}
		c.mu.Lock()
		ch := c.out[msg.ID]
		delete(c.out, msg.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg.cdpReply
		}
	}
}

// send runs one CDP method, on the browser when session is empty, and
// decodes its result into out (when not nil).
func (c *cdpClient) send(session, method string, params any, out any) error {
	c.mu.Lock()
	c.seq++
	id := c.seq
	ch := make(chan cdpReply, 1)
	c.out[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	c.wmu.Lock()
	err := c.ws.WriteJSON(msg)
	c.wmu.Unlock()
	if err != nil {
		return err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return errors.New("cdp: connection closed")
		}
		if r.Error != nil {
			return fmt.Errorf("cdp %s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("cdp %s: no reply in 30 s", method)
	}
}

func (c *cdpClient) close() { c.ws.Close() }

// evalExtension evaluates expression in the extension's service worker and
// decodes its (awaited) value into out: the view of an inspector who can see
// every tab and group, which the agent's tools deliberately cannot.
func (c *cdpClient) evalExtension(expression string, out any) error {
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
			URL      string `json:"url"`
		} `json:"targetInfos"`
	}
	if err := c.send("", "Target.getTargets", map[string]any{}, &targets); err != nil {
		return err
	}
	for _, t := range targets.TargetInfos {
		if t.Type != "service_worker" || !strings.HasPrefix(t.URL, manifests.Origin()) {
			continue
		}
		var attached struct {
			SessionID string `json:"sessionId"`
		}
		if err := c.send("", "Target.attachToTarget", map[string]any{"targetId": t.TargetID, "flatten": true}, &attached); err != nil {
			return err
		}
		defer c.send("", "Target.detachFromTarget", map[string]any{"sessionId": attached.SessionID}, nil)
		return c.evaluate(attached.SessionID, expression, out)
	}
	return errors.New("cdp: the extension's service worker is not running")
}

// evaluate evaluates expression in session's target (awaited) and decodes
// its value into out, which may be nil.
func (c *cdpClient) evaluate(session, expression string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := c.send(session, "Runtime.evaluate", map[string]any{
		"expression": expression, "awaitPromise": true, "returnByValue": true,
	}, &res)
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("cdp: %s %s", res.ExceptionDetails.Text, res.ExceptionDetails.Exception.Description)
	}
	if out == nil || len(res.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// person plays the human in one page through CDP: what they see and what
// they do, with trusted input (Input.dispatch*), never through the
// extension under test.
type person struct {
	t       testing.TB
	c       *cdpClient
	session string
}

// personOn attaches to the page whose URL starts with prefix, waiting for
// it to appear.
func (e *env) personOn(prefix string) *person {
	e.t.Helper()
	return e.attachPerson(e.pageAt(prefix))
}

// minimizeWindowOf minimizes the window of the page whose URL starts with
// prefix, as a person who goes on working in another app.
func (e *env) minimizeWindowOf(prefix string) {
	e.t.Helper()
	var w struct {
		WindowID int `json:"windowId"`
	}
	require.NoError(e.t, e.devtools().send("", "Browser.getWindowForTarget", map[string]any{"targetId": e.pageAt(prefix)}, &w))
	require.NoError(e.t, e.devtools().send("", "Browser.setWindowBounds",
		map[string]any{"windowId": w.WindowID, "bounds": map[string]any{"windowState": "minimized"}}, nil))
}

// pageAt is the target id of the page whose URL starts with prefix,
// waiting for it to appear.
func (e *env) pageAt(prefix string) string {
	e.t.Helper()
	e.devtools() // dialled here, not in Eventually's goroutine
	var targetID string
	require.Eventually(e.t, func() bool {
		pages, err := e.pages()
		if err != nil {
			return false
		}
		for _, p := range pages {
			if strings.HasPrefix(p.URL, prefix) {
				targetID = p.TargetID
				return true
			}
		}
		return false
	}, 10*time.Second, 50*time.Millisecond, "no page at %s", prefix)
	return targetID
}

type cdpPage struct {
	TargetID string `json:"targetId"`
	Type     string `json:"type"`
	URL      string `json:"url"`
	// Attached: some client holds a debugger session on it (the
	// extension's, or one of the test's own).
	Attached bool `json:"attached"`
}

// pages are the browser's tabs and popups, as CDP sees them.
func (e *env) pages() ([]cdpPage, error) {
	c, err := e.dialDevtools()
	if err != nil {
		return nil, err
	}
	var targets struct {
		TargetInfos []cdpPage `json:"targetInfos"`
	}
	if err := c.send("", "Target.getTargets", map[string]any{}, &targets); err != nil {
		return nil, err
	}
	var pages []cdpPage
	for _, p := range targets.TargetInfos {
		if p.Type == "page" {
			pages = append(pages, p)
		}
	}
	return pages, nil
}

// personOpens opens url in a new tab (outside the agent's group, as a person
// opening the side panel page would) and attaches to it.
func (e *env) personOpens(url string) *person {
	e.t.Helper()
	var created struct {
		TargetID string `json:"targetId"`
	}
	require.NoError(e.t, e.devtools().send("", "Target.createTarget", map[string]any{"url": url}, &created))
	return e.attachPerson(created.TargetID)
}

func (e *env) attachPerson(targetID string) *person {
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	require.NoError(e.t, e.devtools().send("", "Target.attachToTarget", map[string]any{"targetId": targetID, "flatten": true}, &attached))
	return &person{t: e.t, c: e.devtools(), session: attached.SessionID}
}

// eval evaluates expression in the page (awaited) into out, which may be nil.
func (p *person) eval(expression string, out any) error {
	return p.c.evaluate(p.session, expression, out)
}

// sees reports whether expression is true in the page now.
func (p *person) sees(expression string) bool {
	var ok bool
	return p.eval("!!("+expression+")", &ok) == nil && ok
}

// waitFor waits until expression is true in the page.
func (p *person) waitFor(expression string) {
	p.t.Helper()
	require.Eventually(p.t, func() bool { return p.sees(expression) }, 15*time.Second, 50*time.Millisecond, "never saw %s", expression)
}

// click presses the mouse on the middle of the element selector finds (the
// page's document; for the side panel, that is the extension's page).
func (p *person) click(selector string) {
	p.t.Helper()
	var at struct{ X, Y float64 }
	require.NoError(p.t, p.eval(fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		el.scrollIntoView({block: 'center'});
		const r = el.getBoundingClientRect();
		return {x: r.x + r.width / 2, y: r.y + r.height / 2};
	})()`, selector), &at), "click %s", selector)
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		require.NoError(p.t, p.c.send(p.session, "Input.dispatchMouseEvent", map[string]any{
			"type": typ, "x": at.X, "y": at.Y, "button": "left", "clickCount": 1,
		}, nil))
	}
}

// typeText types text key by key into whatever has focus.
func (p *person) typeText(text string) {
	p.t.Helper()
	for _, r := range text {
		for _, typ := range []string{"keyDown", "keyUp"} {
			params := map[string]any{"type": typ, "key": string(r)}
			if typ == "keyDown" {
				params["text"] = string(r)
			}
			require.NoError(p.t, p.c.send(p.session, "Input.dispatchKeyEvent", params, nil))
		}
	}
}

// pressEnter presses Enter.
func (p *person) pressEnter() {
	for _, typ := range []string{"rawKeyDown", "char", "keyUp"} {
		params := map[string]any{"type": typ, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13}
		if typ == "char" {
			params["text"] = "\r"
		}
		require.NoError(p.t, p.c.send(p.session, "Input.dispatchKeyEvent", params, nil))
	}
}

// cdpNode is a node of DOM.getDocument's tree.
type cdpNode struct {
	NodeID      int       `json:"nodeId"`
	NodeName    string    `json:"nodeName"`
	NodeValue   string    `json:"nodeValue"`
	Children    []cdpNode `json:"children"`
	ShadowRoots []cdpNode `json:"shadowRoots"`
}

// clickButton presses the button whose text is label wherever it is, closed
// shadow roots included (the banner's): DevTools sees into them, as the
// person's eyes do, though the page's scripts cannot.
func (p *person) clickButton(label string) {
	p.t.Helper()
	var doc struct {
		Root cdpNode `json:"root"`
	}
	require.NoError(p.t, p.c.send(p.session, "DOM.getDocument", map[string]any{"depth": -1, "pierce": true}, &doc))
	var find func(n cdpNode) int
	find = func(n cdpNode) int {
		if n.NodeName == "BUTTON" {
			for _, c := range n.Children {
				if strings.TrimSpace(c.NodeValue) == label {
					return n.NodeID
				}
			}
		}
		for _, c := range append(n.ShadowRoots, n.Children...) {
			if id := find(c); id != 0 {
				return id
			}
		}
		return 0
	}
	id := find(doc.Root)
	require.NotZero(p.t, id, "no button %q on the page", label)
	var box struct {
		Model struct {
			Content []float64 `json:"content"`
		} `json:"model"`
	}
	require.NoError(p.t, p.c.send(p.session, "DOM.getBoxModel", map[string]any{"nodeId": id}, &box))
	q := box.Model.Content // four corners, x y x y ...
	x, y := (q[0]+q[4])/2, (q[1]+q[5])/2
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		require.NoError(p.t, p.c.send(p.session, "Input.dispatchMouseEvent", map[string]any{
			"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1,
		}, nil))
	}
}
