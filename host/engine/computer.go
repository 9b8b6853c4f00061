package engine

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type computerIn struct {
	Action     string    `json:"action"`
	Coordinate []float64 `json:"coordinate,omitempty" jsonschema:"[x, y] in the screenshot's CSS pixels"`
	To         []float64 `json:"to,omitempty" jsonschema:"drag's end [x, y]"`
	Text       string    `json:"text,omitempty"`
	Key        string    `json:"key,omitempty" jsonschema:"e.g. Enter, ctrl+a"`
	Scroll     []float64 `json:"scroll,omitempty" jsonschema:"[dx, dy] pixels"`
	tabArgs
}

func (in *computerIn) validate() error {
	bad := func(format string, args ...any) error {
		return protocol.Errorf(protocol.CodeBadRequest, format, args...)
	}
	switch {
	case in.Action == "type" && in.Text == "":
		return bad("type needs text")
	case in.Action == "key" && in.Key == "" && in.Text != "":
		// As Anthropic's computer tool names it: the key in text.
		in.Key, in.Text = in.Text, ""
	case in.Action == "key" && in.Key == "":
		return bad(`key needs key, e.g. "Enter" or "ctrl+a"`)
	case in.Action == "scroll" && (len(in.Scroll) != 2 || in.Scroll[0] == 0 && in.Scroll[1] == 0):
		return bad("scroll needs scroll: [dx, dy], e.g. [0, 400]")
	case in.Action == "left_click_drag" && len(in.To) == 0:
		return bad("to is required: [x, y] in the screenshot's CSS pixels")
	case len(in.Coordinate) == 0 && in.Action != "screenshot" && in.Action != "type" && in.Action != "key":
		return bad("coordinate is required: [x, y] in the screenshot's CSS pixels")
	}
	return nil
}

func computerTool() Tool {
	return defineTab("computer", GroupCore,
		"Mouse and keyboard at screenshot coordinates, for what refs cannot reach (canvas, maps).",
		computer,
		func(s *jsonschema.Schema) {
			enum(s, "action", "screenshot", "left_click", "right_click", "double_click", "mouse_move",
				"left_click_drag", "type", "key", "scroll")
			for _, p := range []string{"coordinate", "to", "scroll"} {
				two := 2
				property(s, p).MinItems, property(s, p).MaxItems = &two, &two
			}
		})
}

func computer(ctx context.Context, c *call, tab int, in computerIn) (*protocol.ToolResult, error) {
	if in.Action == "screenshot" {
		return screenshot(ctx, c, tab, screenshotIn{Format: "png"})
	}
	var vp *browser.Viewport
	point := func(name string, xy []float64) (*browser.Point, error) {
		if len(xy) == 0 {
			return nil, nil
		}
		if vp == nil {
			v, err := browser.InputViewport(tab).Run(ctx, c)
			if err != nil {
				return nil, err
			}
			vp = &v
		}
		return inViewport(name, xy, *vp)
	}
	at, err := point("coordinate", in.Coordinate)
	if err != nil {
		return nil, err
	}
	p := browser.Input{TabID: tab, At: at}
	var action string
	switch in.Action {
	case "left_click":
		action, p.Button = "click", "left"
	case "right_click":
		action, p.Button = "click", "right"
	case "double_click":
		action, p.Button, p.Count = "click", "left", 2
	case "mouse_move":
		action = "move"
	case "left_click_drag":
		if p.To, err = point("to", in.To); err != nil {
			return nil, err
		}
		action = "drag"
	case "type":
		action, p.Text = "type", in.Text
	case "key":
		action, p.Key = "key", in.Key
	case "scroll":
		action, p.DX, p.DY = "scroll", in.Scroll[0], in.Scroll[1]
	}
	out, err := browser.InputAction(action, p).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	// Not the address the profile's masking knows.
	out.Navigating, out.FrameNavigated = c.engine.red.URL(out.Navigating), c.engine.red.URL(out.FrameNavigated)
	out.RequestErrors, out.FailedRequests = c.requestErrors(out.URL, out.FailedRequests), nil
	c.followOpened(out.Opened)
	if out.NavigationBlocked != nil {
		return nil, out.NavigationBlocked.Error()
	}
	e := inputEffects(out)
	e.key = p.Key
	ch, next := changeOf(tab, e)
	if saidIn(ch.Summary, out.Changes) {
		out.Changes = ""
	}
	return jsonResult(struct {
		Action string `json:"action"`
		browser.Inputted
		Change      change       `json:"change"`
		NextActions []nextAction `json:"nextActions,omitempty"`
	}{in.Action, out, ch, next})
}

// inViewport checks an [x, y] against the tab's viewport.
func inViewport(name string, xy []float64, vp browser.Viewport) (*browser.Point, error) {
	x, y := xy[0], xy[1]
	if x < 0 || y < 0 || x >= vp.Width || y >= vp.Height {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%s [%g, %g] is outside the %gx%g viewport", name, x, y, vp.Width, vp.Height).
			WithHint(fmt.Sprintf("take a screenshot (computer action screenshot): coordinates are its CSS pixels, 0-%g by 0-%g", vp.Width-1, vp.Height-1))
	}
	return &browser.Point{X: x, Y: y}, nil
}
