package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestCheckURL(t *testing.T) {
	tests := []struct {
		in, want string
		why      string // what the error says, when it is refused
	}{
		{in: "https://example.com/a?b=c", want: "https://example.com/a?b=c"},
		{in: "  http://127.0.0.1:8080/  ", want: "http://127.0.0.1:8080/"},
		{in: "about:blank", want: "about:blank"},
		{in: "file:///tmp/a.html", want: "file:///tmp/a.html"},
		{in: "example.com", want: "https://example.com"},
		{in: "docs.python.org/3/library/", want: "https://docs.python.org/3/library/"},
		{in: "localhost:3000/login", want: "http://localhost:3000/login"},
		{in: "127.0.0.1:8123/z1.html", want: "http://127.0.0.1:8123/z1.html"},
		{in: "[::1]:8080", want: "http://[::1]:8080"},
		{in: "192.168.1.1", want: "http://192.168.1.1"},
		{in: "example", why: "is not absolute"},
		{in: "index.html", why: "is not absolute"},
		{in: "report.pdf#page=2", why: "is not absolute"},
		{in: "", why: "is empty"},
		{in: "javascript:alert(1)", why: "has scheme javascript"},
		{in: "chrome://settings", why: "has scheme chrome"},
		{in: "mailto:a@example.com", why: "has scheme mailto"},
		{in: "http:///path", why: "has no host"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := checkURL(tt.in)
			if tt.why == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				return
			}
			var pe *protocol.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, protocol.CodeBadRequest, pe.Code)
			assert.Contains(t, pe.Message, tt.why)
		})
	}
}
