package browser

// Point is a position in CSS pixels of a tab's viewport.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Input is the params of the input.* actions: raw mouse and keyboard at
// viewport coordinates.
type Input struct {
	TabID  int     `json:"tabId"`
	At     *Point  `json:"at,omitempty"`
	To     *Point  `json:"to,omitempty"`
	Button string  `json:"button,omitempty"`
	Count  int     `json:"count,omitempty"`
	Text   string  `json:"text,omitempty"`
	Key    string  `json:"key,omitempty"`
	DX     float64 `json:"dx,omitempty"`
	DY     float64 `json:"dy,omitempty"`
}

// Inputted is where the tab is after raw input, and whether the input
// navigated it or opened a dialog.
type Inputted struct {
	// Changes: the page's own account of what the input did to its top
	// document ("2 elements shown"), when no navigation or dialog says more.
	Changes   string       `json:"changes,omitempty"`
	Closed    bool         `json:"closed,omitempty"` // the page closed its own tab
	Dialog    string       `json:"dialog,omitempty"`
	Downloads []Started    `json:"downloads,omitempty"` // downloads the input started
	Chooser   *FileChooser `json:"fileChooser,omitempty"`
	// FrameNavigated: where a frame went when the input took it to
	// another document (a click on a link in an iframe); the page stayed.
	FrameNavigated string `json:"frameNavigated,omitempty"`
	Navigated      bool   `json:"navigated"`
	// Navigating: where the navigation the input started is going, when
	// the server had not answered it by the time the extension stopped
	// waiting; URL and Title are still the page it leaves.
	Navigating string `json:"navigating,omitempty"`
	// NavigationBlocked: the site policy stopped the navigation the input
	// started, before it left the browser.
	NavigationBlocked *Refused `json:"navigationBlocked,omitempty"`
	Opened            []int    `json:"opened,omitempty"` // tabs the input opened, now the agent's
	// RequestsRunning: requests the input started that had not ended when
	// the extension stopped waiting for them.
	RequestsRunning int `json:"requestsRunning,omitempty"`
	// FailedRequests, RequestErrors and Status: as an element action's
	// (Acted).
	FailedRequests []FailedRequest `json:"failedRequests,omitempty"`
	RequestErrors  []string        `json:"requestErrors,omitempty"`
	Status         int             `json:"status,omitempty"`
	Title          string          `json:"title"`
	// Typed: how much of type's text went to the page before the page
	// opened a dialog on a key; the rest was not typed.
	Typed string `json:"typed,omitempty"`
	URL   string `json:"url"`
}

// InputAction sends raw input: action is click, move, drag, type, key or
// scroll (the wire action is input.<action>).
func InputAction(action string, in Input) Command[Inputted] {
	return command[Inputted]("input."+action, in, 0)
}

// Viewport is a tab's viewport in CSS pixels.
type Viewport struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	DPR    float64 `json:"dpr"`
}

// InputViewport reads tab's viewport size.
func InputViewport(tab int) Command[Viewport] {
	return command[Viewport]("input.viewport", tabParams{tab}, 0)
}
