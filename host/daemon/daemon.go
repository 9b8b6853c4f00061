// Package daemon is openchrome's native mode: the process Chrome starts when
// the extension connects. It owns the broker for its OPENCHROME_HOME, or, when
// another daemon (another Chrome profile) already does, relays its extension
// to that broker; if the owner goes, the relay takes over.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/engine"
	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/host/native"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// retryWait spaces attempts to become the broker or join it while another
// daemon is starting or dying.
const retryWait = 100 * time.Millisecond

// Options configure the daemon.
type Options struct {
	Home   ledger.Home
	Stdin  io.Reader // Chrome's pipe to us
	Stdout io.Writer // ours to Chrome: native frames only, never logs
	Logger *slog.Logger
	// Redactor is shared by the engine and Logger's redact handler.
	Redactor *redact.Redactor
	// Hooks are the engine's fault injections, for tests only.
	Hooks engine.Hooks
}

// Run serves the extension on Stdin/Stdout until Chrome closes the port (EOF)
// or ctx ends. Chrome SIGKILLs the host 2 s after the port closes, so on EOF
// Run stops taking work at once and returns quickly.
func Run(ctx context.Context, opts Options) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
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

	d := &daemon{home: opts.Home, log: log, port: port, hello: hello, frames: frames, hooks: opts.Hooks, red: opts.Redactor}
	for {
		lock, err := ledger.TryLock(opts.Home.BridgeLock())
		switch {
		case err == nil:
			return d.broker(ctx, lock)
		case !errors.Is(err, ledger.ErrLocked):
			return err
		}
		done, err := d.relay(ctx)
		if done || ctx.Err() != nil {
			return err
		}
		if err != nil {
			log.Info("cannot join the broker yet", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(retryWait):
		}
	}
}

type daemon struct {
	home   ledger.Home
	hooks  engine.Hooks
	red    *redact.Redactor
	log    *slog.Logger
	port   *native.Port
	hello  *protocol.Hello
	frames <-chan protocol.Frame // from the extension; closed at EOF
}

// broker runs the broker for this home, with this daemon's extension as its
// first browser, until the extension goes.
func (d *daemon) broker(ctx context.Context, lock *ledger.Lock) error {
	defer lock.Unlock()
	// Tasks a dead daemon left RUNNING are failed before any new one starts.
	tasks, err := ledger.Open(d.home.Tasks(), ledger.TaskLifecycle(), ledger.Options{})
	if err != nil {
		return err
	}
	// Envelopes are the agents' work, not the daemon's: they outlive it,
	// counts and all.
	if n, err := task.Adopt(ctx, tasks); err != nil {
		d.log.Error("adopting envelopes", "err", err)
	} else if n > 0 {
		d.log.Info("adopted envelopes", "count", n)
	}
	if reaped, err := tasks.ReapOrphans(ctx); err != nil {
		d.log.Error("reaping orphaned tasks", "err", err)
	} else if len(reaped) > 0 {
		d.log.Info("reaped orphaned tasks", "count", len(reaped))
	}
	// A handoff whose deadline passed while no daemon ran has timed out;
	// the engine adopts the rest (the person may still be at it).
	handoffs, err := ledger.Open(d.home.Handoffs(), ledger.HandoffLifecycle(), ledger.Options{})
	if err != nil {
		return err
	}
	if n, err := handoff.Expire(ctx, handoffs, time.Now()); err != nil {
		d.log.Error("timing out handoffs", "err", err)
	} else if n > 0 {
		d.log.Info("timed out handoffs", "count", n)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("daemon: listen: %w", err)
	}
	// The registry tells the engine of browsers and of what people do in
	// them; eng is set before any browser can connect.
	var eng *engine.Engine
	reg := bridge.NewRegistry(bridge.RegistryOptions{
		Logger:    d.log,
		OnEvent:   func(browser string, ev *protocol.Event) { eng.BrowserEvent(browser, ev) },
		OnConnect: func(l *bridge.Link) { eng.BrowserConnected(l) },
	})
	eng = engine.New(engine.Options{Browsers: reg, Logger: d.log, Home: d.home, Tasks: tasks, Handoffs: handoffs,
		Hooks: d.hooks, Redactor: d.red})
	defer func() {
		// Chrome kills us 2 s after the port closes: tasks get one to
		// record how they ended.
		closing, done := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer done()
		eng.Close(closing)
	}()
	token := bridge.NewToken()
	srv := bridge.NewServer(bridge.Options{
		Token:    token,
		Handler:  eng,
		Browsers: reg,
		Logger:   d.log,
	})
	link := reg.Add(d.hello, d.port.Send)

	ctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	disc := bridge.Discovery{
		Port:      ln.Addr().(*net.TCPAddr).Port,
		Token:     token,
		PID:       os.Getpid(),
		Version:   protocol.Version,
		StartedAt: time.Now().UTC(),
	}
	// bridge.json is written only once the listener is up, so whoever reads
	// it can connect.
	if err := bridge.WriteDiscovery(d.home.BridgeFile(), disc); err != nil {
		stop()
		<-served
		return err
	}
	d.log.Info("broker listening", "port", disc.Port)

	defer func() {
		_ = bridge.RemoveDiscovery(d.home.BridgeFile(), disc.PID)
		reg.Remove(link)
		stop()
		<-served
		d.log.Info("broker stopped")
	}()
	for {
		select {
		case f, ok := <-d.frames:
			if !ok {
				return nil // Chrome closed the port
			}
			link.Deliver(f)
		case err := <-served:
			return fmt.Errorf("daemon: broker: %w", err)
		case <-ctx.Done():
			return nil
		}
	}
}

// relay joins the broker another daemon owns and passes frames both ways
// until the extension goes (done) or the broker does (not done: try again).
func (d *daemon) relay(ctx context.Context) (done bool, err error) {
	disc, err := bridge.ReadDiscovery(d.home.BridgeFile())
	if err != nil {
		return false, err
	}
	r, err := bridge.DialRelay(ctx, disc, *d.hello)
	if err != nil {
		return false, err
	}
	defer r.Close()
	d.log.Info("joined the broker as a relay", "broker", disc.PID)

	lost := make(chan struct{})
	go func() {
		defer close(lost)
		for {
			f, err := r.Recv()
			if err != nil {
				return
			}
			if err := d.port.Send(f); err != nil {
				d.log.Warn("relay: frame to the extension", "err", err)
			}
		}
	}()
	for {
		select {
		case f, ok := <-d.frames:
			if !ok {
				return true, nil
			}
			if err := r.Send(f); err != nil {
				return false, err
			}
		case <-lost:
			d.log.Info("the broker went away; taking over or joining the next")
			return false, nil
		case <-ctx.Done():
			return true, nil
		}
	}
}
