package e2e

import (
	"bytes"
	"cmp"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pythonDocs is where Debian's python3.11-doc puts the HTML documentation.
const pythonDocs = "/usr/share/doc/python3.11/html"

// benchPages are the pages of issue 3's targets.
var benchPages = []string{
	"index.html",
	"library/index.html",
	"library/stdtypes.html",
	"library/functions.html",
	"reference/expressions.html",
	"glossary.html",
}

// interactive are the roles counted as interactive, as the targets count
// them: links, buttons, text boxes, checkboxes, radios, comboboxes, options,
// menu items, tabs, switches, sliders, spin buttons, tree items.
var interactive = map[string]bool{
	"link": true, "button": true, "textbox": true, "searchbox": true, "checkbox": true,
	"radio": true, "combobox": true, "option": true, "menuitem": true, "menuitemcheckbox": true,
	"menuitemradio": true, "tab": true, "switch": true, "slider": true, "spinbutton": true,
	"treeitem": true,
}

// refLabel matches an element with a ref in read_page's tree: role, name, ref.
var refLabel = regexp.MustCompile(`(?m)(?:^|[\s:|])([a-z][a-z0-9]*)(?: "(?:[^"\\]|\\.)*")? e(\d+)\b`)

// BenchmarkPythonDocs reads the real Python documentation, served on
// loopback, and reports for each page what issue 3's targets compare:
// read_page's characters, o200k tokens, refs and interactive refs (from a
// fresh tab), and the median time of navigate and of read_page. Run it with
// `make bench-pages`, which installs the documentation and the tokenizer.
func BenchmarkPythonDocs(b *testing.B) {
	docs := os.Getenv("OPENCHROME_PYDOCS")
	if docs == "" {
		docs = pythonDocs
	}
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		b.Skipf("no Python documentation at %s: run make bench-pages (Debian: apt-get install python3.11-doc)", docs)
	}
	counter := filepath.Join("tokens", "count.js")
	if _, err := os.Stat(filepath.Join("tokens", "node_modules", "gpt-tokenizer")); err != nil {
		b.Skip("the tokenizer is not installed: run scripts/deps.sh (it runs npm ci in e2e/tokens)")
	}
	site := httptest.NewServer(http.FileServer(http.Dir(docs)))
	defer site.Close()
	e := newEnv(b)
	cs := e.client("bench")

	for _, p := range benchPages {
		b.Run(strings.ReplaceAll(p, "/", "_"), func(b *testing.B) {
			url := site.URL + "/" + p
			full := map[string]any{"maxChars": 2_000_000}

			// Size, as a new tab shows it.
			var fresh page
			okJSON(b, cs, "tabs_create", map[string]any{"url": url}, &fresh)
			tree := ok(b, cs, "read_page", with(full, "tabId", fresh.TabID))
			ok(b, cs, "tabs_close", map[string]any{"tabId": fresh.TabID})
			refs, active := 0, 0
			for _, m := range refLabel.FindAllStringSubmatch(tree, -1) {
				refs++
				if interactive[m[1]] {
					active++
				}
			}
			tokens := countTokens(b, counter, tree)

			// Speed: navigate and read, again and again, in one tab.
			var tab page
			okJSON(b, cs, "tabs_create", map[string]any{"url": "about:blank"}, &tab)
			var nav, read []time.Duration
			var worst string
			worstRef := 0
			for b.Loop() {
				start := time.Now()
				ok(b, cs, "navigate", map[string]any{"url": url, "tabId": tab.TabID})
				mid := time.Now()
				out := ok(b, cs, "read_page", with(full, "tabId", tab.TabID))
				nav, read = append(nav, mid.Sub(start)), append(read, time.Since(mid))
				if m := maxRef(out); m > worstRef {
					worst, worstRef = out, m
				}
			}
			ok(b, cs, "tabs_close", map[string]any{"tabId": tab.TabID})

			b.ReportMetric(float64(len(tree)), "chars")
			b.ReportMetric(float64(tokens), "tokens")
			// The same page read again and again in one tab, at its highest
			// refs: each page counts from 1 again but passes over the numbers
			// the three before it used (so that none of theirs names another
			// element), so the worst visit's refs run to four times the page's.
			// Refs that only grew would cost a token more each from e1000 on.
			b.ReportMetric(float64(countTokens(b, counter, worst)), "worst-visit-tokens")
			b.ReportMetric(float64(worstRef), "worst-visit-max-ref")
			b.ReportMetric(float64(refs), "refs")
			b.ReportMetric(float64(active), "interactive")
			b.ReportMetric(ms(median(nav)), "navigate-ms")
			b.ReportMetric(ms(median(read)), "read_page-ms")
			b.ReportMetric(ms(median(nav)+median(read)), "both-ms")
		})
	}
}

