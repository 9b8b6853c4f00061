package handoff

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestDiffSnapshots(t *testing.T) {
	login := Snapshot{URL: "http://127.0.0.1/login", Title: "Login", Origin: "http://127.0.0.1",
		CookieCount: 1, LocalStorageKeys: []string{"b", "a"}, DOMFingerprint: "fnv1a64:1"}
	tests := []struct {
		name    string
		after   func(s Snapshot) Snapshot
		want    Delta
		summary string
	}{
		{"nothing", func(s Snapshot) Snapshot { return s }, Delta{},
			"url unchanged; title unchanged; origin unchanged; cookie count unchanged (1 -> 1); storage keys unchanged (+0, -0); DOM fingerprint unchanged"},
		{"key order is not a change", func(s Snapshot) Snapshot {
			s.LocalStorageKeys = []string{"a", "b"}
			return s
		}, Delta{},
			"url unchanged; title unchanged; origin unchanged; cookie count unchanged (1 -> 1); storage keys unchanged (+0, -0); DOM fingerprint unchanged"},
		{"logged in", func(s Snapshot) Snapshot {
			s.URL, s.Title, s.CookieCount = "http://127.0.0.1/secure", "Secure Area", 2
			s.LocalStorageKeys, s.DOMFingerprint = []string{"a", "session"}, "fnv1a64:2"
			return s
		}, Delta{URL: true, Title: true, CookieCount: true, StorageKeys: true, DOMFingerprint: true},
			"url changed; title changed; origin unchanged; cookie count changed (1 -> 2); storage keys changed (+1, -1); DOM fingerprint changed"},
		{"elsewhere", func(s Snapshot) Snapshot {
			s.URL, s.Origin = "https://id.example/", "https://id.example"
			return s
		}, Delta{URL: true, Origin: true},
			"url changed; title unchanged; origin changed; cookie count unchanged (1 -> 1); storage keys unchanged (+0, -0); DOM fingerprint unchanged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after := tt.after(login)
			d := diff(login, after)
			assert.Equal(t, tt.want, d)
			assert.Equal(t, tt.summary, summarize(login, after, d))
		})
	}
}

func TestResumeHintAndInstructionLine(t *testing.T) {
	changed := Delta{URL: true}
	assert.Equal(t, "The page changed: call read_page on tab 7 before the next step; do not log in again.",
		resumeHint("login", 7, Snapshot{}, changed))
	assert.Contains(t, resumeHint("login", 7, Snapshot{}, Delta{}), "Nothing on tab 7 changed")
	assert.Contains(t, resumeHint("captcha", 7, Snapshot{Gone: "no tab 7"}, changed), "Tab 7 is gone")

	now := time.Date(2026, 11, 21, 14, 0, 0, 0, time.UTC)
	assert.Equal(t, "Handoff (2fa): please enter the 2FA code in tab 3 (code from the phone), then press Finish "+
		"in the OpenChrome banner or side panel by 2026-11-21T14:10:00Z (in 10m0s).",
		InstructionLine("2fa", "code from the phone", 3, now.Add(10*time.Minute), now))
}
