package engine

import (
	"slices"
	"strings"
)

// browserKey is what a key chord does in the browser itself rather than in
// the page (F5 reloads, ctrl+W closes the tab), and the tool that does it.
// Keys an agent sends reach only the page, so a press of one that changed
// nothing says so and names the call instead of leaving the agent to wait
// for a reload that will not come.
type browserKey struct {
	does string
	tool string
	args map[string]any // besides tabId, which tabbed tools get
	tab  bool           // the call takes the tab
}

// browserKeys are the chords by modifiers ("ctrl", "ctrl+shift", "alt",
// "shift" or "", in that order; cmd is ctrl, as on a Mac) and key.
var browserKeys = map[string]browserKey{
	"f5":             {"reloads the page", "navigate", map[string]any{"url": "reload"}, true},
	"shift+f5":       {"reloads the page", "navigate", map[string]any{"url": "reload"}, true},
	"ctrl+f5":        {"reloads the page", "navigate", map[string]any{"url": "reload"}, true},
	"ctrl+r":         {"reloads the page", "navigate", map[string]any{"url": "reload"}, true},
	"ctrl+shift+r":   {"reloads the page", "navigate", map[string]any{"url": "reload"}, true},
	"alt+arrowleft":  {"goes back", "navigate", map[string]any{"url": "back"}, true},
	"ctrl+[":         {"goes back", "navigate", map[string]any{"url": "back"}, true},
	"alt+arrowright": {"goes forward", "navigate", map[string]any{"url": "forward"}, true},
	"ctrl+]":         {"goes forward", "navigate", map[string]any{"url": "forward"}, true},
	"ctrl+t":         {"opens a tab", "tabs_create", map[string]any{}, false},
	"ctrl+n":         {"opens a window", "tabs_create", map[string]any{}, false},
	"ctrl+shift+n":   {"opens a window", "tabs_create", map[string]any{}, false},
	"ctrl+w":         {"closes the tab", "tabs_close", map[string]any{}, true},
	"ctrl+f4":        {"closes the tab", "tabs_close", map[string]any{}, true},
	"ctrl+tab":       {"goes to another tab", "tabs_context", map[string]any{}, false},
	"ctrl+shift+tab": {"goes to another tab", "tabs_context", map[string]any{}, false},
	"ctrl+pagedown":  {"goes to another tab", "tabs_context", map[string]any{}, false},
	"ctrl+pageup":    {"goes to another tab", "tabs_context", map[string]any{}, false},
	"ctrl+l":         {"goes to the address bar", "navigate", nil, true},
	"alt+d":          {"goes to the address bar", "navigate", nil, true},
	"f6":             {"goes to the address bar", "navigate", nil, true},
	"ctrl+p":         {"prints the page", "page_pdf", map[string]any{}, true},
	"ctrl+j":         {"shows the downloads", "downloads", map[string]any{}, false},
	"f12":            {"opens DevTools", "console_messages", map[string]any{}, true},
	"ctrl+shift+i":   {"opens DevTools", "console_messages", map[string]any{}, true},
	"ctrl+shift+j":   {"opens DevTools", "console_messages", map[string]any{}, true},
	"ctrl+1":         {"goes to another tab", "tabs_context", map[string]any{}, false}, // and every ctrl+digit
	"ctrl+shift+t":   {"reopens a closed tab", "tabs_create", map[string]any{}, false},
	"ctrl+shift+del": {"clears browsing data", "", nil, false},
	"ctrl+shift+q":   {"quits the browser", "", nil, false},
	"ctrl+q":         {"quits the browser", "", nil, false},
	"alt+f4":         {"closes the window", "", nil, false},
	"ctrl+shift+w":   {"closes the window", "", nil, false},
}

// browserShortcut says, of a chord as press or computer key take it
// ("F5", "Control+w", "cmd+Shift+T", "alt+Left"), what it does in the
// browser and the call that does that on tab, if it is one of the
// browser's own.
func browserShortcut(tab int, chord string) (does string, next []nextAction) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(chord)), "+")
	if len(parts) == 0 || parts[len(parts)-1] == "" {
		return "", nil
	}
	key := parts[len(parts)-1]
	switch key {
	case "left", "right":
		key = "arrow" + key
	case "delete":
		key = "del"
	}
	var mods []string
	for _, m := range parts[:len(parts)-1] {
		switch m {
		case "control", "ctrl", "cmd", "command", "meta", "super":
			m = "ctrl"
		case "option":
			m = "alt"
		}
		if !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	order := []string{"ctrl", "alt", "shift"}
	slices.SortFunc(mods, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
	if len(mods) == 1 && mods[0] == "ctrl" && len(key) == 1 && key >= "1" && key <= "9" {
		key = "1" // every ctrl+digit goes to a tab
	}
	k, ok := browserKeys[strings.Join(append(mods, key), "+")]
	if !ok {
		return "", nil
	}
	does = chord + " " + k.does + " in a browser, which keys sent to the page do not do"
	if k.tool == "" {
		return does, nil
	}
	args := map[string]any{}
	for name, v := range k.args {
		args[name] = v
	}
	if k.tab {
		args["tabId"] = tab
	}
	if k.args == nil {
		// No exact call: the tool is named, its arguments are the agent's.
		return does + "; " + k.tool + " does it", nil
	}
	return does, []nextAction{{Tool: k.tool, Args: args}}
}
