package redact

// Headers returns a redacted copy of HTTP headers (a network request's or
// response's, as Chrome reports them): the value of Authorization,
// Proxy-Authorization, Cookie, Set-Cookie, X-API-Key and any other header
// whose name names a secret (X-Auth-Token, X-CSRF-Token, ...) is [Mask];
// Location, Referer and any other URL-valued header goes through [URL]; the
// rest through [Text].
func Headers(h map[string]string) map[string]string { return (*Redactor)(nil).Headers(h) }

// Headers is [Headers] plus r's known secrets.
func (r *Redactor) Headers(h map[string]string) map[string]string {
	if h == nil {
		return nil
	}
	out := make(map[string]string, len(h))
	for name, v := range h {
		if isSecretKey(name) {
			out[name] = Mask
		} else {
			out[name] = r.value(v)
		}
	}
	return out
}
