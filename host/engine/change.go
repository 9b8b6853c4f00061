package engine

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/protocol"
)

// change is what an acting tool says happened, compactly: its type, one
// line, and where there is an obvious next call, that call (the tool
// contract of the seeds' agent-browser-tool-contract-diff). It is paid for
// on every call, so it says nothing the type does not need.
type change struct {
	// Type is navigation, new_tab, dialog, file_chooser, download,
	// tab_closed, dom or none: the weightiest thing that happened.
	Type    string `json:"type"`
	Summary string `json:"summary"`
}

// nextAction is a call the agent will likely make next, exactly.
type nextAction struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

// effects are the facts of what one input did, from element.act or input.*.
type effects struct {
	navigated  bool
	navigating string // where a navigation no server has answered yet is going
	frame      string // where the element's frame went: the page around it stayed
	url        string
	closed     bool
	opener     int // the tab that opened the one that closed, now current
	dialog     string
	opened     []int
	downloads  []browser.Started
	chooser    *browser.FileChooser
	changes    string   // the page's own account: "2 elements added"
	threw      bool     // the page threw while it handled the input
	failed     []string // requests the input started that failed: "POST /api/save: 500"
	status     int      // the status of 400 or more the server answered a navigation with
	running    int      // requests the input started, still running when the extension stopped waiting
	wrote      bool     // a control took the text or option the input gave it
	stayed     string   // a box check or uncheck was for kept its state: "unchecked"
	answered   string   // the dialog the input answered
	focused    string   // where a key moved the focus: `textbox "Bio" e9`
	offers     int      // the options a combobox's list showed for the text, after a pause
	key        string   // the chord a press or a computer key sent
	// A click on an element whose script hears only this gesture
	// (double_click, right_click), and the element's ref.
	gesture, ref string
	// A closed select that was clicked: its ref, value and options.
	selectRef, value string
	options          []string
}

func actedEffects(a browser.Acted) effects {
	e := effects{closed: a.Closed, opener: a.Opener, dialog: a.Dialog, opened: a.Opened, downloads: a.Downloads, chooser: a.Chooser, changes: a.Changes,
		threw: len(a.PageErrors) > 0, failed: a.RequestErrors, status: a.Status, answered: a.Answered, navigating: a.Navigating, frame: a.FrameNavigated}
	if a.Navigated != nil {
		e.navigated = *a.Navigated
	}
	if a.URL != nil {
		e.url = *a.URL
	}
	switch a.Action {
	case "fill", "type", "clear", "select":
		e.wrote = (a.Verified == nil || *a.Verified) && (len(a.Value) > 0 || a.ValueSet)
	case "check", "uncheck":
		if a.Verified != nil && !*a.Verified && a.Checked != nil {
			e.stayed = "unchecked"
			if *a.Checked {
				e.stayed = "checked"
			}
		}
	}
	e.offers = len(a.Offers) + a.MoreOffers
	if pagetree.KnownGesture(a.Gesture) {
		e.gesture, e.ref = a.Gesture, a.Ref
	}
	if a.Action == "press" {
		e.key = a.Key
	}
	if a.Focused != nil {
		e.focused = a.Focused.Name + " " + a.Focused.Ref
	}
	if len(a.Options) > 0 {
		e.selectRef, e.options = a.Ref, a.Options
		_ = json.Unmarshal(a.Value, &e.value) // a closed select's is a string
	}
	return e
}

func inputEffects(in browser.Inputted) effects {
	return effects{navigated: in.Navigated, navigating: in.Navigating, frame: in.FrameNavigated, url: in.URL, closed: in.Closed, dialog: in.Dialog,
		opened: in.Opened, downloads: in.Downloads, chooser: in.Chooser, running: in.RequestsRunning, changes: in.Changes,
		failed: in.RequestErrors, status: in.Status}
}

// valueSet is a write's summary when nothing but the control's value changed.
const valueSet = "input delivered; the value is set, nothing else changed"

// saidIn reports whether summary already says what the page's account
// changes says, so a result need not carry both: every call pays for it.
// "No visible change" is what valueSet and "input delivered" say.
func saidIn(summary, changes string) bool {
	return strings.Contains(summary, strings.TrimPrefix(changes, "no visible change"))
}

