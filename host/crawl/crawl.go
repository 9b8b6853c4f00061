package crawl

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

// Page is one page of a crawl's result.
type Page struct {
	URL     string          `json:"url"`
	Status  int             `json:"status,omitempty"`
	Title   string          `json:"title,omitempty"`
	Content string          `json:"content,omitempty"`
	Links   []string        `json:"links,omitempty"`
	Depth   int             `json:"depth"`
	Error   *protocol.Error `json:"error,omitempty"`
	order   int             // when it was found, for a stable result order
	lost    int             // how often its visit was cut off by the browser going away
}

// maxLost is how often a page's visit may be cut off by its browser going
// away before the crawl gives up: a browser that drops on every visit of
// one page is not coming back for it.
const maxLost = 3

// Result is what crawl and crawl_sitemap return, directly or as a task.
type Result struct {
	Start   string `json:"start"`
	Pages   []Page `json:"pages"`
	Stopped string `json:"stopped"` // done, maxPages or cancelled
	Left    int    `json:"left"`    // URLs found but not visited
}

// Match reports whether v contains one of the patterns (a * in one
// matches anything); with no patterns, empty.
func Match(v string, patterns []string, empty bool) bool {
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

// Options shape a crawl.
type Options struct {
	MaxPages, MaxDepth, Concurrency int
	Output                          string            // markdown, text or links
	Follow                          bool              // follow links (crawl) or not (a sitemap's list)
	Filter                          func(string) bool // which found links to visit
	// Rejoin says the Doer waits for a browser that went away (a
	// background task's does): a visit the browser cut off is made again,
	// in a new tab, once it is back, instead of failing the crawl. Reading
	// a page is safe to repeat.
	Rejoin bool
	// FailOnPage, for tests of what survives a failing crawl, fails the
	// crawl on its Nth page: an error, or a panic when Panic is set.
	FailOnPage int
	Panic      bool
}

// crawler visits URLs breadth-first with one background tab per worker.
type crawler struct {
	do    browser.Doer
	log   *slog.Logger
	s     *task.Sink
	opts  Options
	start string

	mu       sync.Mutex // guards the fields below
	wake     *sync.Cond // signalled when the queue or inFlight changes
	queue    []Page
	seen     map[string]bool
	found    int // URLs found so far, for order
	taken    int // pages handed to workers
	inFlight int
	pages    []Page
	failed   error // a worker's fatal error
}

// Run visits urls, each in a background tab of the agent's group
// (opts.Concurrency at a time, through do), and with opts.Follow the links
// they have, breadth-first; it reports progress and partial results to s
// and returns what it found, in the order it found it, start naming the
// crawl. Cancelled, it returns what it has with the context's error. A page
// that fails to load is a page with an error; only the browser going away
// (or a worker's panic, logged to log) fails the crawl.
func Run(ctx context.Context, do browser.Doer, log *slog.Logger, s *task.Sink, start string, urls []string, opts Options) (*Result, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cr := &crawler{do: do, log: log, s: s, opts: opts, seen: map[string]bool{}}
	cr.wake = sync.NewCond(&cr.mu)
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
	for range min(cr.opts.Concurrency, cr.opts.MaxPages) {
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
			cr.log.Error("crawl worker panicked", "panic", p)
			cr.fail(protocol.Errorf(protocol.CodeInternal, "the crawl stopped on an internal error"))
		}
	}()
	tab := 0
	defer func() {
		if tab != 0 {
			cr.closeTab(ctx, tab)
		}
	}()
	for cutOff := 0; ; {
		fresh, err := browser.TabCreate("about:blank", false, 0).Run(ctx, cr.do)
		if err != nil {
			// Cut off: the browser may have opened a blank tab we never
			// heard of; the next try waits for it to be back.
			if cutOff++; cr.opts.Rejoin && cutOff < maxLost && errors.Is(err, protocol.ErrBrowserNotConnected) && ctx.Err() == nil {
				continue
			}
			cr.fail(err)
			return
		}
		cutOff = 0
		if tab != 0 {
			cr.closeTab(ctx, tab) // the one it lost, if the browser still has it
		}
		tab = fresh.TabID
		if !cr.visitAll(ctx, tab) {
			return
		}
	}
}

// visitAll visits pages in tab until there are none left; it reports
// whether it lost the tab (its browser went away, or the tab did) and the
// crawl goes on in a new one.
func (cr *crawler) visitAll(ctx context.Context, tab int) (lost bool) {
	for {
		p, nth, ok := cr.next(ctx)
		if !ok {
			return false
		}
		visited, err := cr.visit(ctx, tab, p, nth)
		if err != nil {
			if cr.again(ctx, p, err) {
				return true
			}
			cr.fail(err)
			return false
		}
		cr.done(ctx, visited)
	}
}

