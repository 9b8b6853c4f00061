// Package daemon runs openchrome's two processes behind the browser.
//
// The daemon ([Serve], `openchrome serve`) owns the broker of one
// OPENCHROME_HOME: bridge.lock, bridge.json, the engine, the tasks and the
// handoffs. It runs detached, in its own session, and exits on its own only
// when it has had nothing to do for a while.
//
// The native host ([Run]) is what Chrome starts when the extension connects.
// It relays its port to the daemon, starting one when none runs. Chrome
// kills it whenever the extension's service worker stops (an update, a
// reload, a crash, memory pressure); the daemon, its tasks and its agents
// carry on, and the extension, once it has woken, connects a new native host
// that joins them. A second Chrome profile's native host joins the same
// daemon as another browser.
package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/native"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Timings of the native host.
const (
	// retryWait spaces attempts to join the daemon while one starts.
	retryWait = 50 * time.Millisecond
	// startFirst and startMax space attempts to start a daemon, doubling
	// from one to the other: a daemon that is starting (reaping a large
	// ledger) is given time, one leaving (its lock still held) is soon
	// replaced, and a binary that cannot start is not spawned in a loop.
	startFirst = 200 * time.Millisecond
	startMax   = 5 * time.Second
	// maxHeld bounds the frames kept from the extension while no daemon is
	// joined; they are passed on once one is (a person's Finish must not
	// be lost to a daemon restarting).
	maxHeld = 64
)

// Options configure the native host.
type Options struct {
	Home   ledger.Home
	Stdin  io.Reader // Chrome's pipe to us
	Stdout io.Writer // ours to Chrome: native frames only, never logs
	Logger *slog.Logger
	// Start starts a daemon for Home and returns without waiting for it to
	// be ready: [Spawn] in openchrome, a [Serve] in a goroutine in tests.
	// A daemon that finds another running exits at once, so calling it
	// once too often is harmless.
	Start func(ctx context.Context) error
}

// Run is the native host: it relays the extension on Stdin/Stdout to the
// daemon until Chrome closes the port (EOF) or ctx ends, starting the
// daemon when none runs and joining the next when it goes. Chrome SIGKILLs
// the host 2 s after the port closes, so on EOF Run returns at once; the
// work is the daemon's.
func Run(ctx context.Context, opts Options) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Start == nil {
		panic("daemon: Run without Start")
	}
	if err := opts.Home.Ensure(); err != nil {
		return err
	}
	port := native.NewPort(opts.Stdin, opts.Stdout, log)
	hello, frames, err := port.Frames(ctx)
	if err != nil {
		return err
	}
	log.Info("extension connected", "browser", hello.Browser, "extension", hello.Version, "pid", os.Getpid())
	h := &host{home: opts.Home, log: log, port: port, hello: hello, frames: frames, start: opts.Start}
	var held []protocol.Frame
	for {
		r := h.join(ctx, &held)
		if r == nil {
			return nil // the extension went
		}
		if !h.relay(ctx, r, held) {
			return nil
		}
		held = nil
	}
}

// host is one native host: one extension's port.
type host struct {
	home   ledger.Home
	log    *slog.Logger
	port   *native.Port
	hello  *protocol.Hello
	frames <-chan protocol.Frame // from the extension; closed at EOF
	start  func(ctx context.Context) error
}

// join connects to the daemon bridge.json names, starting one when none
// answers, and returns the connection; nil when the extension went first.
// What the extension sends meanwhile is kept in held, up to maxHeld frames.
func (h *host) join(ctx context.Context, held *[]protocol.Frame) *bridge.Relay {
	var started time.Time
	every := startFirst
	for {
		disc, err := bridge.ReadDiscovery(h.home.BridgeFile())
		if err == nil && ledger.ProcessAlive(disc.PID) {
			r, err := bridge.DialRelay(ctx, disc, *h.hello)
			if err == nil {
				h.log.Info("joined the daemon", "daemon", disc.PID, "port", disc.Port)
				return r
			}
			h.log.Debug("cannot join the daemon yet", "daemon", disc.PID, "err", err)
		}
		if started.IsZero() || time.Since(started) >= every {
			if !started.IsZero() {
				every = min(2*every, startMax)
			}
			started = time.Now()
			h.log.Info("starting the daemon")
			if err := h.start(ctx); err != nil {
				h.log.Error("cannot start the daemon", "err", err)
			}
		}
		if !h.hold(ctx, held) {
			return nil
		}
	}
}

// hold keeps what the extension sends for retryWait; it reports false when
// the extension went (or ctx ended).
func (h *host) hold(ctx context.Context, held *[]protocol.Frame) bool {
	t := time.NewTimer(retryWait)
	defer t.Stop()
	for {
		select {
		case f, ok := <-h.frames:
			if !ok {
				return false
			}
			if len(*held) < maxHeld {
				*held = append(*held, f)
			}
		case <-t.C:
			return true
		case <-ctx.Done():
			return false
		}
	}
}

// relay passes frames both ways between the extension and the daemon, the
// held ones first, until one of them goes. It reports whether to join again:
// true when the daemon went, false when the extension did.
func (h *host) relay(ctx context.Context, r *bridge.Relay, held []protocol.Frame) (again bool) {
	lost := make(chan struct{})
	go func() {
		defer close(lost)
		for {
			f, err := r.Recv()
			if err != nil {
				return
			}
			if err := h.port.Send(f); err != nil {
				h.log.Warn("relay: frame to the extension", "err", err)
			}
		}
	}()
	defer func() {
		_ = r.Close() // the daemon sees the browser go at once
		<-lost
	}()
	for _, f := range held {
		if err := r.Send(f); err != nil {
			return true
		}
	}
	for {
		select {
		case f, ok := <-h.frames:
			if !ok {
				return false
			}
			if err := r.Send(f); err != nil {
				h.log.Info("the daemon went away; joining the next", "err", err)
				return true
			}
		case <-lost:
			h.log.Info("the daemon went away; joining the next")
			return true
		case <-ctx.Done():
			return false
		}
	}
}
