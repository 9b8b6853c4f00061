package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/artifact"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

type evidenceIn struct {
	tabArgs
	Include []string `json:"include,omitempty" jsonschema:"default dom, screenshot, tree"`
}

func evidenceTool() Tool {
	return defineTabJob("oc_evidence_bundle",
		"Save a tab's DOM, screenshot, tree, console and network, redacted, with sha256 sums.",
		evidenceBundle,
		func(s *jsonschema.Schema) {
			for _, v := range []string{"dom", "screenshot", "tree", "console", "network"} {
				property(s, "include").Items.Enum = append(property(s, "include").Items.Enum, v)
			}
		})
}

// evidencePart is one file of a bundle, as manifest.json lists it.
type evidencePart struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
	Mime   string `json:"mime"`
	Note   string `json:"note,omitempty"`
}

// Files are the bundle's files, verified against the sums it wrote.
func (m *evidenceManifest) Files() []artifact.File {
	files := []artifact.File{artifact.Verify(m.Dir+"/manifest.json", "application/json", -1)}
	for _, p := range m.Parts {
		files = append(files, artifact.Verify(m.Dir+"/"+p.File, p.Mime, int64(p.Bytes)))
	}
	return files
}

// evidenceManifest is manifest.json, and what the tool returns.
type evidenceManifest struct {
	BundleID string         `json:"bundle_id"`
	Dir      string         `json:"dir"`
	Created  string         `json:"created_at"`
	URL      string         `json:"url"`
	Title    string         `json:"title"`
	Parts    []evidencePart `json:"parts"`
	// Missing are the parts asked for that the browser could not give
	// now, and why: a screenshot of a tab hidden behind the person's own,
	// or of a page a dialog holds. The rest of the bundle is kept.
	Missing []evidenceMissing `json:"missing,omitempty"`
}

type evidenceMissing struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

func evidenceBundle(ctx context.Context, c *call, tab int, in evidenceIn, s *task.Sink) (any, error) {
	include := in.Include
	if len(include) == 0 {
		include = []string{"dom", "screenshot", "tree"}
	}
	id := artifact.NewID()
	dir := c.engine.home.Path("evidence", id)
	m := &evidenceManifest{BundleID: id, Dir: dir, Created: c.engine.now().UTC().Format("2006-01-02T15:04:05Z")}
	c.touch(tab, "")
	files := c.files(ctx)
	add := func(name, file, mime string, data []byte, note string) error {
		var err error
		if strings.HasPrefix(mime, "image/") {
			err = files.Binary(dir+"/"+file, data)
		} else {
			data, err = files.Text(dir+"/"+file, data)
		}
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		m.Parts = append(m.Parts, evidencePart{Name: name, File: file, Bytes: len(data), SHA256: hex.EncodeToString(sum[:]), Mime: mime, Note: note})
		return nil
	}
	// What the tab logged since it joined the group, as the console and
	// network tools show it.
	addJSON := func(part string, v any, n, dropped int) error {
		b, err := protocol.Marshal(v)
		if err != nil {
			return err
		}
		note := fmt.Sprintf("%d entries since the tab joined the group", n)
		if dropped > 0 {
			note += fmt.Sprintf("; %d older entries were dropped", dropped)
		}
		return add(part, part+".json", "application/json", b, note)
	}
	for i, part := range include {
		s.Progress(float64(i), float64(len(include)), "saving %s", part)
		var err error
		switch part {
		case "dom":
			var dom browser.DOM
			if dom, err = browser.PageDOM(tab).Run(ctx, c); err == nil {
				m.URL, m.Title = c.engine.red.URL(dom.URL), c.engine.red.Text(dom.Title)
				// Values and script bodies are already gone (page.dom
				// sanitizes a copy); what patterns still find goes here.
				err = add(part, "dom.html", "text/html", []byte(c.engine.red.Text(dom.HTML)), "input values and inline scripts removed")
			}
		case "screenshot":
			var shot browser.Image
			shot, err = browser.PageScreenshot(tab, browser.Shot{Format: "png"}).Run(ctx, c)
			switch {
			case err == nil:
				err = add(part, "screenshot.png", "image/png", shot.Data, "the viewport")
			case errors.Is(err, protocol.ErrConflict):
				m.Missing = append(m.Missing, evidenceMissing{Name: part, Why: c.engine.red.Text(protocol.AsError(err).Message)})
				err = nil
			}
		case "tree":
			var snap *pagetree.Snapshot
			if snap, err = c.readTree(ctx, tab, treeRead{noValues: true}); err == nil {
				err = add(part, "tree.txt", "text/plain", []byte(snap.Header+"\n"+strings.Join(snap.Lines, "\n")+"\n"), "read_page's tree, without the values of controls")
			}
		case "console":
			var got browser.Messages
			if got, err = browser.ConsoleRead(tab, nil, "", 0, 500).Run(ctx, c); err == nil {
				got = got.Masked(c.engine.red.Text, c.engine.red.URL)
				err = addJSON(part, nonNil(got.Messages), len(got.Messages), got.Dropped)
			}
		case "network":
			var got browser.Requests
			if got, err = browser.NetworkList(tab, browser.RequestFilter{}, 0, 500).Run(ctx, c); err == nil {
				for i := range got.Requests {
					got.Requests[i].URL = c.engine.red.URL(got.Requests[i].URL)
					got.Requests[i].Error = c.engine.red.Text(got.Requests[i].Error)
				}
				err = addJSON(part, nonNil(got.Requests), len(got.Requests), got.Dropped)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("engine: evidence %s: %w", part, err)
		}
	}
	if m.URL == "" {
		if t, err := browser.TabGet(tab).Run(ctx, c); err == nil {
			m.URL, m.Title = c.engine.red.URL(t.URL), c.engine.red.Text(t.Title)
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if _, err := files.Text(dir+"/manifest.json", b); err != nil {
		return nil, err
	}
	s.Progress(float64(len(include)), float64(len(include)), "saved %s", dir)
	return m, nil
}
