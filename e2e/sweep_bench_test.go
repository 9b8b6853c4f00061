package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkTokenSweep measures issue 10's token targets over the whole
// Python documentation, not only the pages BenchmarkPythonDocs names: for
// each page, read_page's o200k tokens from a fresh tab, the better peer's
// snapshot tokens, and the page's own visible text (document.body.innerText
// plus two tokens per interactive element). It logs one row per page and
// reports the worst ratio to the better peer and to the text, and how many
// pages miss each target (0.5 and 1.5). A page whose own text alone costs
// more than half the better peer's snapshot (a grammar that is all code)
// cannot meet 0.5 without leaving words out; a miss on any other page is
// marked "PEER!" and counted in over-0.5x-peer-above-floor.
//
// OPENCHROME_SWEEP_STRIDE=N measures every Nth page (default 1: all);
// OPENCHROME_SWEEP_PAGES=a.html,b.html measures those;
// OPENCHROME_SWEEP_DUMP=DIR writes each page's outputs there. Run it with
// `make bench-sweep`.
func BenchmarkTokenSweep(b *testing.B) {
	docs := cmpOr(os.Getenv("OPENCHROME_PYDOCS"), pythonDocs)
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		b.Skipf("no Python documentation at %s: run make bench-pages", docs)
	}
	counter := filepath.Join("tokens", "count.js")
	if _, err := os.Stat(filepath.Join("tokens", "node_modules", "gpt-tokenizer")); err != nil {
		b.Skip("the tokenizer is not installed: run scripts/deps.sh")
	}
	pages := sweepPages(b, docs)
	site := httptest.NewServer(http.FileServer(http.Dir(docs)))
	defer site.Close()

	e := newEnv(b)
	cs := e.client("bench")
	var peerSessions []*mcp.ClientSession
	for _, p := range peers {
		if os.Getenv("OPENCHROME_SWEEP_NO_PEERS") != "" {
			break
		}
		s := startPeer(b, p)
		defer s.Close()
		peerSessions = append(peerSessions, s)
	}

	var worstPeer, worstText float64
	var overPeer, overText, overReachable int
	fmt.Fprintf(os.Stderr, "%-48s %7s %7s %7s %7s %6s %6s %6s\n", "page", "oc", "pw", "cdt", "text", "/peer", "/text", "floor")
	for _, path := range pages {
		url := site.URL + "/" + path
		var fresh page
		okJSON(b, cs, "tabs_create", map[string]any{"url": url}, &fresh)
		tree := ok(b, cs, "read_page", map[string]any{"tabId": fresh.TabID, "maxChars": 2_000_000})
		text := innerText(b, cs, fresh.TabID)
		ok(b, cs, "tabs_close", map[string]any{"tabId": fresh.TabID})
		if dir := os.Getenv("OPENCHROME_SWEEP_DUMP"); dir != "" {
			name := filepath.Join(dir, strings.ReplaceAll(path, "/", "_"))
			if err := os.WriteFile(name+".oc.txt", []byte(tree), 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(name+".text.txt", []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		active := 0
		for _, m := range refLabel.FindAllStringSubmatch(tree, -1) {
			if interactive[m[1]] {
				active++
			}
		}
		oc := countTokens(b, counter, tree)
		textTokens := countTokens(b, counter, text) + 2*active
		peerTokens := make([]int, len(peers))
		better := 0
		for i, s := range peerSessions {
			p := peers[i]
			ok(b, s, p.navigate, p.navArgs(url))
			snap := ok(b, s, p.read, p.readArg(url))
			peerTokens[i] = countTokens(b, counter, snap)
			if dir := os.Getenv("OPENCHROME_SWEEP_DUMP"); dir != "" {
				name := filepath.Join(dir, strings.ReplaceAll(path, "/", "_")+"."+p.name+".txt")
				if err := os.WriteFile(name, []byte(snap), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			if better == 0 || peerTokens[i] < better {
				better = peerTokens[i]
			}
		}
		// The floor is the page's own text against the better peer: no
		// tree that shows all of it can cost less.
		rPeer, floor := 0.0, 0.0
		if better > 0 {
			rPeer = float64(oc) / float64(better)
			floor = float64(textTokens) / float64(better)
		}
		rText := float64(oc) / float64(max(textTokens, 1))
		worstPeer, worstText = max(worstPeer, rPeer), max(worstText, rText)
		mark := ""
		if rPeer > 0.5 {
			overPeer++
			mark += " PEER"
			if floor <= 0.5 {
				overReachable++
				mark += "!"
			}
		}
		if rText > 1.5 {
			overText++
			mark += " TEXT"
		}
		fmt.Fprintf(os.Stderr, "%-48s %7d %7d %7d %7d %6.2f %6.2f %6.2f%s\n", path, oc, at(peerTokens, 0), at(peerTokens, 1), textTokens, rPeer, rText, floor, mark)
	}
	for b.Loop() {
	}
	b.ReportMetric(float64(len(pages)), "pages")
	b.ReportMetric(worstPeer, "worst-x-peer")
	b.ReportMetric(float64(overPeer), "over-0.5x-peer")
	b.ReportMetric(float64(overReachable), "over-0.5x-peer-above-floor")
	b.ReportMetric(worstText, "worst-x-text")
	b.ReportMetric(float64(overText), "over-1.5x-text")
}

func at(xs []int, i int) int {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sweepPages lists the documentation's HTML pages, sorted, as the sweep's
// environment asks.
func sweepPages(b *testing.B, docs string) []string {
	if list := os.Getenv("OPENCHROME_SWEEP_PAGES"); list != "" {
		return strings.Split(list, ",")
	}
	stride := 1
	if s := os.Getenv("OPENCHROME_SWEEP_STRIDE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("OPENCHROME_SWEEP_STRIDE=%q: want a positive number", s)
		}
		stride = n
	}
	var all []string
	err := filepath.WalkDir(docs, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(docs, path)
		if d.IsDir() && strings.HasPrefix(d.Name(), "_") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(rel, ".html") {
			all = append(all, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	slices.Sort(all)
	var out []string
	for i := 0; i < len(all); i += stride {
		out = append(out, all[i])
	}
	return out
}

// innerText reads document.body.innerText in pieces under
// javascript_tool's result limit.
func innerText(b *testing.B, cs *mcp.ClientSession, tab int) string {
	const piece = 10_000 // UTF-16 units: well under the limit even escaped
	var sb strings.Builder
	for off := 0; ; off += piece {
		out := ok(b, cs, "javascript_tool", map[string]any{
			"tabId": tab,
			"code": fmt.Sprintf("(() => { const t = document.body.innerText; return {s: t.slice(%d, %d), more: t.length > %d}; })()",
				off, off+piece, off+piece),
		})
		var v struct {
			S    string `json:"s"`
			More bool   `json:"more"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			b.Fatalf("innerText: %v: %.200s", err, out)
		}
		sb.WriteString(v.S)
		if !v.More {
			return sb.String()
		}
	}
}
