package handoff

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Snapshot is what a handoff keeps of a tab before and after the
// person had it: only what shows that something happened, never what they
// typed or what a cookie or storage entry holds.
type Snapshot struct {
	URL       string `json:"url"`
	Title     string `json:"title,omitempty"`
	Origin    string `json:"origin,omitempty"`
	Timestamp int64  `json:"timestamp"` // ms since the epoch
	// ScreenshotRef is the screenshot's path, when one was asked for.
	ScreenshotRef    string   `json:"screenshot_ref,omitempty"`
	CookieCount      int      `json:"cookie_count"`
	LocalStorageKeys []string `json:"local_storage_keys"`
	DOMFingerprint   string   `json:"dom_fingerprint,omitempty"`
	// Gone says the tab could not be read (closed, or left the group).
	Gone string `json:"gone,omitempty"`
}

// Delta says, field by field, what changed between two snapshots.
type Delta struct {
	URL            bool `json:"url_changed"`
	Title          bool `json:"title_changed"`
	Origin         bool `json:"origin_changed"`
	CookieCount    bool `json:"cookie_count_changed"`
	StorageKeys    bool `json:"storage_keys_changed"`
	DOMFingerprint bool `json:"dom_fingerprint_changed"`
}

func (d Delta) any() bool {
	return d.URL || d.Title || d.Origin || d.CookieCount || d.StorageKeys || d.DOMFingerprint
}

func diff(before, after Snapshot) Delta {
	return Delta{
		URL:            before.URL != after.URL,
		Title:          before.Title != after.Title,
		Origin:         before.Origin != after.Origin,
		CookieCount:    before.CookieCount != after.CookieCount,
		StorageKeys:    !slices.Equal(sortedCopy(before.LocalStorageKeys), sortedCopy(after.LocalStorageKeys)),
		DOMFingerprint: before.DOMFingerprint != after.DOMFingerprint,
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// summarize writes the delta as one line, the same fields in the same order
// every time, so that an agent (or a test) can read it without guessing.
// Counts are shown; key names are not (a key name can be an identifier).
func summarize(before, after Snapshot, d Delta) string {
	word := func(changed bool) string {
		if changed {
			return "changed"
		}
		return "unchanged"
	}
	added, removed := keyChanges(before.LocalStorageKeys, after.LocalStorageKeys)
	parts := []string{
		"url " + word(d.URL),
		"title " + word(d.Title),
		"origin " + word(d.Origin),
		fmt.Sprintf("cookie count %s (%d -> %d)", word(d.CookieCount), before.CookieCount, after.CookieCount),
		fmt.Sprintf("storage keys %s (+%d, -%d)", word(d.StorageKeys), added, removed),
		"DOM fingerprint " + word(d.DOMFingerprint),
	}
	return strings.Join(parts, "; ")
}

// keyChanges counts the keys after has that before has not, and the other
// way round.
func keyChanges(before, after []string) (added, removed int) {
	for _, k := range after {
		if !slices.Contains(before, k) {
			added++
		}
	}
	for _, k := range before {
		if !slices.Contains(after, k) {
			removed++
		}
	}
	return added, removed
}

// resumeHint tells the agent what to do next, from what changed. The point
// is to stop it from redoing what the person just did.
func resumeHint(reason string, tab int, after Snapshot, d Delta) string {
	switch {
	case after.Gone != "":
		return fmt.Sprintf("Tab %d is gone (%s): call tabs_context to see the tabs there are, then read_page.", tab, after.Gone)
	case !d.any():
		return fmt.Sprintf("Nothing on tab %d changed: the person may not have done it. Ask them, or call oc_handoff_start again.", tab)
	}
	what := "redo what the person did"
	switch reason {
	case "login":
		what = "log in"
	case "2fa":
		what = "enter a code"
	case "captcha":
		what = "solve the CAPTCHA"
	case "permission":
		what = "ask for the permission"
	}
	return fmt.Sprintf("The page changed: call read_page on tab %d before the next step; do not %s again.", tab, what)
}

// Reasons are the reasons a handoff may give, in the schema's order.
func Reasons() []string {
	return []string{"login", "2fa", "captcha", "permission", "manual_recovery", "other"}
}

// reasonLabel says what the person is asked to do.
func reasonLabel(reason string) string {
	switch reason {
	case "login":
		return "log in"
	case "2fa":
		return "enter the 2FA code"
	case "captcha":
		return "solve the CAPTCHA"
	case "permission":
		return "grant the permission"
	case "manual_recovery":
		return "help the agent with this page"
	}
	return "take over"
}

// InstructionLine is the one line an agent can pass on to the person: the
// reason, the instruction, where to press Finish and the deadline.
func InstructionLine(reason, instruction string, tab int, deadline, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Handoff (%s): please %s in tab %d", reason, reasonLabel(reason), tab)
	if instruction != "" {
		fmt.Fprintf(&b, " (%s)", instruction)
	}
	fmt.Fprintf(&b, ", then press Finish in the OpenChrome banner or side panel by %s (in %s).",
		deadline.UTC().Format(time.RFC3339), deadline.Sub(now).Round(time.Second))
	return b.String()
}
