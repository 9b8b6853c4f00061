package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

func TestRead(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := srv.URL
		switch r.URL.Path {
		case "/index.xml":
			w.Write([]byte(`<sitemapindex><sitemap><loc>` + base + `/a.xml</loc></sitemap><sitemap><loc>` + base + `/b.xml.gz</loc></sitemap></sitemapindex>`))
		case "/a.xml":
			w.Write([]byte(`<urlset><url><loc> ` + base + `/docs/1 </loc></url><url><loc>` + base + `/blog/1</loc></url><url><loc>mailto:x@y</loc></url></urlset>`))
		case "/b.xml.gz":
			w.Write(gz(t, `<urlset><url><loc>`+base+`/docs/2</loc></url><url><loc>`+base+`/docs/1</loc></url></urlset>`))
		case "/html":
			w.Write([]byte(`<html><body>hi</body></html>`))
		case "/broken":
			w.Write([]byte(`<urlset><url>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	all := func(string) bool { return true }

	urls, err := Read(ctx, srv.Client(), srv.URL+"/index.xml", 10, all)
	require.NoError(t, err)
	assert.Equal(t, []string{srv.URL + "/docs/1", srv.URL + "/blog/1", srv.URL + "/docs/2"}, urls,
		"indexes followed, gzip read, duplicates and non-web URLs dropped")

	urls, err = Read(ctx, srv.Client(), srv.URL+"/index.xml", 10, func(u string) bool { return strings.Contains(u, "/docs/") })
	require.NoError(t, err)
	assert.Equal(t, []string{srv.URL + "/docs/1", srv.URL + "/docs/2"}, urls)

	urls, err = Read(ctx, srv.Client(), srv.URL+"/index.xml", 1, all)
	require.NoError(t, err)
	assert.Len(t, urls, 1, "at most max")

	for path, code := range map[string]protocol.Code{
		"/missing": protocol.CodeNotFound, "/html": protocol.CodeBadRequest, "/broken": protocol.CodeBadRequest,
	} {
		_, err := Read(ctx, srv.Client(), srv.URL+path, 10, all)
		assert.ErrorIs(t, err, &protocol.Error{Code: code}, path)
	}
	_, err = Read(ctx, srv.Client(), srv.URL+"/a.xml", 10, func(string) bool { return false })
	assert.ErrorIs(t, err, protocol.ErrNotFound, "nothing passes the filter")
}
