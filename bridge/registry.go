package bridge

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"sync"

	"github.com/openchrome/openchrome/protocol"
)

// Registry holds the connected browsers. The broker adds the browsers native
// hosts relay; the engine picks from it, and a background task waits on it
// for a browser that went away ([Registry.Wait]).
type Registry struct {
	log       *slog.Logger
	onEvent   func(browser string, ev *protocol.Event)
	onConnect func(l *Link)

	mu    sync.Mutex // guards the fields below
	seq   int
	links []*Link // in the order they connected; the first is the default
	// added is closed, and replaced, whenever a browser is added: Wait
	// blocks on it.
	added chan struct{}

	// parked, when set (by tests), runs each time Wait starts to wait.
	parked func()
}

// RegistryOptions configure a Registry. Every field may be left out.
type RegistryOptions struct {
	Logger *slog.Logger
	// OnEvent receives what the extensions report (a human pressed Finish,
	// ...), with the browser's id. It runs on the browser's read loop: it
	// must not wait for a command of that browser.
	OnEvent func(browser string, ev *protocol.Event)
	// OnConnect runs when a browser has been added and can take commands
	// and frames, e.g. to send it the side panel's state.
	OnConnect func(l *Link)
}

// NewRegistry returns an empty registry.
func NewRegistry(opts RegistryOptions) *Registry {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Registry{log: log, onEvent: opts.OnEvent, onConnect: opts.OnConnect, added: make(chan struct{})}
}

// Add registers a browser that said hello and sends its commands with send.
// The caller feeds the link what the browser sends ([Link.Deliver]) and calls
// Remove when the browser goes.
func (r *Registry) Add(hello *protocol.Hello, send func(protocol.Frame) error) *Link {
	r.mu.Lock()
	l := r.addLocked(hello, send)
	r.mu.Unlock()
	if r.onConnect != nil {
		go r.onConnect(l) // not under mu: it may well look at the registry
	}
	return l
}

// addLocked is Add's work under r.mu.
func (r *Registry) addLocked(hello *protocol.Hello, send func(protocol.Frame) error) *Link {
	r.seq++
	id := "b" + strconv.Itoa(r.seq)
	var onEvent func(*protocol.Event)
	if r.onEvent != nil {
		onEvent = func(ev *protocol.Event) { r.onEvent(id, ev) }
	}
	l := NewLink(protocol.BrowserInfo{
		ID:               id,
		Profile:          hello.Profile,
		Browser:          hello.Browser,
		ExtensionVersion: hello.Version,
	}, send, onEvent)
	r.links = append(r.links, l)
	close(r.added)
	r.added = make(chan struct{})
	r.log.Info("browser connected", "browser", id, "name", hello.Browser, "extension", hello.Version)
	return l
}

// Broadcast sends f to every connected browser, best effort: a browser that
// cannot take it is going away, and its link says so to whoever waits on it.
func (r *Registry) Broadcast(f protocol.Frame) {
	r.mu.Lock()
	links := slices.Clone(r.links)
	r.mu.Unlock()
	for _, l := range links {
		if err := l.Send(f); err != nil {
			r.log.Debug("broadcast", "browser", l.info.ID, "err", err)
		}
	}
}

// Remove closes l and forgets it.
func (r *Registry) Remove(l *Link) {
	l.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.removeLocked(l)
}

// removeLocked forgets l. r.mu must be held.
func (r *Registry) removeLocked(l *Link) {
	for i, b := range r.links {
		if b == l {
			r.links = append(r.links[:i], r.links[i+1:]...)
			r.log.Info("browser disconnected", "browser", l.info.ID)
			return
		}
	}
}

// Browser returns the browser with id, or the first connected one when id is
// empty. A link that has closed (its transport broke) and is on its way out
// is not connected.
func (r *Registry) Browser(id string) (*Link, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.firstLocked(id); l != nil {
		return l, nil
	}
	if id != "" && len(r.links) > 0 {
		return nil, protocol.Errorf(protocol.CodeNotFound, "no browser %q is connected", id).
			WithHint("call oc_connection_health for the connected browsers")
	}
	return nil, errNoBrowser
}

// Wait returns the first connected browser, waiting for one to connect
// when none is. A background task whose browser went away (its service
// worker was stopped, the extension reloaded) waits here for the extension
// to come back. When ctx ends first, Wait returns browser_not_connected
// with ctx's error as its cause.
func (r *Registry) Wait(ctx context.Context) (*Link, error) {
	for {
		r.mu.Lock()
		if l := r.firstLocked(""); l != nil {
			r.mu.Unlock()
			return l, nil
		}
		added := r.added
		r.mu.Unlock()
		if r.parked != nil {
			r.parked()
		}
		select {
		case <-added:
		case <-ctx.Done():
			return nil, errNoBrowser.WithCause(ctx.Err())
		}
	}
}

// firstLocked returns the first open link with id (any, when empty), or
// nil. r.mu must be held.
func (r *Registry) firstLocked(id string) *Link {
	for _, l := range r.links {
		if (id == "" || l.info.ID == id) && !l.closed() {
			return l
		}
	}
	return nil
}

// errNoBrowser says no browser is linked to the daemon. The extension
// reconnects by itself within seconds when its service worker was stopped,
// so retrying is the first thing to try.
var errNoBrowser = protocol.Errorf(protocol.CodeBrowserNotConnected, "no browser is connected to the daemon").
	WithHint("retry in a few seconds: the extension reconnects by itself; if Chrome is closed, open it (or run: openchrome launch); run: openchrome doctor")

// List describes the connected browsers.
func (r *Registry) List() []protocol.BrowserInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]protocol.BrowserInfo, 0, len(r.links))
	for _, l := range r.links {
		out = append(out, l.info)
	}
	return out
}
