package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/host/task"
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

// evidenceManifest is manifest.json, and what the tool returns.
type evidenceManifest struct {
	BundleID string         `json:"bundle_id"`
	Dir      string         `json:"dir"`
	Created  string         `json:"created_at"`
	URL      string         `json:"url"`
	Title    string         `json:"title"`
	Parts    []evidencePart `json:"parts"`
}

func evidenceBundle(ctx context.Context, c *call, tab int, in evidenceIn, s *task.Sink) (any, error) {
	include := in.Include
	if len(include) == 0 {
		include = []string{"dom", "screenshot", "tree"}
	}
	id := newArtifactID()
	dir := c.engine.home.Path("evidence", id)
	m := &evidenceManifest{BundleID: id, Dir: dir, Created: c.engine.now().UTC().Format("2006-01-02T15:04:05Z")}
	// Console and network entries exist only while the tab is observed.
	// A bundle that asks for them starts observing if nobody had, and
	// leaves it on, so the next bundle of this tab has what happened since.
	var justStarted bool
	if slices.Contains(include, "console") || slices.Contains(include, "network") {
		first, err := c.readEvents(ctx, tab, 0, "navigation")
		if err != nil {
			return nil, err
		}
		if !first.Observing {
			if _, err := browser.ObserveSet(tab, true).Run(ctx, c); err != nil {
				return nil, err
			}
			justStarted = true
		}
	}
	add := func(name, file, mime string, data []byte, note string) error {
		sum := sha256.Sum256(data)
		if err := writeFile(dir+"/"+file, data); err != nil {
			return err
		}
		m.Parts = append(m.Parts, evidencePart{Name: name, File: file, Bytes: len(data), SHA256: hex.EncodeToString(sum[:]), Mime: mime, Note: note})
		return nil
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
			if shot, err = browser.PageScreenshot(tab, "png", 0, false).Run(ctx, c); err == nil {
				err = add(part, "screenshot.png", "image/png", shot.Data, "the viewport")
			}
		case "tree":
			var snap *pagetree.Snapshot
			if snap, err = c.readTree(ctx, tab, treeRead{noValues: true}); err == nil {
				err = add(part, "tree.txt", "text/plain", []byte(snap.Header+"\n"+strings.Join(snap.Lines, "\n")+"\n"), "read_page's tree, without the values of controls")
			}
		case "console", "network":
			kinds := []string{"console", "exception"}
			if part == "network" {
				kinds = []string{"request"}
			}
			var ev browser.Events
			if ev, err = c.readEvents(ctx, tab, 0, kinds...); err == nil {
				note := fmt.Sprintf("%d entries", len(ev.Events))
				if justStarted {
					note += "; the tab was not observed before this bundle, so earlier entries are not here; it is observed from now on"
				}
				if ev.Dropped > 0 {
					note += fmt.Sprintf("; %d older entries were dropped", ev.Dropped)
				}
				var b []byte
				if b, err = marshal(ev.Events); err == nil {
					err = add(part, part+".json", "application/json", b, note)
				}
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
	if _, err := writeJSON(dir+"/manifest.json", m); err != nil {
		return nil, err
	}
	s.Progress(float64(len(include)), float64(len(include)), "saved %s", dir)
	return m, nil
}
