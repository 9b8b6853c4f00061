package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestThePolicyTable(t *testing.T) {
	tests := []struct {
		name   string
		config Config
		url    string
		want   string // "" allowed; else a part of the refusal
	}{
		{"the default allows the web", Defaults(), "https://news.example.org/a?b=1", ""},
		{"and about:blank", Defaults(), "about:blank", ""},
		{"but no local file", Defaults(), "file:///etc/passwd", "file: URLs are off"},
		{"unless allowed", Config{AllowFileURLs: true}, "file:///home/p/report.html", ""},
		{"nor a browser page", Defaults(), "chrome://settings", "not web pages"},
		{"blocked", Config{BlockedOrigins: []string{"evil.example"}}, "https://evil.example/login", `rule "evil.example"`},
		{"blocked, a subdomain by wildcard", Config{BlockedOrigins: []string{"*.evil.example"}}, "http://a.b.evil.example/", `"*.evil.example"`},
		{"the wildcard takes the domain itself", Config{BlockedOrigins: []string{"*.evil.example"}}, "https://evil.example/", "blocked"},
		{"a wildcard is not a suffix", Config{BlockedOrigins: []string{"*.evil.example"}}, "https://notevil.example/", ""},
		{"allowed", Config{AllowedOrigins: []string{"*.example.com"}}, "https://app.example.com/", ""},
		{"not allowed", Config{AllowedOrigins: []string{"*.example.com"}}, "https://example.org/", "not among the allowed origins (*.example.com)"},
		{"blocked beats allowed", Config{AllowedOrigins: []string{"*.example.com"}, BlockedOrigins: []string{"admin.example.com"}}, "https://admin.example.com/", "blocked"},
		{"scheme and port", Config{AllowedOrigins: []string{"https://app.example.com:8443"}}, "https://app.example.com:8443/x", ""},
		{"another port", Config{AllowedOrigins: []string{"https://app.example.com:8443"}}, "https://app.example.com/x", "not among"},
		{"another scheme", Config{AllowedOrigins: []string{"https://app.example.com"}}, "http://app.example.com/", "not among"},
		{"a default port named", Config{AllowedOrigins: []string{"https://app.example.com:443"}}, "https://app.example.com/", ""},
		{"localhost", Config{AllowedOrigins: []string{"http://localhost"}}, "http://localhost/", ""},
		{"case", Config{AllowedOrigins: []string{"App.Example.COM"}}, "https://APP.example.com/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.config.Policy()
			require.NoError(t, err)
			err = p.Check(tt.url)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			e := protocol.AsError(err)
			assert.Equal(t, protocol.CodeDomainBlocked, e.Code)
			assert.Contains(t, e.Message, tt.want)
			assert.NotEmpty(t, e.Hint)
		})
	}
}

func TestAClientNarrowsThePolicyNeverWidensIt(t *testing.T) {
	p, err := Config{AllowedOrigins: []string{"*.example.com"}, BlockedOrigins: []string{"admin.example.com"}}.Policy()
	require.NoError(t, err)
	narrow, err := p.Narrow([]string{"docs.example.com", "evil.example"}, []string{"docs.example.com:8080"})
	require.NoError(t, err)
	for url, allowed := range map[string]bool{
		"https://docs.example.com/":      true,
		"https://app.example.com/":       false, // the client's list leaves it out
		"https://evil.example/":          false, // the client cannot add what the person did not allow
		"https://admin.example.com/":     false, // nor unblock
		"http://docs.example.com:8080/x": false, // the client's own block
	} {
		assert.Equal(t, allowed, narrow.Check(url) == nil, url)
	}
	assert.NoError(t, p.Check("https://app.example.com/"), "the person's policy is untouched")
	assert.Equal(t, Rules{Allowed: [][]string{{"*.example.com"}, {"docs.example.com", "evil.example"}},
		Blocked: []string{"admin.example.com", "docs.example.com:8080"}}, narrow.Rules())
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(filepath.Join(dir, "none.json"))
	require.NoError(t, err)
	assert.Equal(t, Defaults(), c, "no file: the defaults")

	path := filepath.Join(dir, "config.json")
	require.NoError(t, Write(path, Config{AllowedOrigins: []string{"*.example.com"}, AllowFileURLs: true}, func(p string, b []byte) error {
		return os.WriteFile(p, b, 0o600)
	}))
	c, err = Load(path)
	require.NoError(t, err)
	assert.Equal(t, []string{"*.example.com"}, c.AllowedOrigins)
	assert.True(t, c.AllowFileURLs)

	for body, want := range map[string]string{
		`{"allowedOrigins": [`:            "not a valid config",
		`{"allowedOrigin": ["x"]}`:        `unknown field "allowedOrigin"`,
		`{"blockedOrigins": ["ftp://x"]}`: "only http and https",
		`{"blockedOrigins": ["a/b"]}`:     "is not [scheme://]host",
		`{"allowFileURLs": "yes"}`:        "not a valid config",
	} {
		require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
		_, err := Load(path)
		e := protocol.AsError(err)
		assert.Equal(t, protocol.CodeBadRequest, e.Code, body)
		assert.Contains(t, e.Message, want, body)
		assert.Contains(t, e.Message, path, "the error names the file")
	}
}

// TestTheSharedVector is the table the extension's lib/policy.js is tested
// against too: both sides decide alike.
func TestTheSharedVector(t *testing.T) {
	b, err := os.ReadFile("../../protocol/testdata/policy.json")
	require.NoError(t, err)
	var cases []struct {
		Rules   Rules  `json:"rules"`
		URL     string `json:"url"`
		Allowed bool   `json:"allowed"`
	}
	require.NoError(t, json.Unmarshal(b, &cases))
	require.NotEmpty(t, cases)
	for _, c := range cases {
		p, err := FromRules(c.Rules)
		require.NoError(t, err)
		assert.Equal(t, c.Allowed, p.Check(c.URL) == nil, "%+v %s", c.Rules, c.URL)
	}
}
