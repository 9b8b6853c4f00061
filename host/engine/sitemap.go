package engine

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/xml"

	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type crawlSitemapIn struct {
	SitemapURL  string   `json:"sitemap_url,omitempty" jsonschema:"the sitemap or sitemap index (gzip too)"`
	URL         string   `json:"url,omitempty" jsonschema:"instead: a site, whose /sitemap.xml is read"`
	Filter      []string `json:"filter,omitempty" jsonschema:"only URLs containing one of these (* matches anything)"`
	MaxPages    int      `json:"maxPages,omitempty" jsonschema:"default 50"`
	Concurrency int      `json:"concurrency,omitempty" jsonschema:"tabs at once; default 2"`
	Output      string   `json:"output,omitempty" jsonschema:"what to keep of each page; default markdown"`
}

func crawlSitemapTool() Tool {
	return defineJob("crawl_sitemap",
		"Read a sitemap (and the sitemaps it indexes) and visit its pages in background tabs, as crawl does.",
		crawlSitemap,
		func(s *jsonschema.Schema) {
			between(s, "maxPages", 1, 1000)
			between(s, "concurrency", 1, 8)
			enum(s, "output", "markdown", "text", "links")
		})
}

// Sitemap limits: a sitemap may hold 50,000 URLs and 50 MB; indexes nest.
const (
	maxSitemapBytes = 50 << 20
	maxSitemaps     = 50
	maxSitemapDepth = 3
)

func crawlSitemap(ctx context.Context, c *call, in crawlSitemapIn, s *sink) (any, error) {
	if (in.SitemapURL == "") == (in.URL == "") {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "pass sitemap_url or url, one of them")
	}
	src := in.SitemapURL
	if src == "" {
		site, err := checkURL(in.URL)
		if err != nil {
			return nil, err
		}
		u, _ := url.Parse(site)
		src = u.Scheme + "://" + u.Host + "/sitemap.xml"
	}
	src, err := checkURL(src)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(src, "http") {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "a sitemap is read over http or https")
	}
	maxPages := orDefault(in.MaxPages, 50)
	s.Progress(0, float64(maxPages), "reading %s", src)
	urls, err := readSitemaps(ctx, src, maxPages, func(u string) bool { return matchesAny(u, in.Filter, true) })
	if err != nil {
		return nil, err
	}
	cr := newCrawler(c, s, crawlOptions{
		maxPages:    maxPages,
		concurrency: orDefault(in.Concurrency, 2),
		output:      cmp.Or(in.Output, "markdown"),
	})
	return cr.run(ctx, src, urls)
}

// sitemapDoc is a sitemap (urlset) or a sitemap index (sitemapindex).
type sitemapDoc struct {
	XMLName xml.Name
	URLs    []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

// readSitemaps returns the page URLs of the sitemap at src, following
// indexes, up to max URLs that keep passes.
func readSitemaps(ctx context.Context, src string, max int, keep func(string) bool) ([]string, error) {
	var urls []string
	seen := map[string]bool{}
	read := 0
	var visit func(src string, depth int) error
	visit = func(src string, depth int) error {
		if depth > maxSitemapDepth || read >= maxSitemaps || len(urls) >= max {
			return nil
		}
		read++
		doc, err := fetchSitemap(ctx, src)
		if err != nil {
			return err
		}
		for _, u := range doc.URLs {
			loc := strings.TrimSpace(u.Loc)
			if loc == "" || seen[loc] || !keep(loc) {
				continue
			}
			if _, err := checkURL(loc); err != nil {
				continue
			}
			seen[loc] = true
			urls = append(urls, loc)
			if len(urls) >= max {
				return nil
			}
		}
		for _, sm := range doc.Sitemaps {
			if err := visit(strings.TrimSpace(sm.Loc), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(src, 0); err != nil {
		return nil, err
	}
	if len(urls) == 0 {
		return nil, protocol.Errorf(protocol.CodeNotFound, "the sitemap at %s lists no pages to visit", src).
			WithHint("check the filter, or crawl the site with crawl")
	}
	return urls, nil
}

// fetchSitemap downloads and parses one sitemap, gunzipping it when it is
// gzip (by its bytes, whatever its name or headers say).
func fetchSitemap(ctx context.Context, src string) (*sitemapDoc, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "sitemap URL %q is malformed", src)
	}
	req.Header.Set("User-Agent", "OpenChrome sitemap reader")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, protocol.Errorf(protocol.CodeTimeout, "the sitemap %s did not load in time", src).WithCause(err)
		}
		return nil, protocol.Errorf(protocol.CodeNotFound, "could not load the sitemap %s", src).
			WithHint("check the URL; a site's sitemap is usually /sitemap.xml").WithCause(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, protocol.Errorf(protocol.CodeNotFound, "the sitemap %s answered HTTP %d", src, resp.StatusCode).
			WithHint("check the URL; a site's sitemap is usually /sitemap.xml")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSitemapBytes+1))
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeNotFound, "the sitemap %s could not be read", src).WithCause(err)
	}
	if len(body) > maxSitemapBytes {
		return nil, protocol.Errorf(protocol.CodeTooLarge, "the sitemap %s is over %d MB", src, maxSitemapBytes>>20)
	}
	if bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "the sitemap %s is damaged gzip", src).WithCause(err)
		}
		body, err = io.ReadAll(io.LimitReader(zr, maxSitemapBytes+1))
		if err != nil || len(body) > maxSitemapBytes {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "the sitemap %s is damaged or over %d MB unpacked", src, maxSitemapBytes>>20)
		}
	}
	var doc sitemapDoc
	if err := xml.Unmarshal(body, &doc); err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%s is not a sitemap: %s", src, firstLine(err.Error()))
	}
	if doc.XMLName.Local != "urlset" && doc.XMLName.Local != "sitemapindex" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%s is not a sitemap (its root is <%s>)", src, doc.XMLName.Local)
	}
	return &doc, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return clip(line, 200)
}
