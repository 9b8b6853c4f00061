package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHeaders(t *testing.T) {
	in := map[string]string{
		"Authorization":       "Bearer abc.def",
		"proxy-authorization": "Basic dXNlcjpwYXNz",
		"Cookie":              "sid=1; theme=dark",
		"Set-Cookie":          "sid=1; HttpOnly",
		"X-API-Key":           "k",
		"X-CSRF-Token":        "t",
		"Location":            "https://app.example/cb?code=abc&state=1",
		"Referer":             "/search?q=go&access_token=x",
		"Content-Type":        "application/json",
		"X-Debug":             "session_token=abc",
	}
	want := map[string]string{
		"Authorization":       Mask,
		"proxy-authorization": Mask,
		"Cookie":              Mask,
		"Set-Cookie":          Mask,
		"X-API-Key":           Mask,
		"X-CSRF-Token":        Mask,
		"Location":            "https://app.example/cb?code=[redacted]&state=1",
		"Referer":             "/search?q=go&access_token=[redacted]",
		"Content-Type":        "application/json",
		"X-Debug":             "session_token=[redacted]",
	}
	assert.Equal(t, want, Headers(in))
	assert.Equal(t, "Bearer abc.def", in["Authorization"], "the input is not changed")
	assert.Nil(t, Headers(nil))
}