// again puts p back at the head of the queue when its visit was cut off by
// the browser or its tab going away and the crawl rejoins the browser.
func (cr *crawler) again(ctx context.Context, p Page, err error) bool {
	gone := errors.Is(err, protocol.ErrBrowserNotConnected) || errors.Is(err, protocol.ErrTabNotFound)
	if !cr.opts.Rejoin || !gone || ctx.Err() != nil || p.lost+1 >= maxLost {
		return false
	}
	p.lost++
	cr.mu.Lock()
	defer cr.mu.Unlock()
	cr.taken--
	cr.inFlight--
	cr.queue = append([]Page{p}, cr.queue...)
	cr.wake.Broadcast()
	return true
}

// closeTab closes a crawl tab, even when the crawl was cancelled.
func (cr *crawler) closeTab(ctx context.Context, tab int) {
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_, _ = browser.TabClose(tab).Run(cleanup, cr.do)
}

// next hands out the next URL and how many have been handed out with it,
// waiting while others may still find more.
func (cr *crawler) next(ctx context.Context) (Page, int, bool) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	for {
		switch {
		case ctx.Err() != nil || cr.failed != nil || cr.taken >= cr.opts.MaxPages:
			return Page{}, 0, false
		case len(cr.queue) > 0:
			p := cr.queue[0]
			cr.queue = cr.queue[1:]
			cr.taken++
			cr.inFlight++
			return p, cr.taken, true
		case cr.inFlight == 0:
			return Page{}, 0, false // nothing left, and nobody will find more
		}
		cr.wake.Wait()
	}
}

// visit loads one page, the nth handed out, and reads it. A page that fails
// to load is kept with its error; only the browser going away stops the crawl.
func (cr *crawler) visit(ctx context.Context, tab int, p Page, nth int) (Page, error) {
	if h := cr.opts.FailOnPage; h > 0 {
		// The number next gave: another worker may have taken one since.
		if nth == h {
			if cr.opts.Panic {
				panic("test hook: crawl panics on page " + p.URL)
			}
			return p, protocol.Errorf(protocol.CodeInternal, "test hook: crawl fails on page %d", h)
		}
	}
	nav, err := browser.TabNavigate(tab, p.URL, 30*time.Second).Run(ctx, cr.do)
	if err == nil {
		p.Status = nav.Status
		var out browser.Crawled
		out, err = browser.PageCrawl(tab, cr.opts.Output).Run(ctx, cr.do)
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
	case cr.opts.Rejoin && errors.Is(err, protocol.ErrTabNotFound):
		return p, err // the crawl's own tab: after a reconnect, maybe another browser's
	default:
		p.Error = protocol.AsError(err)
	}
	return p, nil
}

// done records a visited page and queues its links.
func (cr *crawler) done(ctx context.Context, p Page) {
	cr.mu.Lock()
	cr.inFlight--
	if ctx.Err() == nil {
		cr.pages = append(cr.pages, p)
		if cr.opts.Follow && p.Depth < cr.opts.MaxDepth {
			for _, l := range p.Links {
				cr.enqueueLocked(l, p.Depth+1)
			}
		}
	}
	n, res := len(cr.pages), cr.resultLocked()
	cr.wake.Broadcast()
	cr.mu.Unlock()
	cr.s.Progress(float64(n), float64(cr.opts.MaxPages), "crawled %s", p.URL)
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
	if cr.seen[key] || depth > 0 && cr.opts.Filter != nil && !cr.opts.Filter(key) {
		return
	}
	cr.seen[key] = true
	cr.found++
	cr.queue = append(cr.queue, Page{URL: key, Depth: depth, order: cr.found})
}

func (cr *crawler) fail(err error) {
	cr.mu.Lock()
	if cr.failed == nil {
		cr.failed = err
	}
	cr.wake.Broadcast()
	cr.mu.Unlock()
}

func (cr *crawler) result() *Result {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	return cr.resultLocked()
}

// resultLocked returns the pages so far in the order they were found. cr.mu
// must be held.
func (cr *crawler) resultLocked() *Result {
	pages := slices.Clone(cr.pages)
	slices.SortFunc(pages, func(a, b Page) int { return cmp.Compare(a.order, b.order) })
	stopped := "done"
	if cr.taken >= cr.opts.MaxPages && len(cr.queue) > 0 {
		stopped = "maxPages"
	}
	return &Result{Start: cr.start, Pages: pages, Stopped: stopped, Left: len(cr.queue)}
}
