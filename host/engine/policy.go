package engine

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/openchrome/openchrome/host/policy"
	"github.com/openchrome/openchrome/protocol"
)

// configCache reads the person's config.json again only when it changed:
// an edit takes effect at the next call, and a call costs a stat.
type configCache struct {
	path string

	mu   sync.Mutex // guards the fields below
	mod  time.Time
	size int64
	seen bool
	cfg  policy.Config
	err  error
}

// changed reports whether the file differs from what get last read.
func (k *configCache) changed() bool {
	if k == nil || k.path == "" {
		return false
	}
	var mod time.Time
	var size int64 = -1
	if info, err := os.Stat(k.path); err == nil {
		mod, size = info.ModTime(), info.Size()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return !k.seen || !mod.Equal(k.mod) || size != k.size
}

// watchConfig sends the side panel's state again when the person edits
// config.json, so the extension applies the new rules at once.
func (e *Engine) watchConfig(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if e.config.changed() {
				e.config.get()
				e.sendState()
			}
		}
	}
}

// get returns the config as the file says now. A file that is not a valid
// config is an error for every call that needs it: the policy fails closed.
func (k *configCache) get() (policy.Config, error) {
	cfg, _, err := k.read()
	return cfg, err
}

// read is get, saying whether the file changed since the last read.
func (k *configCache) read() (policy.Config, bool, error) {
	if k == nil || k.path == "" {
		return policy.Defaults(), false, nil
	}
	var mod time.Time
	var size int64 = -1
	if info, err := os.Stat(k.path); err == nil {
		mod, size = info.ModTime(), info.Size()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	changed := k.seen && (!mod.Equal(k.mod) || size != k.size)
	if !k.seen || changed {
		k.cfg, k.err = policy.Load(k.path)
		k.mod, k.size, k.seen = mod, size, true
	}
	return k.cfg, changed, k.err
}

// rules are the person's policy as the extension gets it; a config that
// cannot be read allows nothing.
func (e *Engine) rules() policy.Rules {
	cfg, err := e.config.get()
	if err == nil {
		var p policy.Policy
		if p, err = cfg.Policy(); err == nil {
			return p.Rules()
		}
	}
	return policy.Rules{Error: protocol.AsError(err).Message}
}

// policy is the site policy for this call: the person's, narrowed by its
// client's --allowed-origins and --blocked-origins.
func (c *call) policy() (policy.Policy, error) {
	cfg, changed, err := c.engine.config.read()
	if changed {
		// The extension applies the rules too: it gets the new ones before
		// this call's first command, on the same link.
		c.engine.sendState()
	}
	if err != nil {
		return policy.Policy{}, err
	}
	p, err := cfg.Policy()
	if err != nil {
		return policy.Policy{}, err
	}
	return p.Narrow(c.bc.AllowedOrigins, c.bc.BlockedOrigins)
}

// checkURL says whether the call may take an agent tab to rawURL.
func (c *call) checkURL(rawURL string) error {
	p, err := c.policy()
	if err != nil {
		return err
	}
	return p.Check(rawURL)
}
