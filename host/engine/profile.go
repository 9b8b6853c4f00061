package engine

import (
	"context"
	"time"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// profileSecrets are the secrets of the site of the tab the call acted on:
// its cookies' values and its stored credentials, asked of the extension
// once a call, as a Redactor of their own (not the engine's, which keeps
// what was typed and must not be crowded out). nil when the person lets
// them show (revealProfileSecrets), or the call touched no tab.
func (c *call) profileSecrets(ctx context.Context) *redact.Redactor {
	if c.touched == 0 || c.engine.browsers == nil {
		return nil
	}
	if cfg, err := c.engine.config.get(); err == nil && cfg.RevealProfileSecrets {
		return nil
	}
	if c.profile != nil && c.profileTab == c.touched {
		return c.profile
	}
	ctx, done := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer done()
	s, err := browser.ProfileSecrets(c.touched).Run(ctx, c)
	if err != nil {
		// The tab is gone (the action closed it): nothing of it to read,
		// and its page no longer answers either.
		c.engine.log.Debug("profile secrets not read", "tab", c.touched, "err", err)
		return nil
	}
	if !c.located && s.URL != "" {
		c.touch(c.touched, s.URL)
	}
	c.keepSecrets(c.touched, s)
	return c.profile
}

// landed takes the tab a navigation ended in as the call's (its current
// tab, touched), and the site's secrets it read with the page as those to
// mask the call's result with: profile.secrets is then not asked.
func (c *call) landed(p browser.Page) {
	c.setCurrentTab(p.TabID)
	c.touch(p.TabID, p.URL)
	c.keepSecrets(p.TabID, p)
}

// keepSecrets takes the site's secrets a command brought with its answer
// (browser.WithSecrets) as those to mask the call's result with:
// profile.secrets is then not asked.
func (c *call) keepSecrets(tab int, answer browser.Carrier) {
	if values, ok := answer.Secrets(); ok {
		c.profile, c.profileTab = redactorOf(values), tab
	}
	// What the person typed into a secret field is masked as what the
	// agent typed is (learnSecret): the field is gone once the form is sent,
	// and the page that echoes it comes after.
	for _, v := range answer.Held() {
		c.engine.red.Add(v)
	}
}

// redactorOf masks values.
func redactorOf(values []string) *redact.Redactor {
	r := new(redact.Redactor)
	for _, v := range values {
		r.Add(v)
	}
	return r
}

// maskProfile masks the tab's site's secrets in a result from it:
// javascript_tool reading document.cookie, read_page showing a token a
// page prints, an error quoting one.
func (c *call) maskProfile(ctx context.Context, r *protocol.ToolResult) *protocol.ToolResult {
	if r == nil || (r.IsError && ctx.Err() != nil) {
		// Cancelled or stopped: the error is ours, and the person's Stop
		// let go of the tab, which is not to be asked anything more.
		return r
	}
	red := c.profileSecrets(ctx)
	if red == nil {
		return r
	}
	for i := range r.Content {
		if r.Content[i].Type == "text" {
			r.Content[i].Text = red.Known(r.Content[i].Text)
		}
	}
	if len(r.StructuredContent) > 0 {
		r.StructuredContent = []byte(red.Known(string(r.StructuredContent)))
	}
	return r
}

// files writes the call's files: redacted as every file is, and with the
// tab's site's secrets masked too (an evidence bundle's DOM).
func (c *call) files(ctx context.Context) ledger.Files {
	red := c.profileSecrets(ctx)
	if red == nil {
		return c.engine.files
	}
	return ledger.Files{Scrub: func(b []byte) []byte { return red.File(c.engine.red.File(b)) }}
}
