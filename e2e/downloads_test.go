package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// report is the file /download/report.csv serves.
var report = []byte(strings.Repeat("id,name,amount\n1,alpha,10\n2,beta,20\n", 200))

// siteWith is the fixture site with more handlers beside its pages.
func siteWith(t testing.TB, extra map[string]http.HandlerFunc) *httptest.Server {
	root, err := fs.Sub(sitePages, "testdata/site")
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.FS(root)))
	for pattern, h := range extra {
		mux.HandleFunc(pattern, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// downloadSite is the fixture site with files to download: report.csv and
// other.csv whole, and cut.bin, which promises 100 kB and hangs up after
// 1 kB.
func downloadSite(t *testing.T) *httptest.Server {
	whole := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/csv")
			w.Header().Set("Content-Disposition", "attachment; filename="+name)
			_, _ = w.Write(report)
		}
	}
	return siteWith(t, map[string]http.HandlerFunc{
		"/download/report.csv": whole("report.csv"),
		"/download/other.csv":  whole("other.csv"),
		"/download/cut.bin": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", "attachment; filename=cut.bin")
			w.Header().Set("Content-Length", "100000")
			_, _ = w.Write(make([]byte, 1000))
			w.(http.Flusher).Flush()
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
		},
	})
}

type downloadsOut struct {
	Downloads []struct {
		ID           int    `json:"id"`
		TabID        int    `json:"tabId"`
		Name         string `json:"name"`
		Path         string `json:"path"`
		State        string `json:"state"`
		Error        string `json:"error"`
		Bytes        int64  `json:"bytes"`
		Verification *struct {
			State  string `json:"state"`
			SHA256 string `json:"sha256"`
			Bytes  int64  `json:"bytes"`
		} `json:"verification"`
	} `json:"downloads"`
	Settled bool `json:"settled"`
}

func downloadsOf(t *testing.T, cs *mcp.ClientSession, args map[string]any) (downloadsOut, *mcp.CallToolResult) {
	t.Helper()
	r := call(t, cs, "downloads", args)
	require.False(t, r.IsError, textOf(r))
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	var out downloadsOut
	require.NoError(t, json.Unmarshal(b, &out))
	return out, r
}

