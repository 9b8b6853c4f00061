package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/ledger"
)

// BenchmarkTaskWaitWake measures how long oc_task_wait takes to return after
// the task it waits for ends: from the finished_at the daemon records to the
// agent holding the answer, through the MCP front-end and the broker. Each
// task crawls one page that the server holds for 200 ms, so the wait is
// always already waiting when the task ends.
func BenchmarkTaskWaitWake(b *testing.B) {
	e := newEnv(b)
	cs := e.client("bench")
	site := crawlSite(b, 200*time.Millisecond)
	var wakes []time.Duration
	for b.Loop() {
		id := startTask(b, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 1})
		var m struct {
			Status     string    `json:"status"`
			FinishedAt time.Time `json:"finished_at"`
		}
		okJSON(b, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 30000}, &m)
		woke := time.Now()
		if m.Status != "COMPLETED" {
			b.Fatalf("task %s ended %s", id, m.Status)
		}
		wakes = append(wakes, woke.Sub(m.FinishedAt))
	}
	b.ReportMetric(ms(median(wakes)), "wake-ms")
}

// BenchmarkTaskList10k lists background tasks through oc_task_list with
// 10,000 records in the ledger, newest first, 50 at a time (the default).
func BenchmarkTaskList10k(b *testing.B) {
	const n = 10_000
	e := newEnv(b)
	cs := e.client("bench")
	s, err := ledger.Open(e.home.Tasks(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(b, err)
	ctx := context.Background()
	start := time.Now()
	for range n {
		m, err := s.Create("crawl", `{"url":"http://127.0.0.1:8080/","maxPages":20}`, nil)
		require.NoError(b, err)
		_, err = s.Transition(ctx, m.ID, ledger.StatusRunning, nil)
		require.NoError(b, err)
		_, err = s.Transition(ctx, m.ID, ledger.StatusCompleted, nil)
		require.NoError(b, err)
	}
	b.Logf("seeded %d tasks in %v", n, time.Since(start).Round(time.Millisecond))

	for _, args := range []struct {
		name string
		args map[string]any
	}{
		{"default", map[string]any{}},
		{"status=COMPLETED,kind=crawl", map[string]any{"status": "COMPLETED", "kind": "crawl"}},
	} {
		b.Run(args.name, func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				t0 := time.Now()
				var out struct {
					Tasks []struct{ ID string } `json:"tasks"`
				}
				okJSON(b, cs, "oc_task_list", args.args, &out)
				took = append(took, time.Since(t0))
				if len(out.Tasks) != ledger.DefaultListLimit {
					b.Fatalf("listed %d tasks, want %d", len(out.Tasks), ledger.DefaultListLimit)
				}
			}
			b.ReportMetric(ms(median(took)), "list-ms")
		})
	}
}

// BenchmarkCrawlPythonDocs crawls the real Python documentation on loopback
// from the library index, 40 pages, at concurrency 1 and 4, and reports
// pages per second. Run it with `make bench-pages`.
func BenchmarkCrawlPythonDocs(b *testing.B) {
	docs := os.Getenv("OPENCHROME_PYDOCS")
	if docs == "" {
		docs = pythonDocs
	}
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		b.Skipf("no Python documentation at %s: run make bench-pages (Debian: apt-get install python3.11-doc)", docs)
	}
	site := httptest.NewServer(http.FileServer(http.Dir(docs)))
	defer site.Close()
	e := newEnv(b)
	cs := e.client("bench")
	const pages = 40
	for _, conc := range []int{1, 4} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			var rates []float64
			for b.Loop() {
				t0 := time.Now()
				// Forty pages are more than a result holds: the answer is
				// the crawl's brief (each page's links counted), the whole
				// in a file.
				var r struct {
					Stopped string `json:"stopped"`
					Pages   []struct {
						URL string `json:"url"`
					} `json:"pages"`
				}
				okJSON(b, cs, "crawl", map[string]any{
					"url": site.URL + "/library/index.html", "maxPages": pages, "maxDepth": 1,
					"include": []string{"/library/"}, "concurrency": conc,
				}, &r)
				took := time.Since(t0)
				if len(r.Pages) != pages {
					b.Fatalf("crawled %d pages, want %d (stopped: %s)", len(r.Pages), pages, r.Stopped)
				}
				rates = append(rates, float64(pages)/took.Seconds())
			}
			b.ReportMetric(median(rates), "pages/s")
		})
	}
}
