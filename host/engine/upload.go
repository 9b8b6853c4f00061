package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/protocol"
)

type uploadIn struct {
	tabArgs
	Ref   string   `json:"ref,omitempty" jsonschema:"file input or drop zone; default: the open chooser"`
	Paths []string `json:"paths" jsonschema:"absolute, in the upload roots"`
}

func (in *uploadIn) validate() error {
	if in.Ref != "" {
		if _, err := pagetree.ParseRef(in.Ref); err != nil {
			return err
		}
	}
	return nil
}

func uploadTool() Tool {
	t := defineTab("upload_file", GroupCore,
		"Give files to a file input, a drop zone or the chooser a click opened.",
		uploadFiles,
		func(s *jsonschema.Schema) {
			one := 1
			property(s, "paths").MinItems = &one
		})
	t.ReadsFiles = true
	return t
}

func uploadFiles(ctx context.Context, c *call, tab int, in uploadIn) (*protocol.ToolResult, error) {
	roots := c.uploadRoots()
	files, err := uploadable(in.Paths, roots)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(files))
	names := make([]string, len(files))
	for i, f := range files {
		paths[i], names[i] = f.Path, f.Name
	}
	done, err := browser.ElementUpload(tab, in.Ref, paths).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	c.detail = strings.Join(names, ", ")
	c.followOpened(done.Opened)
	if done.Blocked != nil {
		// A drop zone something covers: nothing was dropped, and the
		// answer names what covers it, as interact's does.
		return c.actionResult(ctx, tab, &acted{Acted: done.Acted, Error: blockedError(done.Acted)}, true, "")
	}
	if done.NavigationBlocked != nil {
		return nil, done.NavigationBlocked.Error()
	}
	to := "the file chooser"
	if done.Ref != "" {
		to = fmt.Sprintf("%s %s", done.Ref, done.Target)
	}
	ch, next := changeOf(tab, actedEffects(done.Acted))
	var b strings.Builder
	verb := "set"
	if done.Strategy == "drop" {
		verb = "dropped" // on a drop zone, as a person drags them in
	}
	fmt.Fprintf(&b, "%s %d file(s) on %s:", verb, len(files), to)
	for _, f := range files {
		fmt.Fprintf(&b, "\n%s (%s)", f.Name, bytesText(f.Bytes))
	}
	fmt.Fprintf(&b, "\n%s: %s", ch.Type, ch.Summary)
	return textResult(b.String(), struct {
		TabID       int          `json:"tabId"`
		Ref         string       `json:"ref,omitempty"`
		Files       []chosenFile `json:"files"`
		Change      change       `json:"change"`
		NextActions []nextAction `json:"nextActions,omitempty"`
	}{tab, done.Ref, files, ch, next})
}

// uploadRoots are the directories upload_file may read: the agent's side's
// (the MCP client's roots, the directory `openchrome mcp` runs in, its
// --upload-root directories), ~/.openchrome/uploads and the uploadRoots of
// the person's config.json.
func (c *call) uploadRoots() []string {
	roots := append(append([]string(nil), c.bc.Roots...), c.engine.home.Path("uploads"))
	if cfg, err := c.engine.config.get(); err == nil {
		roots = append(roots, cfg.UploadRoots...) // the person's config.json
	}
	return roots
}

// chosenFile is a file upload_file gives a page.
type chosenFile struct {
	Path  string `json:"path"`
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}

// uploadable checks paths against roots: each must name a regular file
// that, symlinks resolved, lies inside a root, with no dotfile or
// dot-directory on the way from the root to it (.env, .ssh/id_ed25519). It
// returns the files, resolved, or an error naming the first path refused
// and the roots.
func uploadable(paths, roots []string) ([]chosenFile, error) {
	var real []string
	for _, r := range roots {
		if rr, err := filepath.EvalSymlinks(r); err == nil && filepath.IsAbs(rr) {
			real = append(real, rr)
		}
	}
	refuse := func(code protocol.Code, format string, args ...any) error {
		hint := "upload roots: none (start openchrome mcp in the directory, or pass --upload-root DIR)"
		if len(real) > 0 {
			hint = "upload roots: " + strings.Join(real, ", ") + " (copy the file into one, or pass openchrome mcp --upload-root DIR)"
		}
		return protocol.Errorf(code, format, args...).WithHint(hint)
	}
	out := make([]chosenFile, 0, len(paths))
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return nil, refuse(protocol.CodeBadRequest, "%q is not an absolute path", p)
		}
		if dotted(filepath.Base(p)) {
			return nil, refuse(protocol.CodeUnauthorized, "%s is a dotfile: upload_file never reads one", p)
		}
		resolved, err := filepath.EvalSymlinks(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, refuse(protocol.CodeNotFound, "no file at %s", p)
		}
		if err != nil {
			return nil, refuse(protocol.CodeBadRequest, "%s cannot be read: %v", p, err)
		}
		rel, ok := under(resolved, real)
		if !ok {
			return nil, refuse(protocol.CodeUnauthorized, "%s is outside the upload roots", p)
		}
		for part := range strings.SplitSeq(rel, string(filepath.Separator)) {
			if dotted(part) {
				return nil, refuse(protocol.CodeUnauthorized, "%s is in or is a dotfile (%s): upload_file never reads one", p, part)
			}
		}
		info, err := os.Stat(resolved)
		if err != nil {
			return nil, refuse(protocol.CodeBadRequest, "%s cannot be read: %v", p, err)
		}
		if !info.Mode().IsRegular() {
			return nil, refuse(protocol.CodeBadRequest, "%s is not a file", p)
		}
		out = append(out, chosenFile{Path: resolved, Name: filepath.Base(resolved), Bytes: info.Size()})
	}
	return out, nil
}

// under returns path relative to the first root it lies in.
func under(path string, roots []string) (string, bool) {
	for _, r := range roots {
		rel, err := filepath.Rel(r, path)
		if err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel, true
		}
	}
	return "", false
}

func dotted(name string) bool { return strings.HasPrefix(name, ".") }
