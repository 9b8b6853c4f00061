// Package doctor checks each link of the chain an agent's call travels — the
// binary, the extension on disk, the native host registrations, the daemon
// (the background process: its pid, uptime and browser links), the browser —
// and says what is broken and the command that fixes it.
package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/extension"
	"github.com/openchrome/openchrome/host/install"
	"github.com/openchrome/openchrome/host/policy"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/manifests"
	"github.com/openchrome/openchrome/protocol"
)

// Status grades one check.
type Status string

// The grades, from fine to broken.
const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "FAIL"
)

// Check is one finding.
type Check struct {
	Name   string
	Status Status
	Detail string
	Fix    string // the command or step that fixes it, when not OK
}

// Options is what the checks need from the environment.
type Options struct {
	Install install.Options // Home, Binary, UserHome, ... as `openchrome install` gets them
}

// Run runs every check, in the order a call travels.
func Run(ctx context.Context, opts Options) []Check {
	home := opts.Install.Home
	checks := []Check{binary(opts.Install.Binary), extensionDir(home)}
	checks = append(checks, registrations(opts.Install)...)
	checks = append(checks, daemonAndBrowser(ctx, home)...)
	return append(checks, config(home), records(home), auditLog(home))
}

// config checks the person's policy file, and says what it allows.
func config(home ledger.Home) Check {
	c := Check{Name: "policy", Status: OK}
	cfg, err := policy.Load(home.ConfigFile())
	if err != nil {
		e := protocol.AsError(err)
		return Check{Name: "policy", Status: Fail, Detail: e.Message, Fix: e.Hint}
	}
	var parts []string
	if len(cfg.AllowedOrigins) > 0 {
		parts = append(parts, "only "+strings.Join(cfg.AllowedOrigins, ", "))
	} else {
		parts = append(parts, "every site")
	}
	if len(cfg.BlockedOrigins) > 0 {
		parts = append(parts, "never "+strings.Join(cfg.BlockedOrigins, ", "))
	}
	if cfg.AllowFileURLs {
		parts = append(parts, "local files allowed")
	} else {
		parts = append(parts, "no local files")
	}
	c.Detail = home.ConfigFile() + ": " + strings.Join(parts, "; ")
	if cfg.RevealProfileSecrets {
		c.Status = Warn
		c.Detail += "; profile secrets (cookies, stored tokens) are NOT masked in what tools return"
		c.Fix = `set "revealProfileSecrets": false in ` + home.ConfigFile()
	}
	return c
}

// records looks for task and handoff records no one can read.
func records(home ledger.Home) Check {
	c := Check{Name: "records", Status: OK}
	var damaged []string
	n := 0
	for _, s := range []struct {
		root string
		life ledger.Lifecycle
	}{{home.Tasks(), ledger.TaskLifecycle()}, {home.Handoffs(), ledger.HandoffLifecycle()}} {
		if _, err := os.Stat(s.root); err != nil {
			continue
		}
		store, err := ledger.Open(s.root, s.life, ledger.Options{})
		if err != nil {
			c.Status, c.Detail = Warn, err.Error()
			return c
		}
		list, err := store.List(ledger.Filter{Limit: 1000})
		if err != nil {
			c.Status, c.Detail = Warn, err.Error()
			return c
		}
		n += len(list)
		for _, m := range list {
			if m.Damaged != "" {
				damaged = append(damaged, m.Damaged)
			}
		}
	}
	if len(damaged) == 0 {
		c.Detail = fmt.Sprintf("%d recent tasks and handoffs, none damaged", n)
		return c
	}
	c.Status = Warn
	c.Detail = fmt.Sprintf("%d damaged: %s", len(damaged), strings.Join(damaged, "; "))
	c.Fix = "oc_task_cancel each one (it is ended as damaged, its file kept), or remove its directory"
	return c
}

