package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// crawlSite serves 30 pages, /p/0 to /p/29, each linking to the next three,
// each taking delay to answer; plus /sitemap.xml, an index of a plain and a
// gzipped sitemap that list the pages.
func crawlSite(t testing.TB, delay time.Duration) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/p/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil || n < 0 || n >= 30 {
			http.NotFound(w, r)
			return
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		var links strings.Builder
		for i := n + 1; i <= n+3 && i < 30; i++ {
			fmt.Fprintf(&links, `<li><a href="/p/%d">Page %d</a></li>`, i, i)
		}
		fmt.Fprintf(w, `<!doctype html><title>Page %d</title><main><h1>Page %d</h1><p>Text of page %d.</p><ul>%s</ul><a href="https://example.invalid/away">away</a></main>`,
			n, n, n, links.String())
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://%s/sitemap-a.xml</loc></sitemap><sitemap><loc>http://%s/sitemap-b.xml.gz</loc></sitemap></sitemapindex>`, r.Host, r.Host)
	})
	urlset := func(host string, from, to int) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, `<url><loc>http://%s/p/%d</loc></url>`, host, i)
		}
		b.WriteString(`</urlset>`)
		return b.String()
	}
	mux.HandleFunc("/sitemap-a.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, urlset(r.Host, 0, 3))
	})
	mux.HandleFunc("/sitemap-b.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		fmt.Fprint(zw, urlset(r.Host, 3, 6))
		zw.Close()
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(buf.Bytes())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// task is a task's meta as the task tools return it.
type task struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Status   string `json:"status"`
	Args     string `json:"args_summary"`
	Progress *struct {
		Done    int    `json:"done"`
		Total   int    `json:"total"`
		Message string `json:"message"`
	} `json:"progress"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
}

type crawled struct {
	Start   string `json:"start"`
	Stopped string `json:"stopped"`
	Pages   []struct {
		URL     string   `json:"url"`
		Status  int      `json:"status"`
		Title   string   `json:"title"`
		Content string   `json:"content"`
		Links   []string `json:"links"`
		Depth   int      `json:"depth"`
	} `json:"pages"`
}

func startTask(t testing.TB, cs *mcp.ClientSession, kind string, args map[string]any) string {
	t.Helper()
	var out struct {
		TaskID string `json:"task_id"`
		Status string `json:"status"`
	}
	okJSON(t, cs, "oc_task_start", map[string]any{"kind": kind, "args": args}, &out)
	require.Regexp(t, `^[0-9a-f]{16}$`, out.TaskID)
	assert.Contains(t, []string{"PENDING", "RUNNING"}, out.Status)
	return out.TaskID
}

func getTask(t testing.TB, cs *mcp.ClientSession, id string, withResult bool) task {
	t.Helper()
	var m task
	okJSON(t, cs, "oc_task_get", map[string]any{"task_id": id, "include_result": withResult}, &m)
	return m
}

func TestCrawlDirectlyAndAsATaskGiveTheSameShape(t *testing.T) {
	e := sharedEnv(t)
	site := crawlSite(t, 0)
	cs := e.client("e2e")
	args := map[string]any{"url": site.URL + "/p/0", "maxPages": 5, "concurrency": 2}

	var direct crawled
	okJSON(t, cs, "crawl", args, &direct)
	require.Len(t, direct.Pages, 5)
	assert.Equal(t, site.URL+"/p/0", direct.Pages[0].URL)
	assert.Equal(t, "Page 0", direct.Pages[0].Title)
	assert.Equal(t, 200, direct.Pages[0].Status)
	assert.Contains(t, direct.Pages[0].Content, "# Page 0")
	assert.Contains(t, direct.Pages[0].Links, site.URL+"/p/1")
	for _, p := range direct.Pages {
		assert.True(t, strings.HasPrefix(p.URL, site.URL), "sameOrigin keeps the crawl home: %s", p.URL)
	}
	assert.Equal(t, "maxPages", direct.Stopped)

	id := startTask(t, cs, "crawl", args)
	var done task
	okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id}, &done)
	assert.Equal(t, "COMPLETED", done.Status)
	m := getTask(t, cs, id, true)
	var background crawled
	require.NoError(t, json.Unmarshal(m.Result, &background))
	assert.Equal(t, urlsOf(direct), urlsOf(background), "the same pages, in the same order")
	assert.Equal(t, direct.Stopped, background.Stopped)

	// The args summary says what was asked, and nothing secret.
	assert.Contains(t, m.Args, "/p/0")

	// crawl_sitemap reads the index, the plain and the gzipped sitemap.
	var fromMap crawled
	okJSON(t, cs, "crawl_sitemap", map[string]any{"url": site.URL, "output": "links", "maxPages": 10}, &fromMap)
	require.Len(t, fromMap.Pages, 6, "three pages in each sitemap")
	assert.Empty(t, fromMap.Pages[0].Content, "output links keeps no content")
	assert.NotEmpty(t, fromMap.Pages[0].Links)
	err := fails(t, cs, "crawl_sitemap", map[string]any{"sitemap_url": site.URL + "/p/0"}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "not a sitemap")
}

// TestADirectCrawlReportsProgressAndStopsWhenCancelled calls crawl with a
// progress token, as an MCP client that shows progress does, then cancels
// the call: the crawl must stop within one page.
func TestADirectCrawlReportsProgressAndStopsWhenCancelled(t *testing.T) {
	e := sharedEnv(t)
	slow := crawlSite(t, 300*time.Millisecond)
	var hits atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/p/") {
			hits.Add(1)
		}
		slow.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(site.Close)
	progress := make(chan string, 100)
	cs := e.clientWith("e2e", &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Message
		},
	})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	params := &mcp.CallToolParams{Name: "crawl", Arguments: map[string]any{
		"url": site.URL + "/p/0", "maxPages": 30, "maxDepth": 10, "concurrency": 1}}
	params.SetProgressToken("crawl-1")
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, params)
		errc <- err
	}()
	var seen []string
	for len(seen) < 2 {
		select {
		case m := <-progress:
			seen = append(seen, m)
		case <-time.After(20 * time.Second):
			t.Fatalf("no progress from the crawl; saw %q", seen)
		}
	}
	assert.Contains(t, strings.Join(seen, "\n"), site.URL+"/p/", "progress names the page")

	cancel()
	atCancel := hits.Load()
	select {
	case err := <-errc:
		require.Error(t, err, "the cancelled call ends")
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled crawl did not return within 5 s")
	}
	// Three pages' worth of watching, had it gone on.
	assert.Never(t, func() bool { return hits.Load() > atCancel+1 }, time.Second, 20*time.Millisecond,
		"at most the page in flight is fetched after the cancel")
}

func urlsOf(c crawled) []string {
	var out []string
	for _, p := range c.Pages {
		out = append(out, p.URL)
	}
	return out
}

func TestCancellingACrawlKeepsItsPages(t *testing.T) {
	e := newEnv(t)
	site := crawlSite(t, 300*time.Millisecond)
	cs := e.client("e2e")
	id := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 30, "maxDepth": 10, "concurrency": 1})

	// Wait for at least one page, then cancel.
	require.Eventually(t, func() bool {
		var r crawled
		m := getTask(t, cs, id, true)
		return m.Result != nil && json.Unmarshal(m.Result, &r) == nil && len(r.Pages) >= 1
	}, 30*time.Second, 100*time.Millisecond)
	var listed struct {
		Tasks []task `json:"tasks"`
	}
	okJSON(t, cs, "oc_task_list", map[string]any{"status": "RUNNING"}, &listed)
	require.Len(t, listed.Tasks, 1)
	assert.Equal(t, "crawl", listed.Tasks[0].Kind)

	start := time.Now()
	var m task
	okJSON(t, cs, "oc_task_cancel", map[string]any{"task_id": id}, &m)
	assert.Equal(t, "CANCELLED", m.Status, "within one page")
	assert.Less(t, time.Since(start), 2*time.Second)

	m = getTask(t, cs, id, true)
	var r crawled
	require.NoError(t, json.Unmarshal(m.Result, &r))
	assert.GreaterOrEqual(t, len(r.Pages), 1, "the pages crawled before the cancel are kept")
	assert.Less(t, len(r.Pages), 30)
	assert.Equal(t, "cancelled", r.Stopped)

	fails(t, cs, "oc_task_cancel", map[string]any{"task_id": id}, protocol.CodeConflict)

	// The crawl's tabs are gone.
	var tc tabsContext
	okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
	assert.Empty(t, tc.Tabs)
}

func TestWaitWakesWhenATaskEnds(t *testing.T) {
	e := sharedEnv(t)
	site := crawlSite(t, 0)
	cs := e.client("e2e")
	id := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 2})
	var m task
	okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 30000}, &m)
	assert.Equal(t, "COMPLETED", m.Status)

	// A task that outlasts the wait is a timeout, and other calls go on
	// meanwhile.
	slow := crawlSite(t, 2*time.Second)
	id = startTask(t, cs, "crawl", map[string]any{"url": slow.URL + "/p/0", "maxPages": 3, "concurrency": 1})
	done := make(chan *protocol.Error, 1)
	go func() {
		done <- fails(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 1500}, protocol.CodeTimeout)
	}()
	start := time.Now()
	ok(t, cs, "tabs_context", map[string]any{})
	assert.Less(t, time.Since(start), time.Second, "the wait blocks no other call")
	err := <-done
	assert.Contains(t, err.Message, "still RUNNING")
	ok(t, cs, "oc_task_cancel", map[string]any{"task_id": id})
}

func TestAFailingOrPanickingCrawlFailsItsTask(t *testing.T) {
	// The subtests' names end up in --load-extension's path: no commas.
	for name, hook := range map[string]string{"an error": "failOnPage=2", "a panic": "failOnPage=2,panic"} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, "OPENCHROME_TEST_HOOKS="+hook)
			site := crawlSite(t, 0)
			cs := e.client("e2e")
			id := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 10, "concurrency": 1})
			var m task
			okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 30000}, &m)
			assert.Equal(t, "FAILED", m.Status)
			require.NotNil(t, m.Error)
			assert.Equal(t, "internal", m.Error.Code)

			// The record's lock is free, and the first page is kept.
			lock, err := ledger.TryLock(filepath.Join(e.home.Tasks(), id, "lock"))
			require.NoError(t, err, "the lock was released")
			lock.Unlock()
			var r crawled
			require.NoError(t, json.Unmarshal(getTask(t, cs, id, true).Result, &r))
			assert.Len(t, r.Pages, 1)

			// The daemon survived it.
			ok(t, cs, "tabs_context", map[string]any{})
		})
	}
}

func TestTasksOutliveTheirDaemon(t *testing.T) {
	e := newEnv(t)
	site := crawlSite(t, 300*time.Millisecond)
	cs := e.client("e2e")

	finished := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 1})
	ok(t, cs, "oc_task_wait", map[string]any{"task_id": finished})

	running := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 30, "maxDepth": 10, "concurrency": 1})
	require.Eventually(t, func() bool {
		var r crawled
		m := getTask(t, cs, running, true)
		return m.Result != nil && json.Unmarshal(m.Result, &r) == nil && len(r.Pages) >= 2
	}, 30*time.Second, 100*time.Millisecond)

	// kill -9 mid-crawl; the extension reconnects and a new daemon starts.
	old, err := bridge.ReadDiscovery(e.home.BridgeFile())
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(old.PID, syscall.SIGKILL))
	e.waitDaemon(old.PID)

	var listed struct {
		Tasks []task `json:"tasks"`
	}
	okJSON(t, cs, "oc_task_list", map[string]any{}, &listed)
	require.Len(t, listed.Tasks, 2, "both tasks are still listed")
	assert.Equal(t, running, listed.Tasks[0].ID, "newest first")
	assert.Equal(t, "COMPLETED", getTask(t, cs, finished, false).Status)

	m := getTask(t, cs, running, true)
	assert.Equal(t, "FAILED", m.Status)
	require.NotNil(t, m.Error)
	assert.Equal(t, "orphaned", m.Error.Code)
	var r crawled
	require.NoError(t, json.Unmarshal(m.Result, &r))
	assert.GreaterOrEqual(t, len(r.Pages), 2, "its partial pages are kept")
}

func TestTaskToolsWorkFromDiskWithoutADaemon(t *testing.T) {
	e := newEnv(t)
	site := crawlSite(t, 0)
	cs := e.client("e2e")
	id := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 1})
	ok(t, cs, "oc_task_wait", map[string]any{"task_id": id})
	e.stopChromium()

	// A fresh front-end, no daemon: the ledger is still readable.
	cmd := exec.Command(suite.binary, "mcp")
	cmd.Env = e.environ()
	off, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer off.Close()
	var listed struct {
		Tasks []task `json:"tasks"`
	}
	okJSON(t, off, "oc_task_list", map[string]any{}, &listed)
	require.Len(t, listed.Tasks, 1)
	assert.Equal(t, "COMPLETED", getTask(t, off, id, false).Status)
	var m task
	okJSON(t, off, "oc_task_wait", map[string]any{"task_id": id}, &m)
	assert.Equal(t, "COMPLETED", m.Status)
	e2 := fails(t, off, "oc_task_start", map[string]any{"kind": "crawl", "args": map[string]any{"url": site.URL}}, protocol.CodeBrowserNotConnected)
	assert.Contains(t, e2.Hint, "openchrome doctor")
}

func TestTaskToolsRefuseBadInput(t *testing.T) {
	e := sharedEnv(t)
	cs := e.client("e2e")
	err := fails(t, cs, "oc_task_start", map[string]any{"kind": "dance", "args": map[string]any{}}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "kind")
	err = fails(t, cs, "oc_task_start", map[string]any{"kind": "crawl", "args": map[string]any{"maxPages": 3}}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, `"url"`, "the missing field is named")
	err = fails(t, cs, "oc_task_start", map[string]any{"kind": "crawl", "args": map[string]any{"url": "http://127.0.0.1/", "maxPages": -1}}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "maxPages")
	fails(t, cs, "oc_task_get", map[string]any{"task_id": "0123456789abcdef"}, protocol.CodeNotFound)
	fails(t, cs, "oc_task_get", map[string]any{"task_id": "../../etc/passwd"}, protocol.CodeBadRequest)
	fails(t, cs, "oc_task_wait", map[string]any{"task_id": "0123456789abcdef"}, protocol.CodeNotFound)
	fails(t, cs, "oc_task_cancel", map[string]any{"task_id": "0123456789abcdef"}, protocol.CodeNotFound)
	err = fails(t, cs, "oc_task_list", map[string]any{"limit": -1}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "limit")
	fails(t, cs, "oc_task_list", map[string]any{"since": "yesterday"}, protocol.CodeBadRequest)
}