func TestDownloads(t *testing.T) {
	e := newEnv(t)
	site := downloadSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/downloads.html")

	none, _ := downloadsOf(t, cs, map[string]any{})
	assert.Empty(t, none.Downloads)

	// A download link: the click says a download started, and downloads
	// finds the file whole.
	a := interact(t, cs, map[string]any{"query": "Report", "action": "click", "tabId": tab})
	assert.Contains(t, a.Change.Summary, "download started: report.csv", "%+v", a)
	got, r := downloadsOf(t, cs, map[string]any{"tabId": tab, "waitMs": 10000})
	require.True(t, got.Settled, textOf(r))
	require.Len(t, got.Downloads, 1, textOf(r))
	d := got.Downloads[0]
	assert.Equal(t, "complete", d.State)
	assert.Equal(t, tab, d.TabID)
	require.NotNil(t, d.Verification)
	sum := sha256.Sum256(report)
	assert.Equal(t, "verified", d.Verification.State)
	assert.Equal(t, hex.EncodeToString(sum[:]), d.Verification.SHA256)
	onDisk, err := os.ReadFile(d.Path)
	require.NoError(t, err)
	assert.Equal(t, report, onDisk)
	var linked bool
	for _, c := range r.Content {
		if l, ok := c.(*mcp.ResourceLink); ok && strings.HasSuffix(l.URI, "/report.csv") {
			linked = true
			assert.Equal(t, int64(len(report)), *l.Size)
		}
	}
	assert.True(t, linked, "a resource link to the file: %s", textOf(r))

	// A download the server cuts short is interrupted, with its reason.
	interact(t, cs, map[string]any{"query": "Cut short", "action": "click", "tabId": tab})
	got, r = downloadsOf(t, cs, map[string]any{"tabId": tab, "waitMs": 10000})
	require.True(t, got.Settled, textOf(r))
	require.Len(t, got.Downloads, 2, textOf(r))
	cut := got.Downloads[1]
	assert.Equal(t, "interrupted", cut.State, textOf(r))
	assert.NotEmpty(t, cut.Error)
	assert.Nil(t, cut.Verification, "only a complete file is verified")

	// A link that opens a tab to download in: the download is the opener's.
	interact(t, cs, map[string]any{"query": "Report in a new tab", "action": "click", "tabId": tab})
	require.Eventually(t, func() bool {
		got, _ = downloadsOf(t, cs, map[string]any{"waitMs": 5000})
		return len(got.Downloads) == 3 && got.Settled
	}, 20*time.Second, 100*time.Millisecond)
	assert.Equal(t, "other.csv", got.Downloads[2].Name)
	assert.Equal(t, tab, got.Downloads[2].TabID)

	// A URL that is a file: navigate says a download started, and the tab
	// stays where it was; it is no failed navigation.
	var nav struct {
		URL       string `json:"url"`
		Downloads []struct {
			Name string `json:"name"`
		} `json:"downloads"`
		Change      struct{ Type, Summary string } `json:"change"`
		NextActions []struct{ Tool string }        `json:"nextActions"`
	}
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/download/report.csv", "tabId": tab}, &nav)
	assert.Equal(t, site.URL+"/downloads.html", nav.URL, "the tab stays on its page")
	require.Len(t, nav.Downloads, 1)
	assert.Regexp(t, `^report.*\.csv$`, nav.Downloads[0].Name)
	assert.Equal(t, "download", nav.Change.Type)
	require.NotEmpty(t, nav.NextActions)
	assert.Equal(t, "downloads", nav.NextActions[0].Tool)
	got, r = downloadsOf(t, cs, map[string]any{"tabId": tab, "waitMs": 10000})
	require.Len(t, got.Downloads, 4, textOf(r))
	assert.Equal(t, "complete", got.Downloads[3].State)

	// The person's own download is never listed.
	p := e.personOpens(site.URL + "/downloads.html?who=person")
	p.waitFor(`document.querySelector("a")`)
	p.click("a")
	var theirs int
	require.Eventually(t, func() bool {
		return e.devtools().evalExtension(`chrome.downloads.search({}).then((l) => l.length)`, &theirs) == nil && theirs == 5
	}, 10*time.Second, 100*time.Millisecond, "the person's download happened")
	got, _ = downloadsOf(t, cs, map[string]any{})
	assert.Len(t, got.Downloads, 4, "the person's download is not the agent's")

	fails(t, cs, "downloads", map[string]any{"tabId": -1}, "bad_request")
}

// TestAPDFSaysHowToReadIt opens a PDF, which Chrome shows in a viewer of
// its own that no read reaches: read_page says so in both modes, and the
// way it gives to read the text saves the file whole, where downloads
// names it.
func TestAPDFSaysHowToReadIt(t *testing.T) {
	e := newEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/report.pdf")

	var tree string
	for _, mode := range []string{"tree", "text"} {
		tree = ok(t, cs, "read_page", map[string]any{"tabId": tab, "mode": mode})
		assert.Contains(t, tree, "a PDF in Chrome's viewer: no read reaches its text", mode)
	}
	save := regexp.MustCompile(`javascript_tool "([^"]+)"`).FindStringSubmatch(tree)
	require.NotNil(t, save, tree)
	ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": save[1]})
	got, r := downloadsOf(t, cs, map[string]any{"tabId": tab, "waitMs": 10000})
	require.Len(t, got.Downloads, 1, textOf(r))
	assert.Equal(t, "complete", got.Downloads[0].State)
	want, err := fs.ReadFile(sitePages, "testdata/site/report.pdf")
	require.NoError(t, err)
	onDisk, err := os.ReadFile(got.Downloads[0].Path)
	require.NoError(t, err)
	assert.Equal(t, want, onDisk)
}
