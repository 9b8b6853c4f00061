package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// uploadReport is what upload.html tells the server of a choice.
type uploadReport struct {
	Events []string `json:"events"`
	Files  []struct {
		Input  string `json:"input"`
		Name   string `json:"name"`
		Size   int64  `json:"size"`
		SHA256 string `json:"sha256"`
	} `json:"files"`
}

// uploadSite serves upload.html and hands over each report it posts.
func uploadSite(t *testing.T) (srv string, reports <-chan uploadReport) {
	ch := make(chan uploadReport, 8)
	s := siteWith(t, map[string]http.HandlerFunc{
		"/upload-report": func(w http.ResponseWriter, r *http.Request) {
			var rep uploadReport
			b, _ := io.ReadAll(r.Body)
			if json.Unmarshal(b, &rep) == nil {
				ch <- rep
			}
		},
	})
	return s.URL, ch
}

func nextReport(t *testing.T, reports <-chan uploadReport) uploadReport {
	t.Helper()
	select {
	case r := <-reports:
		return r
	case <-time.After(15 * time.Second):
		t.Fatal("the page reported no upload")
		return uploadReport{}
	}
}

func writeFile(t *testing.T, path, body string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return path
}

func sha(body string) string {
	s := sha256.Sum256([]byte(body))
	return hex.EncodeToString(s[:])
}

