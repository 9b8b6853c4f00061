package crawl

import (
	"context"
	"encoding/json"
	"maps"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

// site is a fake browser over a web of pages: each URL links to others.
type site struct {
	links map[string][]string
	// visit, if set, runs on each navigation, e.g. to block or fail.
	visit func(ctx context.Context, url string) error

	mu     sync.Mutex
	next   int
	at     map[int]string // tab -> its URL
	open   int            // tabs open now
	closed int
}

func (s *site) Do(ctx context.Context, cmd protocol.Command) (json.RawMessage, error) {
	var p struct {
		TabID int    `json:"tabId"`
		URL   string `json:"url"`
	}
	_ = json.Unmarshal(cmd.Params, &p)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch cmd.Action {
	case "tab.create":
		s.next++
		s.open++
		s.at[s.next] = "about:blank"
		return json.Marshal(browser.Page{TabID: s.next, URL: "about:blank"})
	case "tab.close":
		s.open--
		s.closed++
		return json.Marshal(struct{}{})
	case "tab.navigate":
		if s.visit != nil {
			s.mu.Unlock()
			err := s.visit(ctx, p.URL)
			s.mu.Lock()
			if err != nil {
				return nil, err
			}
		}
		if _, ok := s.links[p.URL]; !ok {
			return nil, protocol.Errorf(protocol.CodeNotFound, "net::ERR_NAME_NOT_RESOLVED")
		}
		s.at[p.TabID] = p.URL
		return json.Marshal(browser.Page{TabID: p.TabID, URL: p.URL, Status: 200})
	case "page.crawl":
		u := s.at[p.TabID]
		return json.Marshal(browser.Crawled{URL: u, Title: "T " + u, Content: "# " + u, Links: s.links[u]})
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, "unexpected %s", cmd.Action)
}

func newSite(links map[string][]string) *site {
	return &site{links: links, at: map[int]string{}}
}

func urls(r *Result) []string {
	var out []string
	for _, p := range r.Pages {
		out = append(out, p.URL)
	}
	return out
}

var web = map[string][]string{
	"http://s/":    {"http://s/a", "http://s/b#top", "http://other/x"},
	"http://s/a":   {"http://s/a/1", "http://s/"},
	"http://s/b":   {"http://s/b/1", "http://s/gone"},
	"http://s/a/1": {"http://s/a/1/deep"}, "http://s/b/1": nil, "http://s/a/1/deep": nil,
	"http://other/x": nil,
}

func TestACrawlGoesBreadthFirstAndKeepsTheOrderItFound(t *testing.T) {
	for _, concurrency := range []int{1, 3} {
		s := newSite(web)
		var progress []float64
		sink := &task.Sink{OnProgress: func(done, total float64, _ string) { progress = append(progress, done) }}
		res, err := Run(context.Background(), s, nil, sink, "http://s/", []string{"http://s/"}, Options{
			MaxPages: 20, MaxDepth: 2, Concurrency: concurrency, Output: "markdown", Follow: true,
			Filter: func(u string) bool { return u != "http://other/x" },
		})
		require.NoError(t, err)
		want := []string{"http://s/", "http://s/a", "http://s/b", "http://s/a/1", "http://s/b/1", "http://s/gone"}
		if concurrency == 1 {
			assert.Equal(t, want, urls(res), "depth 2, fragments dropped, each URL once, the filter obeyed")
		} else {
			// Which of a and b is read first is the browser's doing: the
			// order is the order links were found, one level after another.
			assert.ElementsMatch(t, want, urls(res))
			assert.Equal(t, want[:3], urls(res)[:3])
		}
		assert.Equal(t, "done", res.Stopped)
		byURL := map[string]Page{}
		for _, p := range res.Pages {
			byURL[p.URL] = p
		}
		gone := byURL["http://s/gone"]
		require.NotNil(t, gone.Error, "a page that fails is a page with an error")
		assert.Equal(t, protocol.CodeNotFound, gone.Error.Code)
		assert.Equal(t, "T http://s/a", byURL["http://s/a"].Title)
		assert.Len(t, progress, 6)
		assert.Zero(t, s.open, "every background tab is closed")
		assert.Equal(t, concurrency, s.closed)
	}
}

func TestACrawlStopsAtMaxPages(t *testing.T) {
	res, err := Run(context.Background(), newSite(web), nil, nil, "http://s/", []string{"http://s/"},
		Options{MaxPages: 2, MaxDepth: 5, Concurrency: 1, Follow: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"http://s/", "http://s/a"}, urls(res))
	assert.Equal(t, "maxPages", res.Stopped)
	assert.Positive(t, res.Left)
}

func TestACancelledCrawlKeepsItsPages(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := newSite(web)
	s.visit = func(vctx context.Context, url string) error {
		if url == "http://s/a" {
			cancel() // the agent cancels while the second page loads
			<-vctx.Done()
			return protocol.Errorf(protocol.CodeCancelled, "cancelled")
		}
		return nil
	}
	var partial *Result
	res, err := Run(ctx, s, nil, &task.Sink{OnPartial: func(v any) { partial = v.(*Result) }}, "http://s/", []string{"http://s/"},
		Options{MaxPages: 20, MaxDepth: 2, Concurrency: 1, Follow: true})
	require.ErrorIs(t, err, protocol.ErrCancelled)
	assert.Equal(t, "cancelled", res.Stopped)
	assert.Equal(t, []string{"http://s/"}, urls(res))
	require.NotNil(t, partial)
	assert.Equal(t, []string{"http://s/"}, urls(partial))
	assert.Zero(t, s.open, "tabs close even when cancelled")
}

func TestTheBrowserGoingAwayFailsTheCrawl(t *testing.T) {
	s := newSite(web)
	s.visit = func(_ context.Context, url string) error {
		if url == "http://s/b" {
			return protocol.Errorf(protocol.CodeBrowserNotConnected, "the browser disconnected")
		}
		return nil
	}
	res, err := Run(context.Background(), s, nil, nil, "http://s/", []string{"http://s/"},
		Options{MaxPages: 20, MaxDepth: 2, Concurrency: 1, Follow: true})
	require.ErrorIs(t, err, protocol.ErrBrowserNotConnected)
	assert.Equal(t, []string{"http://s/", "http://s/a"}, urls(res), "what it had is kept")
}

// TestACrawlThatRejoinsVisitsTheLostPageAgain plays a browser whose link
// drops during some visits, as a task's Doer sees it when the extension's
// service worker is stopped: with Rejoin the crawl visits those pages again
// in a new tab, up to a point.
func TestACrawlThatRejoinsVisitsTheLostPageAgain(t *testing.T) {
	all := []string{"http://s/", "http://s/a", "http://s/b", "http://s/a/1", "http://s/b/1", "http://s/gone"}
	tests := []struct {
		name   string
		drops  map[string]int // times each URL's visit is cut off
		code   protocol.Code  // the tab or the browser goes
		rejoin bool
		pages  []string // the crawl's pages
		err    error
		tabs   int // tabs the crawl opened
	}{
		{"a drop on one page", map[string]int{"http://s/b": 1}, protocol.CodeBrowserNotConnected, true, all, nil, 2},
		{"drops on two pages", map[string]int{"http://s/a": 1, "http://s/b/1": 2}, protocol.CodeBrowserNotConnected, true, all, nil, 4},
		{"the crawl's tab closed", map[string]int{"http://s/a": 1}, protocol.CodeTabNotFound, true, all, nil, 2},
		{"a page the browser always drops", map[string]int{"http://s/b": maxLost}, protocol.CodeBrowserNotConnected, true,
			[]string{"http://s/", "http://s/a"}, protocol.ErrBrowserNotConnected, maxLost},
		{"without rejoin, a drop fails the crawl", map[string]int{"http://s/b": 1}, protocol.CodeBrowserNotConnected, false,
			[]string{"http://s/", "http://s/a"}, protocol.ErrBrowserNotConnected, 1},
		{"without rejoin, a closed tab is a page with an error", map[string]int{"http://s/b": 1}, protocol.CodeTabNotFound, false,
			[]string{"http://s/", "http://s/a", "http://s/b", "http://s/a/1"}, nil, 1}, // b's links unread
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(web)
			var mu sync.Mutex
			left := maps.Clone(tt.drops)
			visits := map[string]int{}
			s.visit = func(_ context.Context, url string) error {
				mu.Lock()
				defer mu.Unlock()
				visits[url]++
				if left[url] > 0 {
					left[url]--
					return protocol.Errorf(tt.code, "gone")
				}
				return nil
			}
			res, err := Run(context.Background(), s, nil, nil, "http://s/", []string{"http://s/"},
				Options{MaxPages: 20, MaxDepth: 2, Concurrency: 1, Follow: true, Rejoin: tt.rejoin,
					Filter: func(u string) bool { return u != "http://other/x" }})
			if tt.err != nil {
				require.ErrorIs(t, err, tt.err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.pages, urls(res), "the pages, once each, in the order found")
			for _, p := range res.Pages {
				if p.URL != "http://s/gone" && tt.err == nil && tt.rejoin {
					assert.Nil(t, p.Error, p.URL)
				}
			}
			assert.Equal(t, tt.tabs, s.next, "a new tab after each loss")
			assert.Zero(t, s.open, "every tab is closed, lost ones too")
			if tt.rejoin && tt.err == nil {
				for url, n := range tt.drops {
					assert.Equal(t, n+1, visits[url], "%s is visited again after each drop", url)
				}
			}
		})
	}
}

func TestAFailOnPageHookFailsOrPanicsWithoutTakingTheDaemonDown(t *testing.T) {
	for _, panics := range []bool{false, true} {
		res, err := Run(context.Background(), newSite(web), nil, nil, "http://s/", []string{"http://s/"},
			Options{MaxPages: 20, MaxDepth: 2, Concurrency: 2, Follow: true, FailOnPage: 2, Panic: panics})
		require.ErrorIs(t, err, protocol.ErrInternal, "panic %v", panics)
		assert.NotNil(t, res)
	}
}

func TestMatch(t *testing.T) {
	assert.True(t, Match("http://s/docs/a", nil, true), "no patterns: empty")
	assert.False(t, Match("http://s/docs/a", nil, false))
	assert.True(t, Match("http://s/docs/a", []string{"/docs/"}, false))
	assert.True(t, Match("http://s/docs/v2/a", []string{"/docs/*/a"}, false))
	assert.False(t, Match("http://s/blog/a", []string{"/docs/", "/api/"}, false))
}