// changeOf says what input on tab did, and the call that obviously comes
// next.
func changeOf(tab int, e effects) (change, []nextAction) {
	onTab := func(tool string, args map[string]any) nextAction {
		args["tabId"] = tab
		return nextAction{Tool: tool, Args: args}
	}
	switch {
	case e.dialog != "":
		return change{"dialog", "a dialog opened: " + e.dialog}, []nextAction{
			onTab("interact", map[string]any{"action": "accept_dialog"}),
			onTab("interact", map[string]any{"action": "dismiss_dialog"}),
		}
	case e.chooser != nil:
		return change{"file_chooser", "a file chooser opened (none shows)"}, []nextAction{
			onTab("upload_file", map[string]any{"paths": []string{"/absolute/path"}}),
		}
	case len(e.downloads) > 0:
		names := make([]string, len(e.downloads))
		for i, d := range e.downloads {
			names[i] = d.Name
		}
		return change{"download", "download started: " + strings.Join(names, ", ")}, []nextAction{
			{Tool: "downloads", Args: map[string]any{"tabId": tab, "waitMs": 10000}},
		}
	case len(e.opened) > 0:
		last := e.opened[len(e.opened)-1]
		return change{"new_tab", fmt.Sprintf("opened tab %d, now the current tab", last)}, []nextAction{
			{Tool: "read_page", Args: map[string]any{"tabId": last}},
		}
	case e.closed && e.opener != 0:
		return change{"tab_closed", fmt.Sprintf("the page closed its own tab; tab %d, which opened it, is the current tab", e.opener)},
			[]nextAction{{Tool: "read_page", Args: map[string]any{"tabId": e.opener}}}
	case e.closed:
		return change{"tab_closed", "the page closed its own tab"}, []nextAction{
			{Tool: "tabs_context", Args: map[string]any{}},
		}
	case e.navigating != "":
		// Sent, and never to be sent again: the old page still shows while
		// the server works on its answer. A form that posts to its own
		// address has no new URL to wait for.
		c := change{"navigation", "navigating to " + e.navigating + ": no answer from the server yet; the page shown is the one it leaves"}
		if e.navigating == e.url {
			return c, nil
		}
		// A masked secret in the address is waited for as any text there.
		url := strings.ReplaceAll(e.navigating, redact.Mask, "*")
		return c, []nextAction{onTab("wait_for", map[string]any{"url": url, "timeoutMs": 60000})}
	case e.navigated && e.status >= 400:
		// The page shown is the server's error page: a link to a page that
		// is gone, a form it turned down.
		return change{"navigation", fmt.Sprintf("navigated to %s; the server answered %d %s", e.url, e.status, http.StatusText(e.status))},
			[]nextAction{onTab("read_page", map[string]any{})}
	case e.navigated:
		return change{"navigation", "navigated to " + e.url}, []nextAction{onTab("read_page", map[string]any{})}
	case e.frame != "":
		// Its refs are stale, the page's others stand.
		return change{"navigation", "its frame navigated to " + e.frame + "; the page around it stays"},
			[]nextAction{onTab("read_page", map[string]any{})}
	case len(e.options) > 0:
		// Whatever the click drew, it is in the browser's own list, which
		// neither read_page nor input to the page reaches.
		pick := e.options[0]
		for _, o := range e.options {
			if o != e.value {
				pick = o
				break
			}
		}
		return change{"none", "input delivered; a select's list is the browser's own: pick with interact select, from " + strings.Join(e.options, ", ")},
			[]nextAction{onTab("interact", map[string]any{"action": "select", "ref": e.selectRef, "values": []string{pick}})}
	case e.offers > 0 && (e.changes == "" || strings.HasPrefix(e.changes, "no visible change")):
		// The page's account was taken before a debounced list drew.
		return change{"dom", fmt.Sprintf("input delivered; its list shows %d option(s): offers", e.offers)}, nil
	case e.gesture != "" && (e.changes == "" || strings.HasPrefix(e.changes, "no visible change")):
		// The click reached no listener: what the page listens for is
		// another gesture.
		return change{"none", "input delivered; no visible change: its script listens for a " +
				strings.ReplaceAll(e.gesture, "_", " ") + ", not a click" + troubleNote(e)},
			[]nextAction{onTab("interact", map[string]any{"action": e.gesture, "ref": e.ref})}
	case e.changes == "" && e.running > 0:
		return change{"none", fmt.Sprintf("input delivered; %d request(s) it started still running", e.running) + troubleNote(e)}, nil
	case e.answered != "" && (e.changes == "" || strings.HasPrefix(e.changes, "no visible change")):
		return change{"none", "answered " + e.answered + troubleNote(e)}, nil
	case e.answered != "":
		// What the page did once it ran on, seen by the watch of the
		// input that opened the dialog: a confirmed Delete's row gone.
		return change{"dom", "answered " + e.answered + "; " + e.changes + troubleNote(e)}, nil
	case e.focused != "" && (e.changes == "" || strings.HasPrefix(e.changes, "no visible change")):
		return change{"none", "input delivered; the focus moved to " + e.focused + troubleNote(e)}, nil
	case e.changes == "":
		// Raw input has no watch on the page: it cannot say.
		return unshortcut(tab, e.key, change{"none", "input delivered"})
	case !strings.HasPrefix(e.changes, "no visible change") && e.focused != "":
		return change{"dom", e.changes + "; the focus moved to " + e.focused + troubleNote(e)}, nil
	case !strings.HasPrefix(e.changes, "no visible change"):
		return change{"dom", e.changes + troubleNote(e)}, nil
	}
	// The page's account may say more: "no visible change: the page did
	// not move…". A control's own value is not counted in it.
	summary := "input delivered; " + e.changes
	if e.stayed != "" {
		// The click went, once; the page's handler undid it or stopped it.
		summary = "input delivered; it stayed " + e.stayed + ": the page kept it so" + strings.TrimPrefix(e.changes, "no visible change")
	}
	if e.wrote {
		summary = valueSet + strings.TrimPrefix(e.changes, "no visible change")
	}
	// Nothing changed because the page's own handler failed: say so, or
	// the agent tries again and again.
	return unshortcut(tab, e.key, change{"none", summary + troubleNote(e)})
}

