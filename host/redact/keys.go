package redact

import (
	"strings"
	"unicode"
)

// isSecretKey reports whether a key name (a JSON key, a slog attribute, a
// header, the left side of key=value) names a secret.
//
// The name is split into words at separators (_ - . space) and camelCase humps,
// and judged by its last word, because the last word says what the value is:
// "userPassword", "X-Auth-Token" and "client_secret" hold secrets while
// "password_policy", "token_count" and "max_tokens" do not. The words are
// also joined and checked for a few unambiguous endings, so that unseparated
// names ("accesstoken", "xapikey") are caught too.
func isSecretKey(name string) bool {
	ws := words(name)
	n := len(ws)
	if n == 0 {
		return false
	}
	last := ws[n-1]
	switch last {
	case "password", "passwd", "pwd", "passphrase", "passcode",
		"secret", "secrets", "token", "auth", "authorization",
		"cookie", "cookies", "session", "credential", "credentials",
		"otp", "totp", "pin", "cvv", "cvc", "ssn",
		"apikey", "privatekey", "secretkey", "accesskey":
		return true
	}
	if n >= 2 {
		switch prev := ws[n-2]; last {
		case "key": // api_key, X-API-Key, private-key; not sort_key or keyboard key
			switch prev {
			case "api", "private", "secret", "access", "auth", "signing", "encryption", "master":
				return true
			}
		case "code": // otp_code, mfaCode; not zip_code, country_code or status code
			switch prev {
			case "otp", "totp", "mfa", "2fa", "auth", "verification", "security", "recovery", "backup", "sms":
				return true
			}
		}
	}
	joined := strings.Join(ws, "")
	for _, end := range [...]string{"password", "passwd", "secret", "token", "apikey", "cookie", "credential", "credentials", "privatekey", "secretkey", "accesskey"} {
		if strings.HasSuffix(joined, end) {
			return true
		}
	}
	return false
}

// isSecretParam reports whether a URL query or fragment parameter names a
// secret. On top of [isSecretKey] it knows the names that are secrets only in
// URLs: the OAuth authorization "code", Google's "key", signed-URL signatures
// (X-Amz-Signature, sig), session ids in URLs (jsessionid) and CAS tickets.
// "state" is not one: it is a nonce the client chose, and it helps debugging.
func isSecretParam(name string) bool {
	if isSecretKey(name) {
		return true
	}
	ws := words(name)
	n := len(ws)
	if n == 0 {
		return false
	}
	if n == 1 {
		switch ws[0] {
		case "code", "key", "ticket":
			return true
		}
	}
	switch ws[n-1] {
	case "sig", "signature", "sid", "sessionid", "jsessionid", "phpsessid":
		return true
	}
	return strings.HasSuffix(strings.Join(ws, ""), "sessionid")
}

// words splits a key name into lower-case words: at every rune that is not a
// letter or digit, between a lower-case letter or digit and an upper-case one
// ("userPassword"), and before the last capital of an acronym that starts a
// word ("APIKey" -> api, key).
func words(name string) []string {
	rs := []rune(name)
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
	}
	for i, c := range rs {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			flush(i)
			start = -1
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		hump := unicode.IsUpper(c) && (unicode.IsLower(prev) || unicode.IsDigit(prev))
		acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(c) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if hump || acronymEnd {
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}
