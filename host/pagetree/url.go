package pagetree

import (
	"net/url"
	"strings"
)

// RelativeURL writes target as short as it stays unambiguous from base: a
// fragment or query of the same page, the shorter of a relative and a
// root-relative path on the same origin, else the whole URL.
func RelativeURL(base *url.URL, target string) string {
	if base == nil {
		return target
	}
	u, err := base.Parse(target)
	if err != nil || u.Scheme != base.Scheme || u.Host != base.Host || u.User != nil {
		return target
	}
	if u.Path == base.Path && u.RawQuery == base.RawQuery && u.Fragment != "" {
		return "#" + u.EscapedFragment()
	}
	rel := relativePath(base.EscapedPath(), u.EscapedPath())
	if root := u.EscapedPath(); strings.HasPrefix(root, "/") && len(root) < len(rel) {
		rel = root
	}
	if u.RawQuery != "" {
		rel += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		rel += "#" + u.EscapedFragment()
	}
	return rel
}

// SamePage reports whether target is base's own page (its path and query),
// wherever on it a fragment points.
func SamePage(base *url.URL, target string) bool {
	if base == nil {
		return false
	}
	u, err := base.Parse(target)
	return err == nil && u.Scheme == base.Scheme && u.Host == base.Host && u.User == nil &&
		u.Path == base.Path && u.RawQuery == base.RawQuery
}

// relativePath returns the relative reference from the page at from to the
// path to, both escaped absolute paths.
func relativePath(from, to string) string {
	dir := split(from[:strings.LastIndex(from, "/")+1])
	parts := split(to)
	file := ""
	if !strings.HasSuffix(to, "/") && len(parts) > 0 {
		file, parts = parts[len(parts)-1], parts[:len(parts)-1]
	}
	i := 0
	for i < len(dir) && i < len(parts) && dir[i] == parts[i] {
		i++
	}
	rel := strings.Repeat("../", len(dir)-i)
	for _, p := range parts[i:] {
		rel += p + "/"
	}
	rel += file
	if rel == "" {
		return "./"
	}
	return rel
}

func split(p string) []string {
	var out []string
	for s := range strings.SplitSeq(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
