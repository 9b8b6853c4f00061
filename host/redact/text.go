package redact

import (
	"regexp"
	"strings"
)

// Text returns s with every secret the patterns recognise replaced by [Mask]:
// bearer and basic credentials, JWTs, API keys with a known prefix (sk-,
// ghp_, xoxb-, AKIA, AIza, ...), long hex and long random-looking base64
// runs, the value of any key=value or key: value pair whose key names a
// secret, card numbers that pass the Luhn check, and the secret parts of URLs
// in the text (see [URL]). It knows no exact secrets; a [Redactor] adds those.
//
// Text is idempotent: Text(Text(s)) == Text(s).
func Text(s string) string { return (*Redactor)(nil).Text(s) }

// maxPasses bounds how often scrub re-runs the patterns. Masking one secret
// can change what is left beside it: a run with too many dashes to be base64
// as a whole can, once the API key at its start is masked, leave a tail that
// is a base64 token on its own (TestTextMasksUncovered). So scrub repeats
// until nothing changes; the second pass usually only confirms the first.
const maxPasses = 4

// scrub applies the patterns until the text stops changing, which is what
// makes Text idempotent. isURL says whether s is itself a URL, so that
// [urlSpans] applies to it as a whole.
func scrub(s string, isURL bool) string {
	for range maxPasses {
		spans := textSpans(s, nil)
		if isURL {
			spans = urlSpans(s, 0, spans)
		}
		next := mask(s, spans)
		if next == s {
			break
		}
		s = next
	}
	return s
}

var (
	// jwtRE finds a JWT: a JSON header (base64url of `{"`, hence eyJ) and two
	// more base64url segments; the signature may be empty (alg "none").
	jwtRE = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)
	// keyRE finds API keys by their vendor prefix: OpenAI/Anthropic sk-,
	// Stripe sk_live_/rk_test_, GitHub ghp_/gho_/ghu_/ghs_/ghr_/github_pat_,
	// Slack xox?-, GitLab glpat-, npm npm_, Google AIza, AWS access key ids.
	// Runs are greedy over [A-Za-z0-9_-] so a match never ends inside a word.
	keyRE = regexp.MustCompile(`\b(?:sk-[A-Za-z0-9_-]{20,}|[rs]k_(?:live|test)_[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9_]{30,}|github_pat_[A-Za-z0-9_]{22,}|xox[abposr]-[A-Za-z0-9_-]{10,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9_]{36,}|AIza[A-Za-z0-9_-]{35,}|(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b)`)
)

// textSpans appends to dst the spans of every secret the patterns find in s.
// The regexps run only when a literal they need is in s, which is cheap to
// check and spares the common case (no secret at all) most of the cost.
func textSpans(s string, dst []span) []span {
	dst = urlSpansIn(s, dst)
	dst = credentialSpans(s, dst)
	if strings.Contains(s, "eyJ") {
		for _, m := range jwtRE.FindAllStringIndex(s, -1) {
			dst = append(dst, span{m[0], m[1]})
		}
	}
	if hasKeyPrefix(s) {
		for _, m := range keyRE.FindAllStringIndex(s, -1) {
			// sk- also starts CSS class names (SpinKit's sk-fading-circle); a
			// real key has digits in it.
			if k := s[m[0]:m[1]]; strings.HasPrefix(k, "sk-") && !strings.ContainsAny(k, "0123456789") {
				continue
			}
			dst = append(dst, span{m[0], m[1]})
		}
	}
	dst = hexSpans(s, dst)
	dst = base64Spans(s, dst)
	dst = pairSpans(s, dst)
	return cardSpans(s, dst)
}

// hasKeyPrefix reports whether s has one of the prefixes keyRE looks for.
func hasKeyPrefix(s string) bool {
	for _, p := range [...]string{"sk-", "k_live_", "k_test_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "glpat-", "npm_", "AIza", "AKIA", "ASIA", "ABIA", "ACCA"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// credentialSpans appends the credential after every HTTP auth scheme name
// in s ("Bearer abc.def", "Basic dXNlcjpwYXNz"): a run of RFC 6750's
// b64token alphabet with its "=" padding, when [credential] says it is one.
// "basic" in lower case is too common an adjective to count.
func credentialSpans(s string, dst []span) []span {
	for _, scheme := range [...]string{"Bearer", "bearer", "BEARER", "Basic", "BASIC"} {
		for from := 0; ; {
			k := strings.Index(s[from:], scheme)
			if k < 0 {
				break
			}
			k += from
			from = k + len(scheme)
			if k > 0 && isWordByte(s[k-1]) {
				continue
			}
			a := from
			for a < len(s) && (s[a] == ' ' || s[a] == '\t') {
				a++
			}
			if a == from {
				continue
			}
			b := a
			for b < len(s) && (isWordByte(s[b]) || strings.IndexByte("-.~+/", s[b]) >= 0) {
				b++
			}
			for b > a && b < len(s) && s[b] == '=' {
				b++
			}
			if credential(s[a:b]) {
				dst = append(dst, span{a, b})
			}
		}
	}
	return dst
}

// credential reports whether the word after "Bearer" or "Basic" is a
// credential rather than prose ("Basic authentication", "Bearer Token"): it
// has a digit, a token punctuation mark, or a capital after its first letter.
func credential(t string) bool {
	if len(t) < 6 {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= '0' && c <= '9' || strings.IndexByte("._~+/=-", c) >= 0 || i > 0 && c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}
