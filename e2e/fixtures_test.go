package e2e

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

//go:embed testdata/*.html
var pages embed.FS

// fixtures serves the pages of testdata/ on 127.0.0.1, plus:
//
//	/status/N       a page answered with HTTP status N
//	/slow?ms=N      a page that takes N ms to answer
func fixtures(t testing.TB) *httptest.Server {
	t.Helper()
	root, _ := fs.Sub(pages, "testdata")
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.FS(root)))
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, err := strconv.Atoi(r.PathValue("code"))
		if err != nil || code < 200 || code > 599 {
			http.Error(w, "bad status", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintf(w, "<!doctype html><title>Status %d</title><h1>%d</h1>", code, code)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "<!doctype html><title>Slow</title><p>done")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("fixtures must be on loopback, got %s", srv.URL)
	}
	return srv
}
