package engine

import (
	"bytes"
	"context"
	"fmt"
	"regexp"

	"github.com/openchrome/openchrome/host/artifact"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type pdfIn struct {
	tabArgs
	Landscape       bool `json:"landscape,omitempty"`
	PrintBackground bool `json:"printBackground,omitempty"`
}

func pdfTool() Tool {
	return defineTab("page_pdf", GroupCore, "Print a tab's page to a PDF file.", pagePDF)
}

// pageObject is how a PDF marks a page (not the /Pages tree above them).
var pageObject = regexp.MustCompile(`/Type\s*/Page\b[^s]`)

func pagePDF(ctx context.Context, c *call, tab int, in pdfIn) (*protocol.ToolResult, error) {
	out, err := browser.PagePDF(tab, in.Landscape, in.PrintBackground).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(out.Data, []byte("%PDF-")) {
		return nil, protocol.Errorf(protocol.CodeInternal, "the browser printed no PDF")
	}
	path := c.engine.home.Path("artifacts", "page-"+artifact.NewID()+".pdf")
	if err := c.engine.files.Binary(path, out.Data); err != nil {
		return nil, err
	}
	f := artifact.Verify(path, "application/pdf", int64(len(out.Data)))
	pages := len(pageObject.FindAll(out.Data, -1))
	r, err := textResult(fmt.Sprintf("tab %d printed to %s: %d pages, %s, %s", tab, path, pages, bytesText(f.Bytes), f.State), struct {
		TabID int `json:"tabId"`
		Pages int `json:"pages"`
		artifact.File
	}{tab, pages, f})
	if err != nil {
		return nil, err
	}
	r.Content = append(r.Content, artifact.Links(f)...)
	return r, nil
}
