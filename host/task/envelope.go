package task

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// KindEnvelope is the kind of a task record that is an envelope: an agent's
// declared objective and budgets, against which its browser calls count. No
// job runs in it; the agent does the work and OpenChrome keeps the count.
const KindEnvelope = "envelope"

// The phases an agent says its task is in.
const (
	PhaseExplore = "explore"
	PhaseAct     = "act"
	PhaseVerify  = "verify"
	PhaseRecover = "recover"
	PhaseDone    = "done"
)

// Phases lists the phases, in the order a task usually goes through them.
func Phases() []string {
	return []string{PhaseExplore, PhaseAct, PhaseVerify, PhaseRecover, PhaseDone}
}

// Policy is what an envelope allows (the seed's TaskEnvelopePolicy). A zero
// field takes its default (WithDefaults); hard budgets (MaxToolCalls,
// MaxWallMs) are unset by default.
type Policy struct {
	MaxToolCalls           int      `json:"maxToolCalls,omitempty"`
	MaxWallMs              int64    `json:"maxWallMs,omitempty"`
	MaxConsecutiveSameTool int      `json:"maxConsecutiveSameTool,omitempty"`
	MaxObservationStreak   int      `json:"maxObservationStreak,omitempty"`
	MaxFailureStreak       int      `json:"maxFailureStreak,omitempty"`
	MaxSameURLNavigations  int      `json:"maxSameUrlNavigations,omitempty"`
	AllowedDomains         []string `json:"allowedDomains,omitempty"`
	CheckpointEveryCalls   int      `json:"checkpointEveryCalls,omitempty"`
}

// WithDefaults fills in the streak limits the policy leaves out.
func (p Policy) WithDefaults() Policy {
	if p.MaxConsecutiveSameTool == 0 {
		p.MaxConsecutiveSameTool = 5
	}
	if p.MaxObservationStreak == 0 {
		p.MaxObservationStreak = 6
	}
	if p.MaxFailureStreak == 0 {
		p.MaxFailureStreak = 4
	}
	if p.MaxSameURLNavigations == 0 {
		p.MaxSameURLNavigations = 3
	}
	return p
}

// Validate refuses a policy that cannot be right.
func (p Policy) Validate() error {
	for _, d := range p.AllowedDomains {
		if d = strings.TrimSpace(d); d == "" || strings.ContainsAny(d, "/:?#@ ") {
			return protocol.Errorf(protocol.CodeBadRequest, "allowedDomains: %q is not a domain", d).
				WithHint(`domains look like "example.com"; it allows its subdomains too`)
		}
	}
	return nil
}

// Allows reports whether the policy lets the envelope's calls reach rawURL:
// with no allowedDomains, everything; else a URL whose host is one of them
// or a subdomain of one ("example.com" allows "www.example.com", not
// "notexample.com"). about:blank is always allowed; other URLs without a
// host (file:) are not, once domains are named.
func (p Policy) Allows(rawURL string) bool {
	if len(p.AllowedDomains) == 0 || rawURL == "" || rawURL == "about:blank" {
		return true
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return false
	}
	for _, d := range p.AllowedDomains {
		d = strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(d)), "*."), ".")
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// Detail is an envelope's own part of its task record (Meta.Detail).
type Detail struct {
	Objective string `json:"objective"`
	Phase     string `json:"phase"`
	Policy    Policy `json:"policy"`
	// EndedBy says who closed it: the agent (oc_task_finish), the person
	// (Cancel in the side panel), an agent's oc_task_cancel.
	EndedBy string `json:"ended_by,omitempty"`
	Note    string `json:"note,omitempty"` // the closing note
}

// Call kinds.
const (
	Observation = "observation"
	Action      = "action"
)

// Call is one browser call recorded against an envelope: the event
// "call" in the task's events.jsonl. It never holds arguments.
type Call struct {
	Tool string `json:"tool"`
	Kind string `json:"kind"` // observation or action
	OK   bool   `json:"ok"`
	Code string `json:"code,omitempty"` // the error's code when not OK
	// Navigated is the URL a navigate (or tabs_create) went to, redacted,
	// for the same-URL count.
	Navigated string `json:"navigated,omitempty"`
	// URL is where the call left its tab, redacted, when the result says.
	URL string `json:"url,omitempty"`
	// Handoff says the extension found no way to act and suggested
	// handing the tab to the person (the S7 suggestion).
	Handoff bool `json:"handoff,omitempty"`
}