func TestUploadFile(t *testing.T) {
	e := newEnv(t)
	site, reports := uploadSite(t)

	// The roots: the directory openchrome mcp runs in (e.userHome), the
	// client's root, ~/.openchrome/uploads.
	clientRoot := t.TempDir()
	// Roots are asked of the client in a call, which MCP 2026-07-28 no
	// longer allows (SEP-2577 deprecates them): a client of an earlier
	// version, as most are, still declares them.
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	c.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: clientRoot}).String(), Name: "project"})
	cs := e.connect(c, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})

	cv := writeFile(t, filepath.Join(e.userHome, "cv.txt"), "my curriculum vitae\n")
	photoA := writeFile(t, filepath.Join(clientRoot, "photos", "a.png"), "png A")
	photoB := writeFile(t, filepath.Join(e.home.Path("uploads"), "b.png"), "png B")
	secret := writeFile(t, filepath.Join(e.userHome, ".env"), "TOKEN=hunter2")
	outside := writeFile(t, filepath.Join(t.TempDir(), "passwd"), "root:x:0:0")
	escape := filepath.Join(e.userHome, "escape.txt")
	require.NoError(t, os.Symlink(outside, escape))

	tab := openTab(t, cs, site+"/upload.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	doc := refOf(t, tree, `button "Document"`)
	photos := refOf(t, tree, `button "Photos"`)

	// Refused, and nothing set: outside the roots, a dotfile, a symlink out.
	for _, p := range []string{outside, secret, escape} {
		err := fails(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": doc, "paths": []string{p}}, protocol.CodeUnauthorized)
		assert.Contains(t, err.Hint, e.userHome, "the refusal names the roots")
		assert.Contains(t, err.Hint, clientRoot)
	}
	fails(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": doc, "paths": []string{"cv.txt"}}, protocol.CodeBadRequest)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab, "mode": "text"}), "No file yet")
	select {
	case r := <-reports:
		t.Fatalf("a refused upload reached the page: %+v", r)
	default:
	}

	// By ref: the page gets the file, with input and change events.
	text := ok(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": doc, "paths": []string{cv}})
	assert.Contains(t, text, "cv.txt")
	assert.Contains(t, text, "\ndom: text changed", "what the page did with the file")
	r := nextReport(t, reports)
	assert.Equal(t, []string{"input", "change"}, r.Events)
	require.Len(t, r.Files, 1)
	assert.Equal(t, "doc", r.Files[0].Input)
	assert.Equal(t, "cv.txt", r.Files[0].Name)
	assert.EqualValues(t, len("my curriculum vitae\n"), r.Files[0].Size)
	assert.Equal(t, sha("my curriculum vitae\n"), r.Files[0].SHA256)

	// Two files on a multiple input, from the client's root and the uploads
	// directory; two on a single one are refused.
	fails(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": doc, "paths": []string{photoA, photoB}}, protocol.CodeBadRequest)
	ok(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": photos, "paths": []string{photoA, photoB}})
	r = nextReport(t, reports)
	require.Len(t, r.Files, 2)
	assert.Equal(t, []string{"a.png", "b.png"}, []string{r.Files[0].Name, r.Files[1].Name})
	assert.Equal(t, sha("png B"), r.Files[1].SHA256)

	// A drop zone with no file input: the files are dragged onto it, once.
	// What does not take dropped files (the page's heading) is given none:
	// the browser would have opened them in the tab.
	found := func(query string) string {
		m := regexp.MustCompile(`\n\S+(?: "[^"]*")? (e\d+) `).FindStringSubmatch(ok(t, cs, "find", map[string]any{"tabId": tab, "query": query}))
		require.NotNil(t, m, "find %q", query)
		return m[1]
	}
	text = ok(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": found("Drop photos here"), "paths": []string{photoA, photoB}})
	assert.Contains(t, text, "dropped 2 file(s) on")
	r = nextReport(t, reports)
	assert.Equal(t, []string{"drop"}, r.Events)
	require.Len(t, r.Files, 2)
	assert.Equal(t, "drop", r.Files[0].Input)
	assert.Equal(t, sha("png A"), r.Files[0].SHA256)
	err := fails(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": found("heading Upload"), "paths": []string{cv}}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "does not take dropped files")
	assert.Equal(t, `"`+site+`/upload.html"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "location.href"}), "the tab stayed")

	// A click that opens a file chooser says so; upload_file answers it.
	fails(t, cs, "upload_file", map[string]any{"tabId": tab, "paths": []string{cv}}, protocol.CodeBadRequest)
	var a struct {
		FileChooser *struct {
			Multiple bool   `json:"multiple"`
			Next     string `json:"next"`
		} `json:"fileChooser"`
	}
	okJSON(t, cs, "interact", map[string]any{"tabId": tab, "query": "Choose a document", "action": "click"}, &a)
	require.NotNil(t, a.FileChooser, "the click's result names the chooser")
	assert.Contains(t, a.FileChooser.Next, "upload_file")
	text = ok(t, cs, "upload_file", map[string]any{"tabId": tab, "paths": []string{cv}})
	assert.Contains(t, text, "\ndom: text changed", "what the page did with the file it was given")
	r = nextReport(t, reports)
	require.Len(t, r.Files, 1)
	assert.Equal(t, "hidden-doc", r.Files[0].Input)

	// Typing into a file input says what to call instead.
	err = fails(t, cs, "interact", map[string]any{"tabId": tab, "ref": doc, "action": "fill", "text": cv}, protocol.CodeBadRequest)
	assert.Contains(t, err.Hint, "upload_file")

	// A form that sends itself when a file is chosen: the answer says where
	// the tab went, and what to call next.
	var sent struct {
		Change struct {
			Type, Summary string
		} `json:"change"`
		NextActions []struct{ Tool string } `json:"nextActions"`
	}
	res := call(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": refOf(t, tree, `button "Send at once"`), "paths": []string{cv}})
	require.False(t, res.IsError, textOf(res))
	b, jerr := json.Marshal(res.StructuredContent)
	require.NoError(t, jerr)
	require.NoError(t, json.Unmarshal(b, &sent), "%s", b)
	assert.Equal(t, "navigation", sent.Change.Type)
	assert.Contains(t, sent.Change.Summary, "/upload.html?auto=cv.txt")
	require.NotEmpty(t, sent.NextActions)
	assert.Equal(t, "read_page", sent.NextActions[0].Tool)
}
