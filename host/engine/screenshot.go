package engine

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg" // DecodeConfig of JPEG screenshots
	_ "image/png"  // and of PNG ones

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/protocol"
)

type screenshotIn struct {
	tabArgs
	Format   string        `json:"format,omitempty"`
	Quality  int           `json:"quality,omitempty"`
	FullPage bool          `json:"fullPage,omitempty"`
	Ref      string        `json:"ref,omitempty" jsonschema:"one element"`
	Clip     *browser.Rect `json:"clip,omitempty" jsonschema:"a rectangle of the viewport, CSS pixels"`
}

func (in screenshotIn) target() target { return in.sentTarget() }

func (in *screenshotIn) validate() error {
	if n := btoi(in.FullPage) + btoi(in.Ref != "") + btoi(in.Clip != nil); n > 1 {
		return protocol.Errorf(protocol.CodeBadRequest, "pass one of fullPage, ref and clip")
	}
	if in.Clip != nil && (in.Clip.Width <= 0 || in.Clip.Height <= 0) {
		return protocol.Errorf(protocol.CodeBadRequest, "clip must have a width and a height")
	}
	if in.Ref != "" {
		if _, err := pagetree.ParseRef(in.Ref); err != nil {
			return err
		}
	}
	if in.Format == "" {
		in.Format = "png"
	}
	if in.Format == "png" && in.Quality != 0 {
		return protocol.Errorf(protocol.CodeBadRequest, "quality applies to JPEG only").
			WithHint(`pass format "jpeg" with quality, or drop quality`)
	}
	if in.Format == "jpeg" && in.Quality == 0 {
		in.Quality = 80
	}
	return nil
}

func screenshotTool() Tool {
	return defineTab("page_screenshot", GroupCore,
		"Screenshot a tab's viewport, whole page, one element or a rectangle.",
		screenshot,
		func(s *jsonschema.Schema) {
			enum(s, "format", "png", "jpeg")
			between(s, "quality", 1, 100)
		})
}

// maxImageBytes is the most an image a model reads may hold: Claude's API
// refuses one whose base64 is over 5 MiB.
const maxImageBytes = 5 << 20 / 4 * 3

func screenshot(ctx context.Context, c *call, tab int, in screenshotIn) (*protocol.ToolResult, error) {
	shoot := func() (browser.Image, error) {
		return browser.PageScreenshot(tab, browser.Shot{Format: in.Format, Quality: in.Quality, FullPage: in.FullPage,
			Clip: in.Clip, Ref: in.Ref}).Run(ctx, c)
	}
	shot, err := shoot()
	if err != nil {
		return nil, err
	}
	if len(shot.Data) > maxImageBytes && in.Format == "png" {
		// A photo-laden page's PNG: the same picture as a JPEG is a fraction.
		in.Format, in.Quality = "jpeg", 80
		if shot, err = shoot(); err != nil {
			return nil, err
		}
	}
	if len(shot.Data) > maxImageBytes {
		return nil, protocol.Errorf(protocol.CodeTooLarge, "the screenshot is %d bytes, over the %d an image a model reads may have",
			len(shot.Data), maxImageBytes).WithHint("take a part of it (ref or clip), or a jpeg with a lower quality")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(shot.Data))
	if err != nil {
		return nil, fmt.Errorf("engine: screenshot is not an image: %w", err)
	}
	text := fmt.Sprintf("tab %d, %dx%d %s, %d bytes", tab, cfg.Width, cfg.Height, in.Format, len(shot.Data))
	if shot.Scale > 0 && shot.Scale < 1 {
		// Its pixels are not the page's: coordinates read off it are not computer's.
		text += fmt.Sprintf(", shrunk to %g of the page's pixels to keep within 8000 px", shot.Scale)
	}
	r, err := textResult(text, struct {
		TabID  int     `json:"tabId"`
		Width  int     `json:"width"`
		Height int     `json:"height"`
		Format string  `json:"format"`
		Bytes  int     `json:"bytes"`
		Scale  float64 `json:"scale,omitempty"`
	}{tab, cfg.Width, cfg.Height, in.Format, len(shot.Data), shot.Scale})
	if err != nil {
		return nil, err
	}
	r.Content = append([]protocol.Content{{Type: "image", Data: shot.Data, MimeType: "image/" + in.Format}}, r.Content...)
	return r, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
