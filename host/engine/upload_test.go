package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// uploadTree is a root with files an agent may and may not upload, and a
// directory beside it that is outside every root.
func uploadTree(t *testing.T) (root, outside string) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root, outside = filepath.Join(base, "work"), filepath.Join(base, "elsewhere")
	for _, dir := range []string{root, outside, filepath.Join(root, "docs"), filepath.Join(root, ".ssh")} {
		require.NoError(t, os.MkdirAll(dir, 0o700))
	}
	write := func(path, body string) { require.NoError(t, os.WriteFile(path, []byte(body), 0o600)) }
	write(filepath.Join(root, "report.pdf"), "%PDF-1.7")
	write(filepath.Join(root, "docs", "cv.txt"), "curriculum")
	write(filepath.Join(root, ".env"), "TOKEN=1")
	write(filepath.Join(root, ".ssh", "id_ed25519"), "key")
	write(filepath.Join(outside, "passwd"), "root:x")
	require.NoError(t, os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(root, "escape.txt")))
	require.NoError(t, os.Symlink(filepath.Join(root, ".env"), filepath.Join(root, "env.txt")))
	require.NoError(t, os.Symlink(filepath.Join(root, "docs", "cv.txt"), filepath.Join(root, "cv-link.txt")))
	return root, outside
}

func TestUploadableOnlyInsideTheRoots(t *testing.T) {
	root, outside := uploadTree(t)
	tests := []struct {
		name string
		path string
		code protocol.Code // empty: accepted
		want string        // the file given, when accepted
	}{
		{"a file in a root", filepath.Join(root, "report.pdf"), "", filepath.Join(root, "report.pdf")},
		{"in a subdirectory", filepath.Join(root, "docs", "cv.txt"), "", filepath.Join(root, "docs", "cv.txt")},
		{"a symlink inside, resolved", filepath.Join(root, "cv-link.txt"), "", filepath.Join(root, "docs", "cv.txt")},
		{"outside", filepath.Join(outside, "passwd"), protocol.CodeUnauthorized, ""},
		{"out through ..", filepath.Join(root, "..", "elsewhere", "passwd"), protocol.CodeUnauthorized, ""},
		{"a symlink escaping the root", filepath.Join(root, "escape.txt"), protocol.CodeUnauthorized, ""},
		{"a dotfile", filepath.Join(root, ".env"), protocol.CodeUnauthorized, ""},
		{"a symlink to a dotfile", filepath.Join(root, "env.txt"), protocol.CodeUnauthorized, ""},
		{"in a dot-directory", filepath.Join(root, ".ssh", "id_ed25519"), protocol.CodeUnauthorized, ""},
		{"a directory", filepath.Join(root, "docs"), protocol.CodeBadRequest, ""},
		{"the root itself", root, protocol.CodeUnauthorized, ""},
		{"missing", filepath.Join(root, "nope.pdf"), protocol.CodeNotFound, ""},
		{"relative", "report.pdf", protocol.CodeBadRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := uploadable([]string{tt.path}, []string{root})
			if tt.code == "" {
				require.NoError(t, err)
				require.Len(t, files, 1)
				assert.Equal(t, tt.want, files[0].Path)
				assert.Equal(t, filepath.Base(tt.want), files[0].Name)
				return
			}
			var pe *protocol.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.code, pe.Code, pe.Message)
			assert.Contains(t, pe.Hint, root, "the refusal names the roots")
			assert.Nil(t, files)
		})
	}
}

func TestUploadableAllOrNothing(t *testing.T) {
	root, outside := uploadTree(t)
	_, err := uploadable([]string{filepath.Join(root, "report.pdf"), filepath.Join(outside, "passwd")}, []string{root})
	require.Error(t, err, "one path refused refuses the call")

	// A root reached through a symlink, and a root that does not exist.
	link := filepath.Join(t.TempDir(), "work-link")
	require.NoError(t, os.Symlink(root, link))
	files, err := uploadable([]string{filepath.Join(link, "report.pdf")}, []string{filepath.Join(root, "missing"), link})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "report.pdf"), files[0].Path)
	assert.EqualValues(t, len("%PDF-1.7"), files[0].Bytes)

	_, err = uploadable([]string{filepath.Join(root, "report.pdf")}, nil)
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, pe.Hint, "--upload-root")
}

