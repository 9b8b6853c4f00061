package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/artifact"
	"github.com/openchrome/openchrome/host/crawl"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

// job is the body of a long-running tool (crawl, recording, ...), run by a
// call. The same job runs when the tool is called directly, reporting
// progress to the MCP client, and when it runs as a background task,
// reporting to the ledger; so both give the same result shape.
type job func(ctx context.Context, c *call, raw json.RawMessage, s *task.Sink) (any, error)

// jobHandler is a long-running tool's body, given its decoded input.
type jobHandler[In any] func(ctx context.Context, c *call, in In, s *task.Sink) (any, error)

// defineJob builds a long-running tool: callable directly, and startable as
// a background task with oc_task_start (kind = the tool's name).
func defineJob[In any](name, description string, h jobHandler[In], shape ...func(*jsonschema.Schema)) Tool {
	t, decode := entry[In](name, GroupLong, description, shape)
	t.job = func(ctx context.Context, c *call, raw json.RawMessage, s *task.Sink) (any, error) {
		in, err := decode(raw)
		if err != nil {
			return nil, err
		}
		return h(ctx, c, in, s)
	}
	t.run = func(ctx context.Context, c *call, raw json.RawMessage) (*protocol.ToolResult, error) {
		out, err := t.job(ctx, c, raw, &task.Sink{OnProgress: c.progress})
		if err != nil {
			return nil, err
		}
		if res, ok := out.(*crawl.Result); ok {
			return c.crawlResult(name, res)
		}
		r, err := jsonResult(out)
		if err != nil {
			return nil, err
		}
		// The files a job wrote go to the client as resource links too.
		if w, ok := out.(interface{ Files() []artifact.File }); ok {
			r.Content = append(r.Content, artifact.Links(w.Files()...)...)
		}
		return r, nil
	}
	return t
}

// defineTabJob is defineJob for a job on one tab: the gate resolves it
// first, in the task too.
func defineTabJob[In onTab](name, description string, h func(ctx context.Context, c *call, tab int, in In, s *task.Sink) (any, error), shape ...func(*jsonschema.Schema)) Tool {
	t := defineJob(name, description, func(ctx context.Context, c *call, in In, s *task.Sink) (any, error) {
		tab, err := c.gate(ctx, in.target())
		if err != nil {
			return nil, err
		}
		return h(ctx, c, tab, in, s)
	}, withTab(shape)...)
	t.OnTab = true
	return t
}

// maxJobResult bounds a crawl's result in one answer, about 8,000 tokens:
// Claude Code takes 25,000 from a tool, and 20 pages of documentation are
// a million characters.
const maxJobResult = 30_000

// crawlResult answers with a crawl's result, or, when it is longer than
// maxJobResult, its brief, the whole of it in a file beside it.
func (c *call) crawlResult(name string, res *crawl.Result) (*protocol.ToolResult, error) {
	whole, err := protocol.Marshal(res)
	if err != nil {
		return nil, err
	}
	if len(whole) <= maxJobResult {
		return jsonResult(res)
	}
	path := c.engine.home.Path("artifacts", name+"-"+artifact.NewID()+".json")
	kept, err := c.engine.files.Text(path, whole)
	if err != nil {
		return nil, err
	}
	f := artifact.Verify(path, "application/json", int64(len(kept)))
	r, err := jsonResult(struct {
		crawl.Brief
		Whole string `json:"whole"`
	}{res.Brief(maxJobResult), briefNote(f.Bytes, path)})
	if err != nil {
		return nil, err
	}
	r.Content = append(r.Content, artifact.Links(f)...)
	return r, nil
}

// briefNote says where the whole of a crawl's result is, beside its brief.
func briefNote(size int64, path string) string {
	return fmt.Sprintf("each page's content is cut to fit; all of it, %s, is in %s", bytesText(size), path)
}