// auditLog says where the record of every call is.
func auditLog(home ledger.Home) Check {
	c := Check{Name: "audit log", Status: OK, Detail: home.AuditFile()}
	if info, err := os.Stat(home.AuditFile()); err == nil {
		c.Detail += fmt.Sprintf(" (%d bytes; one line per call, never its arguments)", info.Size())
	} else {
		c.Detail += " (no call yet)"
	}
	return c
}

// Failed reports whether any check failed.
func Failed(checks []Check) bool {
	for _, c := range checks {
		if c.Status == Fail {
			return true
		}
	}
	return false
}

// Print writes the checks as a table, each fix under its failure.
func Print(w io.Writer, checks []Check) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range checks {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Status, c.Name, c.Detail)
		if c.Fix != "" && c.Status != OK {
			fmt.Fprintf(tw, "\t\t  fix: %s\n", c.Fix)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if Failed(checks) {
		_, err := fmt.Fprintln(w, "\nSome links are broken; fix them from the top: each one needs those above it.")
		return err
	}
	_, err := fmt.Fprintln(w, "\nEverything checks out.")
	return err
}

func binary(path string) Check {
	c := Check{Name: "binary", Status: OK, Detail: path + " (" + protocol.Version + ")"}
	if strings.Contains(path, "go-build") {
		c.Status, c.Fix = Warn, "build it where it stays: make build (Chrome starts the binary the host manifest names)"
	}
	return c
}

func extensionDir(home ledger.Home) Check {
	c := Check{Name: "extension"}
	raw, err := os.ReadFile(home.Path("extension", "manifest.json"))
	if err != nil {
		c.Status, c.Detail, c.Fix = Fail, "not extracted to "+home.Extension(), "openchrome install"
		return c
	}
	var m struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(raw, &m)
	c.Detail = fmt.Sprintf("%s (id %s, version %s)", home.Extension(), manifests.ExtensionID(), m.Version)
	c.Status = OK
	if extension.Release(m.Version) != protocol.Version {
		c.Status, c.Fix = Fail, "openchrome install, then reload the extension at chrome://extensions"
	}
	return c
}

// registrations grades each host manifest. One browser not registered is a
// warning (install may have been asked for another); none working fails.
func registrations(opts install.Options) []Check {
	regs, err := install.Registrations(opts)
	if err != nil {
		return []Check{{Name: "host manifest", Status: Fail, Detail: err.Error(), Fix: "openchrome install"}}
	}
	var out []Check
	working := false
	for _, r := range regs {
		c := Check{Name: "host manifest", Detail: r.Name + ": " + r.Path}
		switch r.State {
		case install.RegOK:
			c.Status, working = OK, true
		case install.RegOtherBinary:
			c.Status, c.Detail = Warn, r.Name+": names "+r.Binary
			c.Fix = "openchrome install (to register this binary instead)"
		case install.RegMissing:
			c.Status, c.Detail, c.Fix = Warn, r.Name+": not registered", "openchrome install"
		default:
			c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("%s: %s (%s)", r.Name, r.State, r.Path), "openchrome install"
		}
		out = append(out, c)
	}
	if !working {
		for i := range out {
			if out[i].Status == Warn {
				out[i].Status = Fail
			}
		}
	}
	return out
}