// troubleNote says that the page threw while it handled the input, or that
// a request it sent failed: what did change (a timer's, another script's,
// a spinner gone) may not be what the input was for, and a Save the server
// refused often draws nothing at all.
func troubleNote(e effects) string {
	var note string
	if e.threw {
		note = "; the page threw an error (pageErrors)"
	}
	switch len(e.failed) {
	case 0:
	case 1:
		note += "; a request it sent failed: " + e.failed[0] + " (requestErrors)"
	default:
		note += fmt.Sprintf("; %d requests it sent failed, the first %s (requestErrors)", len(e.failed), e.failed[0])
	}
	return note
}

// byKeyboard is the way to an element no click of a person's reaches: the
// keyboard's, as they would go.
func byKeyboard(ref string) string {
	return fmt.Sprintf("reach %s by keyboard as a person would (interact action focus, ref %s, then press Enter), "+
		"or call oc_handoff_start with reason manual_recovery", ref, ref)
}

// unshortcut adds to a key's change that nothing happened what the key does
// in a browser, when it is one of the browser's own chords, and the call
// that does it.
func unshortcut(tab int, key string, ch change) (change, []nextAction) {
	if key == "" {
		return ch, nil
	}
	does, next := browserShortcut(tab, key)
	if does != "" {
		ch.Summary += ": " + does
	}
	return ch, next
}

// blockedError is the error of an action something covered: nothing was
// done, and the hint names the call that would clear the way.
func blockedError(a browser.Acted) *protocol.Error {
	by := "something else"
	if a.Blocked.By != nil {
		by = fmt.Sprintf("%s %s", a.Blocked.By.Name, a.Blocked.By.Ref)
	}
	if a.Blocked.PassThrough {
		// Nothing covers it: the page turned its clicks off (pointer-events:
		// none), so a person's click would go to what holds it, or nowhere.
		if a.Blocked.By == nil {
			return protocol.Errorf(protocol.CodeConflict, "%s takes no clicks (the page turned them off): nothing was done", a.Target).
				WithHint("a person cannot click it either; pages do this to a control that is not ready: do what readies it first, " +
					"or call oc_handoff_start with reason manual_recovery")
		}
		return protocol.Errorf(protocol.CodeConflict, "%s takes no clicks: they go through it to %s; nothing was done", a.Target, by).
			WithHint(fmt.Sprintf("click %s if that is what you mean, or call oc_handoff_start with reason manual_recovery", a.Blocked.By.Ref))
	}
	e := protocol.Errorf(protocol.CodeConflict, "%s is covered by %s: nothing was done", a.Target, by)
	escape := ""
	if a.Blocked.Escapes {
		escape = " (or press Escape: interact action press, key Escape)"
	}
	switch d := a.Blocked.Dismiss; {
	case len(d) > 0:
		return e.WithHint(fmt.Sprintf("click %s (%s) to dismiss it%s, then act again", d[0].Ref, d[0].Name, escape))
	case len(a.Blocked.Asks) > 0:
		answers := make([]string, len(a.Blocked.Asks))
		for i, c := range a.Blocked.Asks {
			answers[i] = c.Name + " " + c.Ref
		}
		return e.WithHint("it asks a question: answer it with one of " + strings.Join(answers, ", ") +
			" (or ask the person which), then act again")
	}
	if a.Blocked.Pinned && a.Ref != "" {
		// A person's click cannot reach it; their keyboard can.
		return e.WithHint("it is fixed over the page and nothing closes it; " + byKeyboard(a.Ref))
	}
	if a.Blocked.Unseen && a.Ref != "" {
		// Nothing to close, and nothing to see: the page's own leftover.
		e.Message = fmt.Sprintf("%s is covered by %s, a transparent layer a person does not see: nothing was done", a.Target, by)
		return e.WithHint("press Escape (interact action press, key Escape), or " + byKeyboard(a.Ref))
	}
	// No control of its own closes it: a newsletter box closed by Escape or
	// by a click beside it, a toast, a chat bubble.
	return e.WithHint("press Escape (interact action press, key Escape), which closes most overlays; " +
		"else wait_for it to go, or call oc_handoff_start with reason manual_recovery")
}