// Counters are what the calls so far add up to.
type Counters struct {
	Calls             int            `json:"calls"`
	Actions           int            `json:"actions"`
	Observations      int            `json:"observations"`
	Failures          int            `json:"failures"`
	SameToolStreak    int            `json:"same_tool_streak"`
	ObservationStreak int            `json:"observation_streak"`
	FailureStreak     int            `json:"failure_streak"`
	Navigations       map[string]int `json:"navigations"` // per URL, fragments dropped
	LastTool          string         `json:"last_tool,omitempty"`
}

// Warning is a moment the envelope's agent wandered: a streak over its
// limit, a URL visited once too often, a step outside allowedDomains, a
// suggestion to hand the tab to the person.
type Warning struct {
	Call    int    `json:"call"` // which call, from 1
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// The kinds of warnings, and what each recommends.
const (
	WarnObservationStreak = "observation_streak"
	WarnSameTool          = "same_tool_streak"
	WarnFailureStreak     = "failure_streak"
	WarnSameURL           = "same_url_navigations"
	WarnOffDomain         = "outside_allowed_domains"
	WarnHandoff           = "handoff_suggested"
)

// Tally is an envelope's state, recomputed from its calls: what Replay
// returns.
type Tally struct {
	Counters Counters  `json:"counters"`
	Warnings []Warning `json:"warnings"`
	// last are the conditions of the last call, for recommended_next.
	lastOffDomain bool
	lastHandoff   bool
}

// Add counts one call under policy p (defaults filled in), and notes the
// warnings it raises.
func (t *Tally) Add(p Policy, c Call) {
	n := &t.Counters
	n.Calls++
	if c.Kind == Observation {
		n.Observations++
		n.ObservationStreak++
	} else {
		n.Actions++
		n.ObservationStreak = 0
	}
	if c.Tool == n.LastTool {
		n.SameToolStreak++
	} else {
		n.SameToolStreak = 1
	}
	n.LastTool = c.Tool
	if c.OK {
		n.FailureStreak = 0
	} else {
		n.Failures++
		n.FailureStreak++
	}
	warn := func(kind, format string, args ...any) {
		t.Warnings = append(t.Warnings, Warning{Call: n.Calls, Kind: kind, Message: fmt.Sprintf(format, args...)})
	}
	// Each warning is raised when its limit is first passed, not again for
	// every call after.
	if n.ObservationStreak == p.MaxObservationStreak+1 {
		warn(WarnObservationStreak, "%d observation calls in a row (at most %d) without acting", n.ObservationStreak, p.MaxObservationStreak)
	}
	if n.SameToolStreak == p.MaxConsecutiveSameTool+1 {
		warn(WarnSameTool, "%s %d times in a row (at most %d)", c.Tool, n.SameToolStreak, p.MaxConsecutiveSameTool)
	}
	if n.FailureStreak == p.MaxFailureStreak+1 {
		warn(WarnFailureStreak, "%d failed calls in a row (at most %d)", n.FailureStreak, p.MaxFailureStreak)
	}
	if c.Navigated != "" {
		if n.Navigations == nil {
			n.Navigations = map[string]int{}
		}
		key := withoutFragment(c.Navigated)
		n.Navigations[key]++
		if n.Navigations[key] == p.MaxSameURLNavigations+1 {
			warn(WarnSameURL, "navigated to %s %d times (at most %d)", key, n.Navigations[key], p.MaxSameURLNavigations)
		}
	}
	t.lastOffDomain = c.URL != "" && !p.Allows(c.URL)
	if t.lastOffDomain {
		warn(WarnOffDomain, "%s left the allowed domains for %s", c.Tool, c.URL)
	}
	t.lastHandoff = c.Handoff
	if c.Handoff {
		warn(WarnHandoff, "%s found no way to act; the tab may need the person", c.Tool)
	}
}

func withoutFragment(u string) string {
	before, _, _ := strings.Cut(u, "#")
	return before
}

// The budget statuses.
const (
	BudgetOK       = "ok"
	BudgetNear     = "near"
	BudgetExceeded = "exceeded"
)

// Budget is an envelope's standing against its policy.
type Budget struct {
	Level string `json:"budget_status"` // ok, near or exceeded
	// Why names what is near or exceeded, one phrase each.
	Why []string `json:"budget_reasons,omitempty"`
	// Next is the one step to take now, when there is one; the agent
	// decides.
	Next string `json:"recommended_next,omitempty"`
}

// What an envelope recommends.
const (
	NextChangeStrategyOrVerify = "change_strategy_or_verify"
	NextChangeStrategy         = "change_strategy"
	NextRecoverOrAskThePerson  = "recover_or_ask_the_person"
	NextStopRevisiting         = "stop_revisiting_the_url"
	NextGoBack                 = "go_back_to_the_allowed_domains"
	NextHandoff                = "call_oc_handoff_start"
	NextFinish                 = "finish_or_start_a_new_envelope"
)

// Assess weighs a tally against policy p (defaults filled in), elapsed
// time since the envelope opened. The recommendation is the most pressing
// one: the last call's own trouble first, then the hard budgets, then the
// streaks.
func Assess(p Policy, t Tally, elapsed time.Duration) Budget {
	n := t.Counters
	var exceeded, near []string
	// What to recommend: the last call's own trouble, then what is
	// exceeded, then what is near, each in the order checked.
	var now, over, close []string
	if t.lastHandoff {
		now = append(now, NextHandoff)
	}
	if t.lastOffDomain {
		now = append(now, NextGoBack)
	}
	check := func(what string, used, limit, nearAt, overAt int64, rec string) {
		switch {
		case limit <= 0:
		case used >= overAt:
			exceeded = append(exceeded, fmt.Sprintf("%s %d of %d", what, used, limit))
			over = append(over, rec)
		case used >= nearAt:
			near = append(near, fmt.Sprintf("%s %d of %d", what, used, limit))
			close = append(close, rec)
		}
	}
	// Hard budgets are spent at their limit, near at four fifths of it;
	// streaks pass their limit one call after reaching it.
	hard := func(what string, used, limit int64) { check(what, used, limit, (limit*4+4)/5, limit, NextFinish) }
	streak := func(what string, used, limit int, rec string) {
		check(what, int64(used), int64(limit), int64(limit), int64(limit)+1, rec)
	}
	hard("calls", int64(n.Calls), int64(p.MaxToolCalls))
	hard("ms", elapsed.Milliseconds(), p.MaxWallMs)
	streak("observation streak", n.ObservationStreak, p.MaxObservationStreak, NextChangeStrategyOrVerify)
	streak("same-tool streak", n.SameToolStreak, p.MaxConsecutiveSameTool, NextChangeStrategy)
	streak("failure streak", n.FailureStreak, p.MaxFailureStreak, NextRecoverOrAskThePerson)
	urls := make([]string, 0, len(n.Navigations))
	for u := range n.Navigations {
		urls = append(urls, u)
	}
	slices.Sort(urls)
	for _, u := range urls {
		streak("navigations to "+u, n.Navigations[u], p.MaxSameURLNavigations, NextStopRevisiting)
	}
	b := Budget{Level: BudgetOK}
	switch {
	case len(exceeded) > 0:
		b.Level, b.Why = BudgetExceeded, exceeded
	case len(near) > 0:
		b.Level, b.Why = BudgetNear, near
	}
	if next := slices.Concat(now, over, close); len(next) > 0 {
		b.Next = next[0]
	}
	return b
}

// Hard reports why the next call must be refused (budget_exceeded), or "":
// the call budget is spent or the time is up. Streaks never refuse a call.
func Hard(p Policy, calls int, elapsed time.Duration) string {
	switch {
	case p.MaxToolCalls > 0 && calls >= p.MaxToolCalls:
		return fmt.Sprintf("all %d calls of its budget are spent", p.MaxToolCalls)
	case p.MaxWallMs > 0 && elapsed.Milliseconds() >= p.MaxWallMs:
		return fmt.Sprintf("its %s are up", (time.Duration(p.MaxWallMs) * time.Millisecond).String())
	}
	return ""
}

// Observes reports whether a call of tool is an observation: it reads the
// page or the browser and changes nothing. Everything else is an action.
// computer is an observation only when it takes a screenshot.
func Observes(tool, computerAction string) bool {
	switch tool {
	case "read_page", "find", "tabs_context", "page_screenshot",
		"console_messages", "network_requests", "network_request", "downloads":
		return true
	case "computer":
		return computerAction == "screenshot"
	}
	return false
}