// daemonAndBrowser checks the running daemon and, through it, the browser.
func daemonAndBrowser(ctx context.Context, home ledger.Home) []Check {
	const startBrowser = "open Chrome with the OpenChrome extension loaded (or run: openchrome launch)"
	d, err := bridge.ReadDiscovery(home.BridgeFile())
	if err != nil {
		return []Check{{Name: "daemon", Status: Fail, Detail: "not running (no " + home.BridgeFile() + ")", Fix: startBrowser}}
	}
	if !ledger.ProcessAlive(d.PID) {
		return []Check{{Name: "daemon", Status: Fail,
			Detail: fmt.Sprintf("pid %d in bridge.json is dead (the browser or daemon crashed)", d.PID), Fix: startBrowser}}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cl, err := bridge.Dial(ctx, d, "openchrome doctor")
	if err != nil {
		e := protocol.AsError(err)
		return []Check{{Name: "daemon", Status: Fail, Detail: fmt.Sprintf("pid %d: %s", d.PID, e.Message), Fix: e.Hint}}
	}
	defer cl.Close()
	checks := []Check{{Name: "daemon", Status: OK,
		Detail: fmt.Sprintf("pid %d, port %d, version %s, up %s, %s", d.PID, d.Port, d.Version,
			time.Since(d.StartedAt).Round(time.Second), links(cl.Ready().Browsers))}}
	if len(cl.Ready().Browsers) == 0 {
		// The daemon outlives the browser, up to its idle timeout; a
		// stopped service worker wakes itself within seconds.
		return append(checks, Check{Name: "browser", Status: Fail,
			Detail: "no browser is linked to the daemon",
			Fix:    startBrowser + "; if Chrome is open, the extension reconnects within 30 s by itself, else reload it at chrome://extensions"})
	}

	r, err := cl.Call(ctx, "oc_connection_health", nil, bridge.CallOptions{})
	if err == nil && r.IsError {
		err = protocol.ResultError(r)
	}
	if err != nil {
		e := protocol.AsError(err)
		return append(checks, Check{Name: "browser", Status: Fail, Detail: e.Message, Fix: e.Hint})
	}
	var health struct {
		Browsers []struct {
			protocol.BrowserInfo
			GroupTabs int    `json:"groupTabs"`
			LatencyMs int64  `json:"latencyMs"`
			Problem   string `json:"problem"`
		} `json:"browsers"`
	}
	if err := json.Unmarshal([]byte(r.Content[0].Text), &health); err != nil {
		return append(checks, Check{Name: "browser", Status: Fail, Detail: "unreadable health report", Fix: "openchrome version; restart the browser"})
	}
	for _, b := range health.Browsers {
		c := Check{Name: "browser", Status: OK,
			Detail: fmt.Sprintf("%s %s, extension %s, %d agent tabs, %d ms", b.ID, b.Browser, b.ExtensionVersion, b.GroupTabs, b.LatencyMs)}
		if b.Problem != "" {
			c.Status, c.Detail, c.Fix = Fail, b.ID+" "+b.Browser+": "+b.Problem, "openchrome install, then reload the extension at chrome://extensions"
		}
		checks = append(checks, c)
	}
	return checks
}

// Linked lists the browsers linked to the home's daemon now; none when no
// daemon runs or answers.
func Linked(ctx context.Context, home ledger.Home) []protocol.BrowserInfo {
	d, err := bridge.ReadDiscovery(home.BridgeFile())
	if err != nil || !ledger.ProcessAlive(d.PID) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	cl, err := bridge.Dial(ctx, d, "openchrome launch")
	if err != nil {
		return nil
	}
	defer cl.Close()
	return cl.Ready().Browsers
}

// NewLink waits, until wait has passed, for a browser that is not among
// before to link to the home's daemon (the one a launch started: its
// extension's worker starts the native host a moment after).
func NewLink(ctx context.Context, home ledger.Home, before []protocol.BrowserInfo, wait time.Duration) (protocol.BrowserInfo, bool) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		for _, b := range Linked(ctx, home) {
			if !slices.ContainsFunc(before, func(o protocol.BrowserInfo) bool { return o.ID == b.ID }) {
				return b, true
			}
		}
		select {
		case <-ctx.Done():
			return protocol.BrowserInfo{}, false
		case <-tick.C:
		}
	}
}

// links describes the browsers linked to the daemon: "2 browser links (b1
// Chromium/156, b2 Chrome/150)".
func links(browsers []protocol.BrowserInfo) string {
	if len(browsers) == 0 {
		return "no browser linked"
	}
	names := make([]string, 0, len(browsers))
	for _, b := range browsers {
		names = append(names, b.ID+" "+b.Browser)
	}
	word := "links"
	if len(browsers) == 1 {
		word = "link"
	}
	return fmt.Sprintf("%d browser %s (%s)", len(browsers), word, strings.Join(names, ", "))
}
