// Package sitemap reads sitemaps (https://www.sitemaps.org/protocol.html):
// a urlset, or a sitemap index whose sitemaps it follows, plain or gzip, for
// crawl_sitemap's list of pages. It fetches over an injected *http.Client.
package sitemap
