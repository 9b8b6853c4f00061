package engine

import (
	"cmp"
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/protocol"
)

type crawlIn struct {
	URL         string   `json:"url" jsonschema:"where to start"`
	MaxPages    int      `json:"maxPages,omitempty" jsonschema:"default 20"`
	MaxDepth    *int     `json:"maxDepth,omitempty" jsonschema:"link hops from url; default 2"`
	SameOrigin  *bool    `json:"sameOrigin,omitempty" jsonschema:"stay on url's origin; default true"`
	Include     []string `json:"include,omitempty" jsonschema:"only URLs containing one of these (* matches anything)"`
	Exclude     []string `json:"exclude,omitempty" jsonschema:"skip URLs containing any of these"`
	Concurrency int      `json:"concurrency,omitempty" jsonschema:"tabs at once; default 2"`
	Output      string   `json:"output,omitempty" jsonschema:"what to keep of each page; default markdown"`
}

func crawlTool() Tool {
	return defineJob("crawl",
		"Crawl from a URL breadth-first in background tabs: each page's status, title, content and links. Long crawls: run with oc_task_start.",
		crawl,
		func(s *jsonschema.Schema) {
			between(s, "maxPages", 1, 1000)
			between(s, "maxDepth", 0, 10)
			between(s, "concurrency", 1, 8)
			enum(s, "output", "markdown", "text", "links")
		})
}

// crawledPage is one page of a crawl's result.
type crawledPage struct {
	URL     string          `json:"url"`
	Status  int             `json:"status,omitempty"`
	Title   string          `json:"title,omitempty"`
	Content string          `json:"content,omitempty"`
	Links   []string        `json:"links,omitempty"`
	Depth   int             `json:"depth"`
	Error   *protocol.Error `json:"error,omitempty"`
	order   int             // when it was found, for a stable result order
}

// crawlResult is what crawl and crawl_sitemap return, directly or as a task.
type crawlResult struct {
	Start   string        `json:"start"`
	Pages   []crawledPage `json:"pages"`
	Stopped string        `json:"stopped"` // done, maxPages or cancelled
	Left    int           `json:"left"`    // URLs found but not visited
}

func crawl(ctx context.Context, c *call, in crawlIn, s *sink) (any, error) {
	start, err := checkURL(in.URL)
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(start)
	cr := newCrawler(c, s, crawlOptions{
		maxPages:    orDefault(in.MaxPages, 20),
		maxDepth:    2,
		concurrency: orDefault(in.Concurrency, 2),
		output:      cmp.Or(in.Output, "markdown"),
		follow:      true,
		filter: func(v string) bool {
			if in.SameOrigin == nil || *in.SameOrigin {
				w, err := url.Parse(v)
				if err != nil || w.Scheme != u.Scheme || w.Host != u.Host {
					return false
				}
			}
			return matchesAny(v, in.Include, true) && !matchesAny(v, in.Exclude, false)
		},
	})
	if in.MaxDepth != nil {
		cr.opts.maxDepth = *in.MaxDepth
	}
	return cr.run(ctx, start, []string{start})
}

func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// matchesAny reports whether v contains one of the patterns (a * in one
// matches anything); with no patterns, empty.
func matchesAny(v string, patterns []string, empty bool) bool {
	if len(patterns) == 0 {
		return empty
	}
	for _, p := range patterns {
		if globContains(v, p) {
			return true
		}
	}
	return false
}

// globContains reports whether s contains pattern, where * in pattern stands
// for any run of characters.
func globContains(s, pattern string) bool {
	parts := strings.Split(pattern, "*")
	i := 0
	for _, p := range parts {
		j := strings.Index(s[i:], p)
		if j < 0 {
			return false
		}
		i += j + len(p)
	}
	return true
}

type crawlOptions struct {
	maxPages, maxDepth, concurrency int
	output                          string
	follow                          bool              // follow links (crawl) or not (a sitemap's list)
	filter                          func(string) bool // which found links to visit
}

// crawler visits URLs breadth-first with one background tab per worker.
type crawler struct {
	c     *call
	s     *sink
	opts  crawlOptions
	start string

	mu       sync.Mutex // guards the fields below
	wake     *sync.Cond // signalled when the queue or inFlight changes
	queue    []crawledPage
	seen     map[string]bool
	found    int // URLs found so far, for order
	taken    int // pages handed to workers
	inFlight int
	pages    []crawledPage
	failed   error // a worker's fatal error
}

func newCrawler(c *call, s *sink, opts crawlOptions) *crawler {
	cr := &crawler{c: c, s: s, opts: opts, seen: map[string]bool{}}
	cr.wake = sync.NewCond(&cr.mu)
	return cr
}

// run visits start's URLs and what they link to, and returns the result;
// cancelled, it returns what it has with the context's error.
func (cr *crawler) run(ctx context.Context, start string, urls []string) (*crawlResult, error) {
	cr.start = start
	for _, u := range urls {
		cr.enqueue(u, 0)
	}
	stop := context.AfterFunc(ctx, func() {
		cr.mu.Lock()
		cr.wake.Broadcast()
		cr.mu.Unlock()
	})
	defer stop()

	var wg sync.WaitGroup
	for range min(cr.opts.concurrency, cr.opts.maxPages) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cr.worker(ctx)
		}()
	}
	wg.Wait()

	res := cr.result()
	switch {
	case cr.failed != nil:
		return res, cr.failed
	case ctx.Err() != nil:
		res.Stopped = "cancelled"
		return res, bridge.ContextError(ctx, "the crawl")
	}
	return res, nil
}