// maxRef is the highest ref in a read.
func maxRef(tree string) int {
	top := 0
	for _, m := range refNumber.FindAllStringSubmatch(tree, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && n > top {
			top = n
		}
	}
	return top
}

var refNumber = regexp.MustCompile(`\be(\d+)\b`)

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// countTokens counts text's o200k tokens with the npm gpt-tokenizer.
// countTokens counts text's o200k tokens with the tokenizer the issues'
// targets were measured with (gpt-tokenizer, in e2e/tokens).
func countTokens(b testing.TB, counter, text string) int {
	b.Helper()
	cmd := exec.Command("node", counter)
	cmd.Stdin = strings.NewReader(text)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		b.Fatalf("count tokens: %v: %s", err, errb.String())
	}
	n, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil {
		b.Fatalf("count tokens: %q", out.String())
	}
	return n
}

func median[T cmp.Ordered](xs []T) T {
	if len(xs) == 0 {
		var zero T
		return zero
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkLoginFlow times issue 3's login flow on the fixture login page:
// fill the username, fill the password, click Login, read the page. The
// navigation to the login page before each run is not timed. It fails if
// the password shows in any output.
func BenchmarkLoginFlow(b *testing.B) {
	e := newEnv(b)
	site := fixtureSite(b)
	cs := e.client("bench")
	const password = "SuperSecretPassword!"
	tab := openTab(b, cs, site.URL+"/login.html")
	tree := ok(b, cs, "read_page", map[string]any{"tabId": tab})
	user, pass, login := refOf(b, tree, `textbox "Username"`), refOf(b, tree, `textbox "Password"`), refOf(b, tree, `button "Login"`)
	var flows []time.Duration
	steps := make([][]time.Duration, 4)
	for b.Loop() {
		b.StopTimer()
		ok(b, cs, "navigate", map[string]any{"url": site.URL + "/login.html", "tabId": tab})
		tree := ok(b, cs, "read_page", map[string]any{"tabId": tab})
		user, pass, login = refOf(b, tree, `textbox "Username"`), refOf(b, tree, `textbox "Password"`), refOf(b, tree, `button "Login"`)
		b.StartTimer()
		start := time.Now()
		var out []string
		for i, call := range []struct {
			tool string
			args map[string]any
		}{
			{"interact", map[string]any{"ref": user, "action": "fill", "text": "tomsmith", "tabId": tab}},
			{"interact", map[string]any{"ref": pass, "action": "fill", "text": password, "tabId": tab}},
			{"interact", map[string]any{"ref": login, "action": "click", "tabId": tab}},
			{"read_page", map[string]any{"tabId": tab}},
		} {
			t0 := time.Now()
			out = append(out, ok(b, cs, call.tool, call.args))
			steps[i] = append(steps[i], time.Since(t0))
		}
		flows = append(flows, time.Since(start))
		for _, o := range out {
			if strings.Contains(o, password) {
				b.Fatalf("the password is in an output: %s", o)
			}
		}
		if !strings.Contains(out[3], "Secure Area") {
			b.Fatalf("the login did not go through:\n%s", out[3])
		}
	}
	b.ReportMetric(ms(median(flows)), "flow-ms")
	for i, name := range []string{"fill", "fill-secret", "click", "read"} {
		b.ReportMetric(ms(median(steps[i])), name+"-ms")
	}
}

// peer is another browser MCP server, run the way the issue measured it.
type peer struct {
	name, bin        string
	exeFlag          string // the flag that names the browser to run
	args             []string
	navigate, read   string
	navArgs, readArg func(url string) map[string]any
}

var peers = []peer{
	{
		name: "playwright-mcp", bin: "playwright-mcp", exeFlag: "--executable-path",
		args:     []string{"--headless", "--isolated", "--no-sandbox"},
		navigate: "browser_navigate", read: "browser_snapshot",
		navArgs: func(url string) map[string]any { return map[string]any{"url": url} },
		readArg: func(string) map[string]any { return map[string]any{} },
	},
	{
		name: "chrome-devtools-mcp", bin: "chrome-devtools-mcp", exeFlag: "--executablePath",
		args:     []string{"--headless", "--isolated", "--chromeArg=--no-sandbox", "--no-usage-statistics", "--no-performance-crux"},
		navigate: "navigate_page", read: "take_snapshot",
		navArgs: func(url string) map[string]any { return map[string]any{"url": url, "type": "url", "pageId": 1} },
		readArg: func(string) map[string]any { return map[string]any{"pageId": 1} },
	},
}

// startPeer runs a peer MCP server over stdio, from e2e/bench's npm dev
// dependencies, on the suite's Chromium.
func startPeer(b *testing.B, p peer) *mcp.ClientSession {
	bin, err := filepath.Abs(filepath.Join("bench", "node_modules", ".bin", p.bin))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		b.Skipf("%s is not installed: run make bench-pages", p.name)
	}
	cmd := exec.Command(bin, append([]string{p.exeFlag, suite.chromium}, p.args...)...)
	// Playwright MCP saves each snapshot under .playwright-mcp/ in its
	// working directory: keep that out of the tree.
	cmd.Dir = b.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+b.TempDir())
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

// BenchmarkPeers measures Playwright MCP and Chrome DevTools MCP (the
// versions the targets name, from e2e/bench's npm dev dependencies)
// on the same pages, server and Chromium as BenchmarkPythonDocs, so the two
// can be read side by side: their snapshot's o200k tokens and the median
// time of their navigate and snapshot.
func BenchmarkPeers(b *testing.B) {
	docs := os.Getenv("OPENCHROME_PYDOCS")
	if docs == "" {
		docs = pythonDocs
	}
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		b.Skipf("no Python documentation at %s: run make bench-pages", docs)
	}
	skipIfShort(b)
	site := httptest.NewServer(http.FileServer(http.Dir(docs)))
	defer site.Close()
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			cs := startPeer(b, p)
			defer cs.Close()
			for _, page := range benchPages {
				b.Run(strings.ReplaceAll(page, "/", "_"), func(b *testing.B) {
					url := site.URL + "/" + page
					ok(b, cs, p.navigate, p.navArgs(url))
					tree := ok(b, cs, p.read, p.readArg(url))
					tokens := countTokens(b, filepath.Join("tokens", "count.js"), tree)
					var nav, read []time.Duration
					for b.Loop() {
						start := time.Now()
						ok(b, cs, p.navigate, p.navArgs(url))
						mid := time.Now()
						ok(b, cs, p.read, p.readArg(url))
						nav, read = append(nav, mid.Sub(start)), append(read, time.Since(mid))
					}
					b.ReportMetric(float64(tokens), "tokens")
					b.ReportMetric(ms(median(nav)), "navigate-ms")
					b.ReportMetric(ms(median(read)), "read-ms")
					b.ReportMetric(ms(median(nav)+median(read)), "both-ms")
				})
			}
		})
	}
}

