package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestURL(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"nothing secret", "https://example.com/docs/a?page=2&q=go+lang#intro", "https://example.com/docs/a?page=2&q=go+lang#intro"},
		{"user and password", "https://bob:hunter2@example.com/x", "https://[redacted]@example.com/x"},
		{"token as user", "https://ghp_x@github.com/o/r.git", "https://[redacted]@github.com/o/r.git"},
		{"secret params, order and encoding kept", "https://a.example/p?z=1&access_token=abc%2Fdef&b=%20x&client_secret=s&a=2",
			"https://a.example/p?z=1&access_token=[redacted]&b=%20x&client_secret=[redacted]&a=2"},
		{"oauth code masked, state kept", "https://app.example/cb?code=4/0AbCd&state=af0ifjsldkj&scope=email",
			"https://app.example/cb?code=[redacted]&state=af0ifjsldkj&scope=email"},
		{"fragment tokens", "https://app.example/cb#access_token=abc&token_type=bearer&expires_in=3600&state=s",
			"https://app.example/cb#access_token=[redacted]&token_type=bearer&expires_in=3600&state=s"},
		{"hash router query", "https://app.example/#/callback?code=xyz&next=home", "https://app.example/#/callback?code=[redacted]&next=home"},
		{"plain fragment", "https://example.com/page#section-2", "https://example.com/page#section-2"},
		{"signed url", "https://b.s3.amazonaws.com/k?X-Amz-Credential=AKID%2F2024&X-Amz-Date=20240101T000000Z&X-Amz-Signature=0a1b",
			"https://b.s3.amazonaws.com/k?X-Amz-Credential=[redacted]&X-Amz-Date=20240101T000000Z&X-Amz-Signature=[redacted]"},
		{"encoded secret name", "https://x.example/?api%5Fkey=abc", "https://x.example/?api%5Fkey=[redacted]"},
		{"nested url with a code", "https://login.example/authorize?redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fcode%3Dabc&state=1",
			"https://login.example/authorize?redirect_uri=[redacted]&state=1"},
		{"nested url without secrets", "https://login.example/authorize?redirect_uri=https%3A%2F%2Fapp%2Fcb&state=1",
			"https://login.example/authorize?redirect_uri=https%3A%2F%2Fapp%2Fcb&state=1"},
		{"repeated and empty params", "https://x.example/?token=&token=a&token=b", "https://x.example/?token=&token=[redacted]&token=[redacted]"},
		{"jwt in path", "https://x.example/reset/" + jwt, "https://x.example/reset/[redacted]"},
		{"relative", "/cb?code=abc&state=x", "/cb?code=[redacted]&state=x"},
		{"protocol-relative", "//cdn.example/a?key=AIza123", "//cdn.example/a?key=[redacted]"},
		{"already masked", "https://[redacted]@h.example/?token=[redacted]", "https://[redacted]@h.example/?token=[redacted]"},
		// url.Parse rejects these; they are masked as URLs all the same.
		{"invalid host", "http://[::1/cb?code=abc&state=1", "http://[::1/cb?code=[redacted]&state=1"},
		{"invalid escape", "https://x.example/%zz?code=abc", "https://x.example/%zz?code=[redacted]"},
		{"control character", "https://x.example/a\tb?sig=abc", "https://x.example/a\tb?sig=[redacted]"},
		{"invalid with text patterns", "http://[::1/?password=hunter2 Bearer abc.def", "http://[::1/?password=[redacted]"},
		{"not a url", "hello world", "hello world"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := URL(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, URL(got), "URL must be idempotent")
		})
	}
}

func TestURLSchemeCheck(t *testing.T) {
	for s, want := range map[string]bool{"https": true, "chrome-extension": true, "git+ssh": true, "1http": false, "": false, "a b": false} {
		assert.Equal(t, want, scheme(s), s)
	}
}

func TestTextURLs(t *testing.T) {
	runText(t, []textCase{
		{"userinfo and params", "GET https://bob:pw@example.com/a?x=1&access_token=abc&state=s done",
			"GET https://[redacted]@example.com/a?x=1&access_token=[redacted]&state=s done"},
		{"oauth code only in urls", "callback https://app.example/cb?code=4%2F0Ab&state=xyz. code=1 exit",
			"callback https://app.example/cb?code=[redacted]&state=xyz. code=1 exit"},
		{"in parentheses", "(see https://x.example/?sig=abc)", "(see https://x.example/?sig=[redacted])"},
		{"plain url", "open https://example.com/docs?page=2#intro", "open https://example.com/docs?page=2#intro"},
	})
}
