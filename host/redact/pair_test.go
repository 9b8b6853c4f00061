package redact

import "testing"

func TestTextPairs(t *testing.T) {
	runText(t, []textCase{
		{"equals", "password=hunter2", "password=[redacted]"},
		{"equals in prose", "login with password=hunter2 failed", "login with password=[redacted] failed"},
		{"colon", "Password: hunter2", "Password: [redacted]"},
		{"spaces around", "api_key = abc123", "api_key = [redacted]"},
		{"suffix key", "db.userPassword=s3cr3t;other=1", "db.userPassword=[redacted];other=1"},
		{"query-like", "a=1&token=xyz&b=2", "a=1&token=[redacted]&b=2"},
		{"json", `{"user":"bob","password":"hunter2","n":1}`, `{"user":"bob","password":"[redacted]","n":1}`},
		{"json escaped quote", `{"secret":"a\"b"}`, `{"secret":"[redacted]"}`},
		{"json inside a string", `body: "{\"token\":\"abc\"}"`, `body: "{\"token\":\"[redacted]\"}"`},
		{"single quotes", "client_secret: 'x y z'", "client_secret: '[redacted]'"},
		{"header to end of line", "Authorization: Bearer abc\nHost: x", "Authorization: [redacted]\nHost: x"},
		{"cookie header", "Cookie: sid=1; theme=dark", "Cookie: [redacted]"},
		{"cookie pair is one value", "cookie=sid; theme=dark", "cookie=[redacted]; theme=dark"},
		{"already masked", "password=[redacted]", "password=[redacted]"},
		{"key in prose is not a pair", "the token bucket refills; passwordless login works", "the token bucket refills; passwordless login works"},
		{"non-secret pairs", "user=bob state=ok max_tokens=100", "user=bob state=ok max_tokens=100"},
		{"empty value", "password=&user=bob", "password=&user=bob"},
		{"code identifiers", "passwordField.focus(); getToken(); auth_header_name", "passwordField.focus(); getToken(); auth_header_name"},
	})
}
