package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/protocol"
)

func TestCaptchaOf(t *testing.T) {
	tests := []struct {
		src, want string // want "": no CAPTCHA
	}{
		{"https://www.google.com/recaptcha/api2/anchor?ar=1&k=6Le&size=normal", "reCAPTCHA"},
		{"https://www.google.com/recaptcha/api2/bframe?hl=en&k=6Le", "reCAPTCHA"},
		{"https://www.recaptcha.net/recaptcha/enterprise/anchor?k=x", "reCAPTCHA"},
		{"https://www.google.com/recaptcha/api2/anchor?k=6Le&size=invisible", ""},
		{"https://www.google.com/maps/embed?pb=1", ""},
		{"https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=checkbox&id=0", "hCaptcha"},
		{"https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=checkbox&size=invisible", ""},
		{"https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv/x", "Cloudflare Turnstile"},
		{"https://client-api.arkoselabs.com/fc/gc/?token=x", "Arkose"},
		{"https://geo.captcha-delivery.com/captcha/?initialCid=x", "DataDome"},
		{"https://notgoogle.com/recaptcha/api2/anchor", ""},
		{"https://hcaptcha.com.evil.example/x", ""},
		{"javascript:alert(1)", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, ok := captchaOf(tt.src)
		assert.Equal(t, tt.want, got, tt.src)
		assert.Equal(t, tt.want != "", ok, tt.src)
	}
}

func TestReadPageSaysACaptchaIsThePersonsToAnswer(t *testing.T) {
	frame := pagetree.Node{Role: "iframe", Name: "reCAPTCHA", Ref: 5, Href: "https://www.google.com/recaptcha/api2/anchor?k=6Le",
		Frame: &pagetree.FrameInfo{URL: "https://www.google.com/recaptcha/api2/anchor?k=6Le", CrossOrigin: true, Unreadable: true}}
	list := []browser.Tab{{TabID: 7, Active: true}}
	e, _ := newEngine(t, protocol.Version, tabs(list, func(cmd protocol.Command) (any, *protocol.Error) {
		return browser.Tree{URL: "https://shop.example/signup", Title: "Sign up", Tree: []pagetree.Node{
			{Role: "form", Kids: []pagetree.Node{{Role: "textbox", Name: "Email", Ref: 3}, frame, {Role: "button", Name: "Sign up", Ref: 6}}},
		}}, nil
	}))
	out := textOf(t, run(t, e, "read_page", `{}`))
	lines := strings.Split(out, "\n")
	require.GreaterOrEqual(t, len(lines), 2, out)
	assert.Contains(t, lines[1], "a reCAPTCHA CAPTCHA, iframe e5, asks a person")
	assert.Contains(t, lines[1], `oc_handoff_start with reason "captcha"`)
	assert.NotContains(t, textOf(t, run(t, e, "read_page", `{"ref":"e3"}`)), "CAPTCHA", "a read of one element says only it")
}
