package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/protocol"
)

// callCmd runs one tool through the broker: `openchrome call navigate
// '{"url":"https://example.com/"}'`. Text goes to stdout; an image goes to
// --out, or is summarised. A tool error exits 1 with its text on stderr.
func callCmd(ctx context.Context, args []string, env Env) error {
	fs := newFlags("call", env)
	out := fs.String("out", "", "write an image result to this file")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after this long")
	// Flags may come after the tool and its arguments.
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	if len(pos) == 0 || len(pos) > 2 {
		return fmt.Errorf("usage: openchrome call TOOL ['{json args}'] [--out FILE]")
	}
	tool, raw := pos[0], json.RawMessage(`{}`)
	if len(pos) == 2 && strings.TrimSpace(pos[1]) != "" { // '' from a script is no arguments
		raw = json.RawMessage(pos[1])
		if !json.Valid(raw) {
			return fmt.Errorf("the arguments are not valid JSON: %s", pos[1])
		}
	}
	h, err := home(env)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	d, err := bridge.ReadDiscovery(h.BridgeFile())
	if err != nil {
		return describe(err)
	}
	cl, err := bridge.Dial(ctx, d, "openchrome call")
	if err != nil {
		return describe(err)
	}
	defer cl.Close()
	opts := bridge.CallOptions{Progress: func(p protocol.Progress) {
		fmt.Fprintf(env.Stderr, "[%g/%g] %s\n", p.Progress, p.Total, p.Message)
	}}
	if cwd, err := os.Getwd(); err == nil {
		opts.Roots = []string{cwd} // upload_file reads files from here, as from openchrome mcp's
	}
	r, err := cl.Call(ctx, tool, raw, opts)
	if err != nil {
		return describe(err)
	}
	for _, c := range r.Content {
		switch {
		case c.Type == "image" && *out != "":
			if err := os.WriteFile(*out, c.Data, 0o600); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "wrote %s (%s, %d bytes)\n", *out, c.MimeType, len(c.Data))
		case c.Type == "image":
			fmt.Fprintf(env.Stdout, "[%s, %d bytes: pass --out FILE to save it]\n", c.MimeType, len(c.Data))
		case r.IsError:
			fmt.Fprintln(env.Stderr, c.Text)
		default:
			fmt.Fprintln(env.Stdout, c.Text)
		}
	}
	if r.IsError {
		return exitCode(1)
	}
	return nil
}

// describe turns a coded error into the two lines a person needs.
func describe(err error) error {
	e := protocol.AsError(err)
	if e.Hint == "" {
		return fmt.Errorf("%s: %s", e.Code, e.Message)
	}
	return fmt.Errorf("%s: %s\nhint: %s", e.Code, e.Message, e.Hint)
}
