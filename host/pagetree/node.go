package pagetree

import (
	"strconv"
	"strings"

	"github.com/openchrome/openchrome/protocol"
)

// Node is one node of a page's tree as the extension's page script reads it
// (extension/page/): an element with its role, accessible name, the
// states that matter and a ref when an agent can act on it, or a run of text.
type Node struct {
	Role     string `json:"role,omitempty"`
	Name     string `json:"name,omitempty"`
	Text     string `json:"text,omitempty"`
	Ref      int    `json:"ref,omitempty"`
	Level    int    `json:"level,omitempty"`
	Checked  string `json:"checked,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	Expanded *bool  `json:"expanded,omitempty"`
	Selected bool   `json:"selected,omitempty"`
	Required bool   `json:"required,omitempty"`
	Invalid  bool   `json:"invalid,omitempty"`  // aria-invalid, or :user-invalid
	Readonly bool   `json:"readonly,omitempty"` // shown and focusable, but takes no typing
	Modal    bool   `json:"modal,omitempty"`    // a dialog that makes the rest of the page inert
	Title    string `json:"title,omitempty"`    // the tooltip of a control named only by a symbol
	Current  bool   `json:"current,omitempty"`  // aria-current: the page, step or tab a person is on
	Active   bool   `json:"active,omitempty"`   // the option the focused element points at
	Sort     string `json:"sort,omitempty"`     // aria-sort of a header: ascending, descending, other
	Value    string `json:"value,omitempty"`
	// Options: a closed select's options by label, which a person sees
	// only once its list opens; MoreOptions, how many more it has.
	Options     []string   `json:"options,omitempty"`
	MoreOptions int        `json:"moreOptions,omitempty"`
	Secret      string     `json:"secret,omitempty"` // "password" or "secret": the value is never read
	Href        string     `json:"href,omitempty"`
	Frame       *FrameInfo `json:"frame,omitempty"`
	Inline      bool       `json:"inline,omitempty"` // flows in a line of text, as a link in a paragraph
	// Clickable: no role says so, but a script listens for its clicks.
	Clickable bool `json:"clickable,omitempty"`
	// Gesture: the interact action a clickable answers when a click
	// reaches none of its listeners (see KnownGesture).
	Gesture string `json:"gesture,omitempty"`
	// Draggable: no role says so, but it can be dragged (draggable="true").
	Draggable bool `json:"draggable,omitempty"`
	// Scrollable: a pane that scrolls up and down and holds more than it
	// shows; its ref is what to scroll.
	Scrollable bool   `json:"scrollable,omitempty"`
	Kids       []Node `json:"kids,omitempty"`
}

// FrameInfo says where an iframe's content comes from.
type FrameInfo struct {
	URL         string `json:"url"`
	CrossOrigin bool   `json:"crossOrigin,omitempty"`
	Unreadable  bool   `json:"unreadable,omitempty"`
}

// FindRef returns the node with ref in nodes.
func FindRef(nodes []Node, ref int) *Node {
	for i := range nodes {
		if nodes[i].Ref == ref {
			return &nodes[i]
		}
		if n := FindRef(nodes[i].Kids, ref); n != nil {
			return n
		}
	}
	return nil
}

// ParseRef reads an agent's ref: "e12", "[e12]" or "12", and as Playwright
// MCP writes them, "ref=e12" and "[ref=e12]".
func ParseRef(ref string) (int, error) {
	s := strings.Trim(strings.TrimSpace(ref), "[]")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "ref="), "e")
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, protocol.Errorf(protocol.CodeBadRequest, "%q is not a ref", ref).
			WithHint("refs look like e12; call read_page or find")
	}
	return n, nil
}

// KnownGesture reports whether g is a gesture the page script marks an
// element with, and interact can make: "double_click" or "right_click".
// Another word from a newer extension says nothing an agent can act on.
func KnownGesture(g string) bool { return g == "double_click" || g == "right_click" }