// worker visits pages in its own tab until there are none left. A panic
// fails the crawl instead of the daemon: runJob's recover does not reach
// this goroutine.
func (cr *crawler) worker(ctx context.Context) {
	defer func() {
		if p := recover(); p != nil {
			cr.c.engine.log.Error("crawl worker panicked", "panic", p)
			cr.fail(protocol.Errorf(protocol.CodeInternal, "the crawl stopped on an internal error"))
		}
	}()
	var tab pageInfo
	if err := cr.c.do(ctx, tabCreate("about:blank", false, 0), &tab); err != nil {
		cr.fail(err)
		return
	}
	defer func() {
		// The tab goes even when the crawl was cancelled.
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = cr.c.do(cleanup, tabClose(tab.TabID), nil)
	}()
	for {
		p, ok := cr.next(ctx)
		if !ok {
			return
		}
		visited, err := cr.visit(ctx, tab.TabID, p)
		if err != nil {
			cr.fail(err)
			return
		}
		cr.done(ctx, visited)
	}
}

// next hands out the next URL, waiting while others may still find more.
func (cr *crawler) next(ctx context.Context) (crawledPage, bool) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	for {
		switch {
		case ctx.Err() != nil || cr.failed != nil || cr.taken >= cr.opts.maxPages:
			return crawledPage{}, false
		case len(cr.queue) > 0:
			p := cr.queue[0]
			cr.queue = cr.queue[1:]
			cr.taken++
			cr.inFlight++
			return p, true
		case cr.inFlight == 0:
			return crawledPage{}, false // nothing left, and nobody will find more
		}
		cr.wake.Wait()
	}
}

// visit loads one page and reads it. A page that fails to load is kept with
// its error; only the browser going away stops the crawl.
func (cr *crawler) visit(ctx context.Context, tab int, p crawledPage) (crawledPage, error) {
	if h := cr.c.engine.hooks.FailOnPage; h > 0 {
		cr.mu.Lock()
		nth := cr.taken
		cr.mu.Unlock()
		if nth == h {
			if cr.c.engine.hooks.Panic {
				panic("test hook: crawl panics on page " + p.URL)
			}
			return p, protocol.Errorf(protocol.CodeInternal, "test hook: crawl fails on page %d", h)
		}
	}
	var nav pageInfo
	err := cr.c.do(ctx, tabNavigate(tab, p.URL, 30*time.Second), &nav)
	if err == nil {
		p.Status = nav.Status
		var out struct {
			URL     string   `json:"url"`
			Title   string   `json:"title"`
			Content string   `json:"content"`
			Links   []string `json:"links"`
		}
		err = cr.c.do(ctx, pageCrawl(tab, cr.opts.output), &out)
		p.Title, p.Content, p.Links = out.Title, out.Content, out.Links
		if out.URL != "" && out.URL != p.URL {
			p.URL = out.URL // where redirects ended
		}
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return p, nil // not kept: done() sees the cancellation
	case errors.Is(err, protocol.ErrBrowserNotConnected):
		return p, err
	default:
		p.Error = protocol.AsError(err)
	}
	return p, nil
}

// done records a visited page and queues its links.
func (cr *crawler) done(ctx context.Context, p crawledPage) {
	cr.mu.Lock()
	cr.inFlight--
	if ctx.Err() == nil {
		cr.pages = append(cr.pages, p)
		if cr.opts.follow && p.Depth < cr.opts.maxDepth {
			for _, l := range p.Links {
				cr.enqueueLocked(l, p.Depth+1)
			}
		}
	}
	n, res := len(cr.pages), cr.resultLocked()
	cr.wake.Broadcast()
	cr.mu.Unlock()
	cr.s.Progress(float64(n), float64(cr.opts.maxPages), "crawled %s", p.URL)
	cr.s.Partial(res)
}

func (cr *crawler) enqueue(u string, depth int) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	cr.enqueueLocked(u, depth)
}

// enqueueLocked queues u unless it was seen or is filtered out. cr.mu must
// be held.
func (cr *crawler) enqueueLocked(u string, depth int) {
	key := strings.SplitN(u, "#", 2)[0]
	if cr.seen[key] || depth > 0 && cr.opts.filter != nil && !cr.opts.filter(key) {
		return
	}
	cr.seen[key] = true
	cr.found++
	cr.queue = append(cr.queue, crawledPage{URL: key, Depth: depth, order: cr.found})
}

func (cr *crawler) fail(err error) {
	cr.mu.Lock()
	if cr.failed == nil {
		cr.failed = err
	}
	cr.wake.Broadcast()
	cr.mu.Unlock()
}

func (cr *crawler) result() *crawlResult {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	return cr.resultLocked()
}

// resultLocked returns the pages so far in the order they were found. cr.mu
// must be held.
func (cr *crawler) resultLocked() *crawlResult {
	pages := slices.Clone(cr.pages)
	slices.SortFunc(pages, func(a, b crawledPage) int { return cmp.Compare(a.order, b.order) })
	stopped := "done"
	if cr.taken >= cr.opts.maxPages && len(cr.queue) > 0 {
		stopped = "maxPages"
	}
	return &crawlResult{Start: cr.start, Pages: pages, Stopped: stopped, Left: len(cr.queue)}
}
