package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// Sitemap limits: a sitemap may hold 50,000 URLs and 50 MB; indexes nest.
const (
	maxSitemapBytes = 50 << 20
	maxSitemaps     = 50
	maxSitemapDepth = 3
)

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

// Read returns the page URLs of the sitemap at src, following indexes, up
// to max http(s) URLs that keep passes. It fetches with client (nil:
// http.DefaultClient).
func Read(ctx context.Context, client *http.Client, src string, max int, keep func(string) bool) ([]string, error) {
	var urls []string
	seen := map[string]bool{}
	read := 0
	var visit func(src string, depth int) error
	visit = func(src string, depth int) error {
		if depth > maxSitemapDepth || read >= maxSitemaps || len(urls) >= max {
			return nil
		}
		read++
		doc, err := fetch(ctx, client, src)
		if err != nil {
			return err
		}
		for _, u := range doc.URLs {
			loc := strings.TrimSpace(u.Loc)
			if loc == "" || seen[loc] || !keep(loc) {
				continue
			}
			if !isPage(loc) {
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

// fetch downloads and parses one sitemap, gunzipping it when it is
// gzip (by its bytes, whatever its name or headers say).
func fetch(ctx context.Context, client *http.Client, src string) (*sitemapDoc, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "sitemap URL %q is malformed", src)
	}
	req.Header.Set("User-Agent", "OpenChrome sitemap reader")
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
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
	if len(line) > 200 {
		line = strings.ToValidUTF8(line[:200], "") + "…"
	}
	return line
}

// isPage reports whether loc is an absolute http(s) URL a tab can load.
func isPage(loc string) bool {
	u, err := url.Parse(loc)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != ""
}
