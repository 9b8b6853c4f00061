package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/jpeg" // DecodeConfig of JPEG screenshots
	_ "image/png"  // and of PNG ones

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type screenshotIn struct {
	TabID    int    `json:"tabId,omitempty" jsonschema:"default: the current tab"`
	Format   string `json:"format,omitempty" jsonschema:"default png"`
	Quality  int    `json:"quality,omitempty" jsonschema:"JPEG quality; default 80"`
	FullPage bool   `json:"fullPage,omitempty" jsonschema:"the whole page, not just the viewport"`
}

func screenshotTool() Tool {
	return readOnly(define("page_screenshot", GroupCore,
		"Take a screenshot of a tab's viewport or whole page.",
		screenshot,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			enum(s, "format", "png", "jpeg")
			between(s, "quality", 1, 100)
		}))
}

func screenshot(ctx context.Context, c *call, in screenshotIn) (*protocol.ToolResult, error) {
	tab, err := c.needTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	format, quality := in.Format, in.Quality
	if format == "" {
		format = "png"
	}
	if format == "png" && quality != 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "quality applies to JPEG only").
			WithHint(`pass format "jpeg" with quality, or drop quality`)
	}
	if format == "jpeg" && quality == 0 {
		quality = 80
	}
	var shot struct {
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
	}
	if err := c.do(ctx, pageScreenshot(tab, format, quality, in.FullPage), &shot); err != nil {
		return nil, err
	}
	img, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return nil, fmt.Errorf("engine: screenshot is not base64: %w", err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		return nil, fmt.Errorf("engine: screenshot is not an image: %w", err)
	}
	return &protocol.ToolResult{Content: []protocol.Content{
		{Type: "image", Data: img, MimeType: "image/" + format},
		{Type: "text", Text: fmt.Sprintf("tab %d, %dx%d %s, %d bytes", tab, cfg.Width, cfg.Height, format, len(img))},
	}}, nil
}