// TestUploadFileSendsOnlyCheckedPaths runs upload_file against a fake
// browser: the command carries the resolved paths, a refused call sends
// nothing, and the side panel's activity names the files, not their paths.
func TestUploadFileSendsOnlyCheckedPaths(t *testing.T) {
	root, outside := uploadTree(t)
	e, fb := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 3}}, func(cmd protocol.Command) (any, *protocol.Error) {
		return browser.Uploaded{Acted: browser.Acted{Ref: "e4", Target: `button "Document"`, Changes: "1 element added"}, Files: 1}, nil
	}))
	upload := func(args string) *protocol.ToolResult {
		return e.Call(context.Background(), &bridge.Call{Agent: "a1", Tool: "upload_file", Args: json.RawMessage(args), Roots: []string{root}})
	}

	wantError(t, upload(`{"tabId":3,"ref":"e4","paths":[`+jsonString(filepath.Join(outside, "passwd"))+`]}`), protocol.CodeUnauthorized)
	wantError(t, upload(`{"tabId":3,"ref":"e4","paths":[]}`), protocol.CodeBadRequest)
	wantError(t, upload(`{"tabId":3,"ref":"x4","paths":["/a"]}`), protocol.CodeBadRequest)
	for _, a := range fb.actions() {
		assert.NotEqual(t, "element.upload", a, "a refused upload sends nothing")
	}

	r := upload(`{"tabId":3,"ref":"e4","paths":[` + jsonString(filepath.Join(root, "cv-link.txt")) + `]}`)
	assert.Contains(t, textOf(t, r), "cv.txt")
	assert.Contains(t, textOf(t, r), "\ndom: 1 element added", "what the page did with the file")
	var sent struct {
		Ref   string   `json:"ref"`
		Files []string `json:"files"`
	}
	cmd := fb.last()
	require.Equal(t, "element.upload", cmd.Action)
	require.NoError(t, json.Unmarshal(cmd.Params, &sent))
	assert.Equal(t, "e4", sent.Ref)
	assert.Equal(t, []string{filepath.Join(root, "docs", "cv.txt")}, sent.Files, "the link, resolved")
	a := e.state.recent()
	require.NotEmpty(t, a)
	assert.Equal(t, "upload_file", a[0].Tool)
	assert.Equal(t, "cv.txt", a[0].Detail, "the person sees which file, never where it was")
}

// TestUploadFileOnADropZone: files dropped on a drop zone are said as
// dropped; a drop zone something covers gets none, and the answer names
// the cover and what dismisses it, as interact's does.
func TestUploadFileOnADropZone(t *testing.T) {
	root, _ := uploadTree(t)
	delivered := false
	tests := []struct {
		name   string
		answer browser.Uploaded
		want   string
		code   protocol.Code
	}{
		{"dropped", browser.Uploaded{Acted: browser.Acted{Ref: "e7", Target: `div "Drop files here"`, Strategy: "drop", Changes: "1 element added"}, Files: 1},
			`dropped 1 file(s) on e7 div "Drop files here"`, ""},
		{"covered", browser.Uploaded{Acted: browser.Acted{Ref: "e7", Target: `div "Drop files here"`, Delivered: &delivered,
			Blocked: &browser.Blocked{By: &browser.Control{Ref: "e2", Name: `dialog "Cookies"`}, Dismiss: []browser.Control{{Ref: "e3", Name: `button "Accept"`}}}}},
			`covered by dialog \"Cookies\" e2: nothing was done`, protocol.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 3}}, func(cmd protocol.Command) (any, *protocol.Error) {
				return tt.answer, nil
			}))
			r := e.Call(context.Background(), &bridge.Call{Agent: "a1", Tool: "upload_file", Roots: []string{root},
				Args: json.RawMessage(`{"tabId":3,"ref":"e7","paths":[` + jsonString(filepath.Join(root, "report.pdf")) + `]}`)})
			assert.Equal(t, tt.code != "", r.IsError)
			assert.Contains(t, textOf(t, r), tt.want)
			if tt.code != "" {
				assert.Contains(t, textOf(t, r), `"code":"`+string(tt.code)+`"`)
				assert.Contains(t, textOf(t, r), `"dismiss":[{"ref":"e3"`)
			}
		})
	}
}
