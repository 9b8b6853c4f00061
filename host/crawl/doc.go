// Package crawl visits pages breadth-first in background tabs of the
// agent's group, for the crawl and crawl_sitemap tools: each page's status,
// title, content and links, kept in the order they were found. It sends
// its commands through any browser.Doer and reports to a task.Sink, so it
// runs the same called directly or as a background task.
package crawl
