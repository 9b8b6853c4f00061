package engine

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type computerIn struct {
	Action     string    `json:"action"`
	Coordinate []float64 `json:"coordinate,omitempty" jsonschema:"[x, y] in the screenshot's CSS pixels"`
	To         []float64 `json:"to,omitempty" jsonschema:"for left_click_drag: where to release"`
	Text       string    `json:"text,omitempty" jsonschema:"for type"`
	Key        string    `json:"key,omitempty" jsonschema:"for key: a key or chord, e.g. Enter, ctrl+a"`
	Scroll     []float64 `json:"scroll,omitempty" jsonschema:"for scroll: [dx, dy] in pixels"`
	TabID      int       `json:"tabId,omitempty" jsonschema:"default: the current tab"`
}

func computerTool() Tool {
	return define("computer", GroupCore,
		"Mouse and keyboard at screen coordinates, for what refs cannot reach (canvas, maps): screenshot, clicks, move, drag, type, key, scroll.",
		computer,
		func(s *jsonschema.Schema) {
			enum(s, "action", "screenshot", "left_click", "right_click", "double_click", "mouse_move",
				"left_click_drag", "type", "key", "scroll")
			for _, p := range []string{"coordinate", "to", "scroll"} {
				two := 2
				property(s, p).MinItems, property(s, p).MaxItems = &two, &two
			}
			positive(s, "tabId")
		})
}

func computer(ctx context.Context, c *call, in computerIn) (*protocol.ToolResult, error) {
	tab, err := c.actTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	if in.Action == "screenshot" {
		return screenshot(ctx, c, screenshotIn{TabID: tab})
	}
	at, err := c.coordinate(ctx, tab, "coordinate", in.Coordinate, in.Action != "type" && in.Action != "key")
	if err != nil {
		return nil, err
	}
	type params struct {
		TabID  int     `json:"tabId"`
		At     *point  `json:"at,omitempty"`
		To     *point  `json:"to,omitempty"`
		Button string  `json:"button,omitempty"`
		Count  int     `json:"count,omitempty"`
		Text   string  `json:"text,omitempty"`
		Key    string  `json:"key,omitempty"`
		DX     float64 `json:"dx,omitempty"`
		DY     float64 `json:"dy,omitempty"`
	}
	p := params{TabID: tab, At: at}
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
		to, err := c.coordinate(ctx, tab, "to", in.To, true)
		if err != nil {
			return nil, err
		}
		action, p.To = "drag", to
	case "type":
		if in.Text == "" {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "type needs text")
		}
		action, p.Text = "type", in.Text
	case "key":
		if in.Key == "" {
			return nil, protocol.Errorf(protocol.CodeBadRequest, `key needs key, e.g. "Enter" or "ctrl+a"`)
		}
		action, p.Key = "key", in.Key
	case "scroll":
		if len(in.Scroll) != 2 || (in.Scroll[0] == 0 && in.Scroll[1] == 0) {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "scroll needs scroll: [dx, dy], e.g. [0, 400]")
		}
		action, p.DX, p.DY = "scroll", in.Scroll[0], in.Scroll[1]
	}
	var out map[string]any
	if err := c.do(ctx, inputCommand(action, p), &out); err != nil {
		return nil, err
	}
	out["action"] = in.Action
	return jsonResult(out)
}

// coordinate checks an [x, y] against the tab's viewport.
func (c *call) coordinate(ctx context.Context, tab int, name string, xy []float64, need bool) (*point, error) {
	if len(xy) == 0 {
		if need {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "%s is required: [x, y] in the screenshot's CSS pixels", name)
		}
		return nil, nil
	}
	var vp struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	}
	if err := c.do(ctx, inputCommand("viewport", tabParams{tab}), &vp); err != nil {
		return nil, err
	}
	x, y := xy[0], xy[1]
	if x < 0 || y < 0 || x >= vp.Width || y >= vp.Height {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%s [%g, %g] is outside the %gx%g viewport", name, x, y, vp.Width, vp.Height).
			WithHint(fmt.Sprintf("take a screenshot (computer action screenshot): coordinates are its CSS pixels, 0-%g by 0-%g", vp.Width-1, vp.Height-1))
	}
	return &point{X: x, Y: y}, nil
}
