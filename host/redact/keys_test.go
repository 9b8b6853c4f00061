package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"password", []string{"password"}},
		{"userPassword", []string{"user", "password"}},
		{"X-API-Key", []string{"x", "api", "key"}},
		{"APIKey", []string{"api", "key"}},
		{"client_secret", []string{"client", "secret"}},
		{"oauth2Token", []string{"oauth2", "token"}},
		{"config.db.pwd", []string{"config", "db", "pwd"}},
		{"__", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, words(tt.in))
		})
	}
}

func TestIsSecretKey(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		// the list, in its spellings
		{"password", true}, {"PASSWORD", true}, {"passwd", true}, {"secret", true},
		{"token", true}, {"api_key", true}, {"apikey", true}, {"apiKey", true}, {"X-API-Key", true},
		{"auth", true}, {"Authorization", true}, {"cookie", true}, {"Set-Cookie", true},
		{"session", true}, {"credential", true}, {"credentials", true}, {"otp", true},
		{"pin", true}, {"cvv", true}, {"ssn", true}, {"private_key", true}, {"privateKey", true},
		// names ending in them, with every separator
		{"user_password", true}, {"userPassword", true}, {"user-password", true}, {"db.password", true},
		{"access_token", true}, {"accessToken", true}, {"accesstoken", true}, {"csrftoken", true},
		{"client_secret", true}, {"clientSecret", true}, {"X-Auth-Token", true}, {"user_session", true},
		{"otp_code", true}, {"mfaCode", true}, {"aws_secret_access_key", true},
		// names that only contain a secret word, or look like one
		{"password_policy", false}, {"passwordless", false}, {"token_count", false},
		{"max_tokens", false}, {"maxTokens", false}, {"tokenizer", false}, {"token_type", false},
		{"author", false}, {"spin", false}, {"pinned", false}, {"sessionId", false},
		{"zip_code", false}, {"code", false}, {"key", false}, {"sort_key", false},
		{"url", false}, {"maxPages", false}, {"objective", false}, {"", false},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			assert.Equal(t, tt.want, isSecretKey(tt.key))
		})
	}
}

func TestIsSecretParam(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"access_token", true}, {"code", true}, {"key", true}, {"X-Amz-Signature", true},
		{"X-Amz-Credential", true}, {"X-Amz-Security-Token", true}, {"sig", true},
		{"jsessionid", true}, {"PHPSESSID", true}, {"ticket", true}, {"client_secret", true},
		{"state", false}, {"code_challenge", false}, {"zip_code", false}, {"sort_key", false},
		{"redirect_uri", false}, {"q", false}, {"page", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, isSecretParam(tt.name))
		})
	}
}
