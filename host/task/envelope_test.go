package task

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestObservationOrAction(t *testing.T) {
	tests := []struct {
		tool, computer string
		observes       bool
	}{
		{"read_page", "", true},
		{"find", "", true},
		{"tabs_context", "", true},
		{"page_screenshot", "", true},
		{"console_messages", "", true},
		{"network_requests", "", true},
		{"network_request", "", true},
		{"downloads", "", true},
		{"computer", "screenshot", true},
		{"computer", "left_click", false},
		{"navigate", "", false},
		{"interact", "", false},
		{"act", "", false},
		{"form_input", "", false},
		{"javascript_tool", "", false},
		{"wait_for", "", false},
		{"tabs_create", "", false},
		{"upload_file", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.computer, func(t *testing.T) {
			assert.Equal(t, tt.observes, Observes(tt.tool, tt.computer))
		})
	}
}

func TestAllowedDomains(t *testing.T) {
	p := Policy{AllowedDomains: []string{"example.com", "*.docs.test", "127.0.0.1"}}
	tests := []struct {
		url   string
		allow bool
	}{
		{"https://example.com/a", true},
		{"https://www.example.com/", true},
		{"https://a.b.example.com/", true},
		{"https://EXAMPLE.com./", true},
		{"https://notexample.com/", false},
		{"https://example.com.evil.test/", false},
		{"https://api.docs.test/x", true},
		{"https://docs.test/", true},
		{"http://127.0.0.1:8080/", true},
		{"http://127.0.0.2:8080/", false},
		{"file:///etc/passwd", false},
		{"about:blank", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.allow, p.Allows(tt.url), tt.url)
	}
	assert.True(t, Policy{}.Allows("https://anything.test/"), "no domains: no narrowing")
	require.NoError(t, p.Validate())
	for _, bad := range []string{"https://example.com", "example.com/x", " ", "a b"} {
		assert.Error(t, Policy{AllowedDomains: []string{bad}}.Validate(), bad)
	}
}

// tally adds calls under p's defaults.
func tally(p Policy, calls ...Call) Tally {
	var t Tally
	p = p.WithDefaults()
	for _, c := range calls {
		t.Add(p, c)
	}
	return t
}

func repeat(n int, c Call) []Call {
	out := make([]Call, n)
	for i := range out {
		out[i] = c
	}
	return out
}

var (
	read  = Call{Tool: "read_page", Kind: Observation, OK: true}
	look  = Call{Tool: "find", Kind: Observation, OK: true}
	click = Call{Tool: "interact", Kind: Action, OK: true}
	// looks are n observations that are not the same tool twice running.
	looks = func(n int) []Call {
		out := make([]Call, n)
		for i := range out {
			out[i] = []Call{read, look}[i%2]
		}
		return out
	}
)