// BenchmarkPeerLoginFlow times the login flow of BenchmarkLoginFlow in
// Playwright MCP, the peer issue 10's target names: type the username,
// type the password, click Login, take a snapshot, with the refs of a
// snapshot taken (untimed) after each navigation to the login page. Its
// tools name an element by `target` (the snapshot's ref) since 0.0.83.
func BenchmarkPeerLoginFlow(b *testing.B) {
	skipIfShort(b)
	p := peers[0]
	cs := startPeer(b, p)
	defer cs.Close()
	site := fixtureSite(b)
	ref := func(snapshot, label string) string {
		m := regexp.MustCompile(regexp.QuoteMeta(label) + `[^\n]*\[ref=([a-z0-9]+)\]`).FindStringSubmatch(snapshot)
		if m == nil {
			b.Fatalf("no %s in:\n%s", label, snapshot)
		}
		return m[1]
	}
	var flows []time.Duration
	for b.Loop() {
		b.StopTimer()
		ok(b, cs, "browser_navigate", map[string]any{"url": site.URL + "/login.html"})
		snap := ok(b, cs, "browser_snapshot", map[string]any{})
		user, pass, login := ref(snap, `textbox "Username"`), ref(snap, `textbox "Password"`), ref(snap, `button "Login"`)
		b.StartTimer()
		start := time.Now()
		ok(b, cs, "browser_type", map[string]any{"element": "Username", "target": user, "text": "tomsmith"})
		ok(b, cs, "browser_type", map[string]any{"element": "Password", "target": pass, "text": "SuperSecretPassword!"})
		ok(b, cs, "browser_click", map[string]any{"element": "Login", "target": login})
		out := ok(b, cs, "browser_snapshot", map[string]any{})
		flows = append(flows, time.Since(start))
		if !strings.Contains(out, "Secure Area") {
			b.Fatalf("the login did not go through:\n%s", out)
		}
	}
	b.ReportMetric(ms(median(flows)), "flow-ms")
}
