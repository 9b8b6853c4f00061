package engine

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/openchrome/openchrome/host/pagetree"
)

// captchaHosts are the hosts whose frames are a challenge a person answers,
// by the provider's name. A frame on a subdomain of one counts.
var captchaHosts = []struct{ host, provider string }{
	{"google.com", "reCAPTCHA"}, // only under /recaptcha/: see captchaOf
	{"recaptcha.net", "reCAPTCHA"},
	{"hcaptcha.com", "hCaptcha"},
	{"challenges.cloudflare.com", "Cloudflare Turnstile"},
	{"arkoselabs.com", "Arkose"},
	{"funcaptcha.com", "Arkose"},
	{"captcha-delivery.com", "DataDome"},
}

// captchaOf says which provider's challenge a frame at raw shows, if any. A
// reCAPTCHA or hCaptcha that says it is invisible (size=invisible) asks
// nothing of a person until it shows a challenge in a frame of its own.
func captchaOf(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	for _, c := range captchaHosts {
		if host != c.host && !strings.HasSuffix(host, "."+c.host) {
			continue
		}
		if c.provider == "reCAPTCHA" && !strings.HasPrefix(u.Path, "/recaptcha/") {
			return "", false
		}
		if strings.Contains(u.RawQuery+"&"+u.Fragment, "size=invisible") {
			return "", false
		}
		return c.provider, true
	}
	return "", false
}

// captchaShown finds the first CAPTCHA frame in nodes: its provider and ref.
func captchaShown(nodes []pagetree.Node) (provider string, ref int, ok bool) {
	for _, n := range nodes {
		if n.Role == "iframe" {
			src := n.Href
			if n.Frame != nil {
				src = n.Frame.URL
			}
			if p, found := captchaOf(src); found {
				return p, n.Ref, true
			}
		}
		if p, r, found := captchaShown(n.Kids); found {
			return p, r, true
		}
	}
	return "", 0, false
}

// captchaLine is what a read says of a CAPTCHA on the page: it is the
// person's to answer, and how to hand them the tab.
func captchaLine(provider string, ref int) string {
	return fmt.Sprintf(`(a %s CAPTCHA, iframe e%d, asks a person to prove they are human: it is theirs to answer. `+
		`Call oc_handoff_start with reason "captcha"; the tab is yours again when they press Finish)`, provider, ref)
}
