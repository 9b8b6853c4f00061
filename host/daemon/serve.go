package daemon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/extension"
	"github.com/openchrome/openchrome/host/audit"
	"github.com/openchrome/openchrome/host/engine"
	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// DefaultIdleExit is how long the daemon stays up with nothing to do — no
// browser linked, no agent connected, no call, task or handoff going —
// before it exits. Long enough that a browser restarting, or an agent
// between two sessions, finds it still there; short enough that closing
// Chrome and the MCP clients leaves no process behind for long.
const DefaultIdleExit = 10 * time.Minute

// ErrRunning says another daemon already serves the home: the lock is
// taken. Starting one is then a no-op.
var ErrRunning = errors.New("daemon: another daemon serves this home")

// closeWait bounds how long the daemon's tasks get to record how they ended
// when it stops.
const closeWait = 5 * time.Second

// ServeOptions configure the daemon.
type ServeOptions struct {
	Home   ledger.Home
	Logger *slog.Logger
	// Redactor is shared by the engine and Logger's redact handler.
	Redactor *redact.Redactor
	// Hooks are the engine's fault injections, for tests only.
	Hooks engine.Hooks
	// IdleExit is how long the daemon stays up with nothing to do; 0 means
	// DefaultIdleExit.
	IdleExit time.Duration
	// BrowserWait bounds how long a background task waits for a browser
	// that went away; 0 means engine.DefaultBrowserWait.
	BrowserWait time.Duration
}

// Serve is the daemon: it owns the broker of opts.Home (bridge.lock,
// bridge.json), the engine, the tasks and the handoffs, and serves agents
// and the browsers native hosts relay to it, until ctx ends or it has been
// idle for opts.IdleExit. It returns ErrRunning at once when another daemon
// serves the home.
func Serve(ctx context.Context, opts ServeOptions) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := opts.Home.Ensure(); err != nil {
		return err
	}
	lock, err := ledger.TryLock(opts.Home.BridgeLock())
	switch {
	case errors.Is(err, ledger.ErrLocked):
		return ErrRunning
	case err != nil:
		return err
	}
	defer lock.Unlock()

	// Tasks a dead daemon left RUNNING are failed before any new one starts.
	// Every record is written with the secret parts of its URLs masked.
	tasks, err := ledger.Open(opts.Home.Tasks(), ledger.TaskLifecycle(), ledger.Options{Scrub: redact.File})
	if err != nil {
		return err
	}
	// Envelopes are the agents' work, not the daemon's: they outlive it,
	// counts and all.
	if n, err := task.Adopt(ctx, tasks); err != nil {
		log.Error("adopting envelopes", "err", err)
	} else if n > 0 {
		log.Info("adopted envelopes", "count", n)
	}
	if reaped, err := tasks.ReapOrphans(ctx); err != nil {
		log.Error("reaping orphaned tasks", "err", err)
	} else if len(reaped) > 0 {
		log.Info("reaped orphaned tasks", "count", len(reaped))
	}
	// A handoff whose deadline passed while no daemon ran has timed out;
	// the engine adopts the rest (the person may still be at it).
	handoffs, err := ledger.Open(opts.Home.Handoffs(), ledger.HandoffLifecycle(), ledger.Options{Scrub: redact.File})
	if err != nil {
		return err
	}
	if n, err := handoff.Expire(ctx, handoffs, time.Now()); err != nil {
		log.Error("timing out handoffs", "err", err)
	} else if n > 0 {
		log.Info("timed out handoffs", "count", n)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("daemon: listen: %w", err)
	}
	// The registry tells the engine of browsers and of what people do in
	// them; eng is set before any browser can connect.
	var eng *engine.Engine
	reg := bridge.NewRegistry(bridge.RegistryOptions{
		Logger:    log,
		OnEvent:   func(browser string, ev *protocol.Event) { eng.BrowserEvent(browser, ev) },
		OnConnect: func(l *bridge.Link) { eng.BrowserConnected(l) },
	})
	auditLog, err := audit.Open(opts.Home.AuditFile(), 0)
	if err != nil {
		return err
	}
	defer auditLog.Close()
	build, err := extension.Version()
	if err != nil {
		log.Warn("no extension build to compare with", "err", err)
	}
	eng = engine.New(engine.Options{Browsers: reg, Logger: log, Home: opts.Home, Tasks: tasks, Handoffs: handoffs,
		Hooks: opts.Hooks, Redactor: opts.Redactor, BrowserWait: opts.BrowserWait, Audit: auditLog, Extension: build})
	defer func() {
		closing, done := context.WithTimeout(context.WithoutCancel(ctx), closeWait)
		defer done()
		eng.Close(closing)
	}()
	token := bridge.NewToken()
	srv := bridge.NewServer(bridge.Options{Token: token, Handler: eng, Browsers: reg, Logger: log})

	serving, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(serving, ln) }()
	disc := bridge.Discovery{
		Port:      ln.Addr().(*net.TCPAddr).Port,
		Token:     token,
		PID:       os.Getpid(),
		Version:   protocol.Version,
		StartedAt: time.Now().UTC(),
	}
	// bridge.json is written only once the listener is up, so whoever reads
	// it can connect.
	if err := bridge.WriteDiscovery(opts.Home.BridgeFile(), disc); err != nil {
		stop()
		<-served
		return err
	}
	idle := &idleTimer{after: cmp.Or(opts.IdleExit, DefaultIdleExit)}
	log.Info("daemon listening", "port", disc.Port, "idleExit", idle.after.String())

	err = func() error {
		tick := time.NewTicker(idle.poll())
		defer tick.Stop()
		idle.expired(time.Now(), true)
		for {
			select {
			case err := <-served:
				served <- err // for the shutdown below
				return fmt.Errorf("daemon: broker: %w", err)
			case <-ctx.Done():
				log.Info("daemon stopping", "why", context.Cause(ctx))
				return nil
			case now := <-tick.C:
				busy := len(reg.List()) > 0 || srv.Agents() > 0 || eng.Busy()
				if idle.expired(now, busy) {
					log.Info("daemon idle: exiting", "after", idle.after.String())
					return nil
				}
			}
		}
	}()
	// bridge.json goes first, so that no native host or agent dials a
	// daemon on its way out: they start or wait for the next one.
	_ = bridge.RemoveDiscovery(opts.Home.BridgeFile(), disc.PID)
	stop()
	<-served
	log.Info("broker stopped")
	return err
}

// idleTimer tells when the daemon has had nothing to do for long enough.
type idleTimer struct {
	after time.Duration
	since time.Time // when it was last seen busy
}

// expired records whether the daemon is busy at now and reports whether it
// has been idle for after.
func (t *idleTimer) expired(now time.Time, busy bool) bool {
	if busy || t.since.IsZero() {
		t.since = now
		return false
	}
	return now.Sub(t.since) >= t.after
}

// poll is how often the daemon looks whether it is busy: a few times per
// idle period, at least once a second.
func (t *idleTimer) poll() time.Duration {
	return max(min(t.after/4, time.Second), 5*time.Millisecond)
}