func TestEachBudget(t *testing.T) {
	nav := func(u string) Call { return Call{Tool: "navigate", Kind: Action, OK: true, Navigated: u} }
	fail := Call{Tool: "interact", Kind: Action, Code: "stale_ref"}
	tests := []struct {
		name    string
		policy  Policy
		calls   []Call
		elapsed time.Duration
		status  string
		next    string
		warning string
	}{
		{"nothing yet", Policy{}, nil, 0, BudgetOK, "", ""},
		{"six looks are at the limit", Policy{}, looks(6), 0, BudgetNear, NextChangeStrategyOrVerify, ""},
		{"a seventh look wanders", Policy{}, looks(7), 0, BudgetExceeded, NextChangeStrategyOrVerify, WarnObservationStreak},
		{"the same read_page seven times", Policy{}, repeat(7, read), 0, BudgetExceeded, NextChangeStrategyOrVerify, WarnObservationStreak},
		{"acting resets the observation streak", Policy{}, append(looks(6), click, read), 0, BudgetOK, "", ""},
		{"the same tool six times", Policy{}, repeat(6, click), 0, BudgetExceeded, NextChangeStrategy, WarnSameTool},
		{"five failures in a row", Policy{}, repeat(5, fail), 0, BudgetExceeded, NextRecoverOrAskThePerson, WarnFailureStreak},
		{"exceeded outranks near", Policy{MaxToolCalls: 100}, append(repeat(80, click), repeat(5, fail)...), 0,
			BudgetExceeded, NextChangeStrategy, WarnFailureStreak},
		{"a success resets failures", Policy{MaxConsecutiveSameTool: 50}, append(repeat(4, fail), click), 0, BudgetOK, "", ""},
		{"a fourth navigation to one URL", Policy{},
			[]Call{nav("http://a/x"), nav("http://a/x#top"), read, nav("http://a/x"), click, nav("http://a/x")}, 0,
			BudgetExceeded, NextStopRevisiting, WarnSameURL},
		{"three to each of two URLs", Policy{MaxConsecutiveSameTool: 50},
			[]Call{nav("http://a/"), nav("http://b/"), nav("http://a/"), nav("http://b/"), nav("http://a/"), nav("http://b/")}, 0,
			BudgetNear, NextStopRevisiting, ""},
		{"calls near their budget", Policy{MaxToolCalls: 10}, append(repeat(4, read), read, click, read, click), 0, BudgetNear, NextFinish, ""},
		{"calls spent", Policy{MaxToolCalls: 3}, []Call{read, click, read}, 0, BudgetExceeded, NextFinish, ""},
		{"time near", Policy{MaxWallMs: 1000}, nil, 850 * time.Millisecond, BudgetNear, NextFinish, ""},
		{"time up", Policy{MaxWallMs: 1000}, nil, time.Second, BudgetExceeded, NextFinish, ""},
		{"a click that leaves the allowed domains", Policy{AllowedDomains: []string{"a.test"}},
			[]Call{{Tool: "interact", Kind: Action, OK: true, URL: "https://b.test/"}}, 0, BudgetOK, NextGoBack, WarnOffDomain},
		{"the extension suggests the person", Policy{},
			[]Call{{Tool: "interact", Kind: Action, OK: false, Code: "conflict", Handoff: true}}, 0, BudgetOK, NextHandoff, WarnHandoff},
		{"the last call's trouble comes first", Policy{},
			append(repeat(7, read), Call{Tool: "interact", Kind: Action, Handoff: true}), 0, BudgetOK, NextHandoff, WarnHandoff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.policy.WithDefaults()
			got := tally(p, tt.calls...)
			b := Assess(p, got, tt.elapsed)
			assert.Equal(t, tt.status, b.Level, "%+v", b)
			assert.Equal(t, tt.next, b.Next)
			if tt.status != BudgetOK {
				assert.NotEmpty(t, b.Why)
			}
			if tt.warning == "" {
				assert.Empty(t, got.Warnings)
			} else {
				require.NotEmpty(t, got.Warnings)
				assert.Equal(t, tt.warning, got.Warnings[len(got.Warnings)-1].Kind)
			}
		})
	}
}

func TestCounters(t *testing.T) {
	got := tally(Policy{}, read, read, click, Call{Tool: "interact", Kind: Action}, read)
	n := got.Counters
	assert.Equal(t, 5, n.Calls)
	assert.Equal(t, 3, n.Observations)
	assert.Equal(t, 2, n.Actions)
	assert.Equal(t, 1, n.Failures)
	assert.Equal(t, 1, n.ObservationStreak)
	assert.Equal(t, 0, n.FailureStreak)
	assert.Equal(t, 1, n.SameToolStreak)
	assert.Equal(t, "read_page", n.LastTool)

	long := tally(Policy{}, repeat(20, read)...)
	require.Len(t, long.Warnings, 2, "one warning per limit passed, not one per call after")
	assert.Equal(t, 6, long.Warnings[0].Call)
	assert.Equal(t, 7, long.Warnings[1].Call)
}

func TestHardBudgetsRefuse(t *testing.T) {
	assert.Empty(t, Hard(Policy{}, 1000, time.Hour), "no hard budget set")
	assert.Empty(t, Hard(Policy{MaxToolCalls: 3}, 2, 0))
	assert.Contains(t, Hard(Policy{MaxToolCalls: 3}, 3, 0), "all 3 calls")
	assert.Contains(t, Hard(Policy{MaxWallMs: 60000}, 0, time.Minute), "1m0s")
}
