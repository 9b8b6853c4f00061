package engine

import (
	"cmp"
	"context"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/crawl"
	"github.com/openchrome/openchrome/host/sitemap"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

type crawlIn struct {
	URL         string   `json:"url"`
	MaxPages    int      `json:"maxPages,omitempty"`
	MaxDepth    *int     `json:"maxDepth,omitempty" jsonschema:"link hops; default 2"`
	SameOrigin  *bool    `json:"sameOrigin,omitempty" jsonschema:"default true"`
	Include     []string `json:"include,omitempty" jsonschema:"only URLs containing one (* wildcard)"`
	Exclude     []string `json:"exclude,omitempty" jsonschema:"skip URLs containing one"`
	Concurrency int      `json:"concurrency,omitempty"`
	Output      string   `json:"output,omitempty"`
	taskArg
}

func (in *crawlIn) validate() (err error) {
	in.URL, err = checkURL(in.URL)
	return err
}

func crawlTool() Tool {
	return defineJob("crawl",
		"Crawl breadth-first from a URL in background tabs: each page's content and links. Long crawls: oc_task_start.",
		crawlJob,
		func(s *jsonschema.Schema) {
			between(s, "maxPages", 1, 1000)
			between(s, "maxDepth", 0, 10)
			between(s, "concurrency", 1, 8)
			enum(s, "output", "markdown", "text", "links")
		})
}

func crawlJob(ctx context.Context, c *call, in crawlIn, s *task.Sink) (any, error) {
	pol, err := c.policy()
	if err != nil {
		return nil, err
	}
	if err := pol.Check(in.URL); err != nil {
		return nil, err
	}
	start, _ := url.Parse(in.URL)
	opts := c.crawlOptions(in.MaxPages, 20, in.Concurrency, in.Output)
	opts.Follow, opts.MaxDepth = true, 2
	if in.MaxDepth != nil {
		opts.MaxDepth = *in.MaxDepth
	}
	opts.Filter = func(v string) bool {
		if in.SameOrigin == nil || *in.SameOrigin {
			w, err := url.Parse(v)
			if err != nil || w.Scheme != start.Scheme || w.Host != start.Host {
				return false
			}
		}
		return crawl.Match(v, in.Include, true) && !crawl.Match(v, in.Exclude, false) && pol.Check(v) == nil
	}
	return crawl.Run(ctx, c, c.engine.log, s, in.URL, []string{in.URL}, opts)
}

// crawlOptions are the options both crawls share, defaults filled in.
func (c *call) crawlOptions(maxPages, defaultMax, concurrency int, output string) crawl.Options {
	return crawl.Options{
		MaxPages:    orDefault(maxPages, defaultMax),
		Concurrency: orDefault(concurrency, 2),
		Output:      cmp.Or(output, "markdown"),
		Rejoin:      c.wait != nil,
		FailOnPage:  c.engine.hooks.FailOnPage,
		Panic:       c.engine.hooks.Panic,
	}
}

func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

type crawlSitemapIn struct {
	SitemapURL  string   `json:"sitemap_url,omitempty"`
	URL         string   `json:"url,omitempty" jsonschema:"or a site, for its /sitemap.xml"`
	Filter      []string `json:"filter,omitempty" jsonschema:"only URLs containing one (* wildcard)"`
	MaxPages    int      `json:"maxPages,omitempty"`
	Concurrency int      `json:"concurrency,omitempty"`
	Output      string   `json:"output,omitempty"`
	taskArg
}

// validate leaves the sitemap's URL in SitemapURL.
func (in *crawlSitemapIn) validate() error {
	if (in.SitemapURL == "") == (in.URL == "") {
		return protocol.Errorf(protocol.CodeBadRequest, "pass sitemap_url or url, one of them")
	}
	if in.SitemapURL == "" {
		site, err := checkURL(in.URL)
		if err != nil {
			return err
		}
		u, _ := url.Parse(site)
		in.SitemapURL = u.Scheme + "://" + u.Host + "/sitemap.xml"
	}
	src, err := checkURL(in.SitemapURL)
	if err != nil {
		return err
	}
	if u, _ := url.Parse(src); u.Scheme != "http" && u.Scheme != "https" {
		return protocol.Errorf(protocol.CodeBadRequest, "a sitemap is read over http or https")
	}
	in.SitemapURL = src
	return nil
}

func crawlSitemapTool() Tool {
	return defineJob("crawl_sitemap",
		"Visit a sitemap's pages in background tabs, as crawl does.",
		crawlSitemap,
		func(s *jsonschema.Schema) {
			between(s, "maxPages", 1, 1000)
			between(s, "concurrency", 1, 8)
			enum(s, "output", "markdown", "text", "links")
		})
}

func crawlSitemap(ctx context.Context, c *call, in crawlSitemapIn, s *task.Sink) (any, error) {
	pol, err := c.policy()
	if err != nil {
		return nil, err
	}
	if err := pol.Check(in.SitemapURL); err != nil {
		return nil, err
	}
	opts := c.crawlOptions(in.MaxPages, 50, in.Concurrency, in.Output)
	s.Progress(0, float64(opts.MaxPages), "reading %s", in.SitemapURL)
	urls, err := sitemap.Read(ctx, c.engine.http, in.SitemapURL, opts.MaxPages, func(u string) bool {
		return crawl.Match(u, in.Filter, true) && pol.Check(u) == nil
	})
	if err != nil {
		return nil, err
	}
	return crawl.Run(ctx, c, c.engine.log, s, in.SitemapURL, urls, opts)
}
