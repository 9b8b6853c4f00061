package redact

import (
	"net/url"
	"strings"
)

// URL returns u with its secret parts replaced by [Mask]: the userinfo
// (user:password@, or a token used as the user name), the values of query
// and fragment parameters whose names look secret (access_token, code,
// client_secret, X-Amz-Signature, ...; not state), and the values of other
// parameters that, percent-decoded, hold a secret (a redirect_uri carrying a
// code). The rest keeps its order and encoding byte for byte, because the
// result is rewritten in place rather than re-encoded.
//
// The free-text patterns of [Text] apply to the whole URL as well, so a JWT
// or API key in a path is masked too, and an invalid URL is masked at least
// as thoroughly as [Text] would. URL does not ask url.Parse whether u is
// valid: masking can change the answer (it removes a control character, or
// puts [Mask] where userinfo was), and URL must give its own output back
// unchanged.
func URL(u string) string { return (*Redactor)(nil).URL(u) }

// urlSpansIn appends the secret parts of every absolute URL in s: a scheme,
// "://", and everything up to a space, a quote, an angle bracket or a
// backslash (a URL inside an escaped JSON string ends at its \"), less the
// punctuation that ends a sentence (see [trimURL]).
func urlSpansIn(s string, dst []span) []span {
	for from := 0; ; {
		k := strings.Index(s[from:], "://")
		if k < 0 {
			return dst
		}
		k += from
		a := k
		for a > from && (isLetter(s[a-1]) || isDigit(s[a-1]) || strings.IndexByte("+.-", s[a-1]) >= 0) {
			a--
		}
		// The scheme starts at the first letter that starts a word.
		for a < k && !(isLetter(s[a]) && (a == 0 || !isWordByte(s[a-1]))) {
			a++
		}
		b := k + 3
		for b < len(s) && strings.IndexByte(" \t\r\n\f\v<>\"'`\\", s[b]) < 0 {
			b++
		}
		if a < k && b > k+3 {
			u := trimURL(s[a:b])
			dst = urlSpans(u, a, dst)
		}
		from = max(b, k+3)
	}
}

// trimURL drops punctuation that ends a sentence rather than the URL:
// "see https://x/y." or "(https://x/y)". A closing bracket stays, since a
// masked value ends with one.
func trimURL(u string) string {
	for len(u) > 0 {
		c := u[len(u)-1]
		if c == ')' && strings.Count(u, "(") >= strings.Count(u, ")") {
			break
		}
		if strings.IndexByte(".,;:!?)", c) < 0 {
			break
		}
		u = u[:len(u)-1]
	}
	return u
}

// urlSpans appends to dst the secret parts of the URL u, which starts at
// byte off of the text the spans are for. It reads u by hand rather than
// with url.Parse, so it finds byte offsets, and so it still reads a URL that
// masking has made invalid (a [Mask] is not valid userinfo).
func urlSpans(u string, off int, dst []span) []span {
	auth := 0 // where the authority starts; 0 when u has none
	if k := strings.Index(u, "://"); k > 0 && scheme(u[:k]) {
		auth = k + 3
	} else if strings.HasPrefix(u, "//") {
		auth = 2
	}
	if auth > 0 {
		end := len(u)
		if j := strings.IndexAny(u[auth:], "/?#"); j >= 0 {
			end = auth + j
		}
		if at := strings.LastIndexByte(u[auth:end], '@'); at > 0 && u[auth:auth+at] != Mask {
			dst = append(dst, span{off + auth, off + auth + at})
		}
	}
	frag := len(u)
	if j := strings.IndexByte(u[auth:], '#'); j >= 0 {
		frag = auth + j
		// A fragment is free-form; OAuth's implicit flow puts
		// access_token=... there, and hash routers put a whole query after a
		// path ("#/callback?code=...").
		dst = params(u, frag+1, len(u), "&?", off, dst)
	}
	if j := strings.IndexByte(u[auth:frag], '?'); j >= 0 {
		dst = params(u, auth+j+1, frag, "&", off, dst)
	}
	return dst
}

// params appends the spans of secret parameter values in u[start:end],
// whose parameters are separated by any byte of seps.
func params(u string, start, end int, seps string, off int, dst []span) []span {
	for start < end {
		stop := end
		if j := strings.IndexAny(u[start:end], seps); j >= 0 {
			stop = start + j
		}
		p := u[start:stop]
		if eq := strings.IndexByte(p, '='); eq >= 0 {
			name, value := p[:eq], p[eq+1:]
			if value != "" && value != Mask && (isSecretParam(unescape(name)) || encodedSecret(value)) {
				dst = append(dst, span{off + start + eq + 1, off + stop})
			}
		}
		start = stop + 1
	}
	return dst
}

// encodedSecret reports whether a parameter value, once percent-decoded,
// holds something the patterns would mask, such as a nested URL with a code
// in it. The whole value is masked then, since masking only the secret
// inside it would mean decoding and re-encoding the value.
func encodedSecret(v string) bool {
	if !strings.ContainsAny(v, "%+") {
		return false
	}
	d := unescape(v)
	if d == v {
		return false
	}
	return mask(d, urlSpans(d, 0, textSpans(d, nil))) != d
}

// unescape percent-decodes a query component, or returns it unchanged when
// it is not validly encoded.
func unescape(s string) string {
	if d, err := url.QueryUnescape(s); err == nil {
		return d
	}
	return s
}

// scheme reports whether s is a URL scheme: a letter, then letters, digits,
// + - or . (RFC 3986 section 3.1).
func scheme(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && (i == 0 || !isDigit(c) && strings.IndexByte("+-.", c) < 0) {
			return false
		}
	}
	return s != ""
}
