package e2e

import (
	"embed"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sitePages is the fixture site the tool tests drive: one page per
// behaviour (login, form controls, dialogs, frames, shadow DOM, long list,
// hover menu, overlays, moving targets, replaced DOM, delays, keys and
// pointer). Each page says at its top what it exercises; index.html links
// them all.
//
//go:embed testdata/site/*
var sitePages embed.FS

// fixtureSite serves testdata/site/ on 127.0.0.1, /api/wait (see wait) and
// /api/items (see items).
func fixtureSite(t testing.TB) *httptest.Server {
	t.Helper()
	return fixtureSiteOn(t, "127.0.0.1")
}

// fixtureSiteOn serves testdata/site/ on a loopback address: 127.0.0.2 is a
// third site to Chrome, beside 127.0.0.1 and localhost, for a cross-site
// frame inside a cross-site frame.
func fixtureSiteOn(t testing.TB, ip string) *httptest.Server {
	t.Helper()
	root, err := fs.Sub(sitePages, "testdata/site")
	require.NoError(t, err)
	l, err := net.Listen("tcp", ip+":0")
	require.NoError(t, err, "listen on %s", ip)
	if !l.Addr().(*net.TCPAddr).IP.IsLoopback() {
		l.Close()
		t.Fatalf("fixture site must be on loopback, got %s", l.Addr())
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.FS(root)))
	mux.HandleFunc("/api/wait", wait)
	mux.HandleFunc("/api/items", items)
	mux.HandleFunc("/api/refuse", refuse)
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: mux}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// wait answers {"ok":true} after ?ms= milliseconds, or not at all when the
// page stops waiting: a request a button's script sends (answers.html).
func wait(w http.ResponseWriter, r *http.Request) {
	ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
	select {
	case <-time.After(time.Duration(ms) * time.Millisecond):
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"ok":true}`)
}

// refuse answers 500, as a server that could not save what it was sent
// (act-once.html's "Post comment").
func refuse(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "could not save", http.StatusInternalServerError)
}

// items answers a JSON list of ?n= items, {"id":0,"name":"item 0"} and on:
// a long answer, read in parts.
func items(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("n"))
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, itemsJSON(n))
}

func itemsJSON(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = `{"id":` + strconv.Itoa(i) + `,"name":"item ` + strconv.Itoa(i) + `"}`
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// fixtureSites serves the fixture site twice, on two loopback ports, for
// frames.html?cross=<b.URL>/frame-inner.html. The two are cross-origin but
// same-site, so Chrome keeps b's frame in the page's process; for an
// out-of-process (cross-site) frame, pass [siteOnLocalhost] of b instead.
func fixtureSites(t testing.TB) (a, b *httptest.Server) {
	t.Helper()
	return fixtureSite(t), fixtureSite(t)
}

// siteOnLocalhost returns the URL of path on srv with the host spelled
// localhost rather than 127.0.0.1: the same server, but another site to
// Chrome, so a frame loaded from it is cross-site.
func siteOnLocalhost(srv *httptest.Server, path string) string {
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + path
}

var (
	siteTitle = regexp.MustCompile(`<title>([^<]+)</title>`)
	siteHref  = regexp.MustCompile(`href="([a-z-]+\.html)[?#"]`)
)

// TestFixtureSiteServes checks that every page of the fixture site is served
// whole, has its own title, stays offline, and is linked from index.html.
// It needs no browser, so it runs with -short too.
func TestFixtureSiteServes(t *testing.T) {
	srv := fixtureSite(t)
	names, err := fs.Glob(sitePages, "testdata/site/*.html")
	require.NoError(t, err)
	require.NotEmpty(t, names)

	titles := map[string]string{} // title -> page
	linked := map[string]bool{}
	for _, name := range names {
		page := path.Base(name)
		t.Run(page, func(t *testing.T) {
			resp, err := http.Get(srv.URL + "/" + page)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Contains(t, resp.Header.Get("Content-Type"), "text/html")

			html := string(body)
			m := siteTitle.FindStringSubmatch(html)
			require.NotNil(t, m, "no <title>")
			if other, dup := titles[m[1]]; dup {
				t.Errorf("title %q also used by %s", m[1], other)
			}
			titles[m[1]] = page
			assert.Contains(t, html, `<html lang="en">`)
			assert.Contains(t, html, `<meta charset="utf-8">`)
			for _, external := range []string{`src="http`, `href="http`, `url(http`, `https://`, `src="//`, `href="//`} {
				assert.NotContains(t, html, external, "fixture pages load nothing from elsewhere")
			}
			if page == "index.html" {
				for _, m := range siteHref.FindAllStringSubmatch(html, -1) {
					linked[m[1]] = true
				}
			}
		})
	}
	for _, name := range names {
		if page := path.Base(name); page != "index.html" {
			assert.True(t, linked[page], "index.html does not link %s", page)
		}
	}
}
