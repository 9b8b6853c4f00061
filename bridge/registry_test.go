package bridge

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func discard(protocol.Frame) error { return nil }

func TestRegistryWait(t *testing.T) {
	hello := &protocol.Hello{Role: protocol.RoleExtension, Version: protocol.Version, Browser: "Chromium/156"}
	tests := []struct {
		name string
		// run gets the registry, a wait already waiting, the channel its
		// every new start of waiting sends on, and its context's cancel; it
		// returns what the wait must return.
		run  func(t *testing.T, r *Registry, waited <-chan waitResult, parked <-chan struct{}, cancel context.CancelFunc) (*Link, error)
		want func(t *testing.T, got waitResult, link *Link, err error)
	}{
		{
			name: "a browser that connects ends the wait",
			run: func(t *testing.T, r *Registry, waited <-chan waitResult, _ <-chan struct{}, _ context.CancelFunc) (*Link, error) {
				assertBlocked(t, waited)
				return r.Add(hello, discard), nil
			},
			want: func(t *testing.T, got waitResult, link *Link, _ error) {
				require.NoError(t, got.err)
				assert.Same(t, link, got.link)
			},
		},
		{
			name: "a browser that connects and goes again before the waiter looks leaves it waiting",
			run: func(t *testing.T, r *Registry, waited <-chan waitResult, parked <-chan struct{}, _ context.CancelFunc) (*Link, error) {
				// Both before the waiter, woken by the first, can look.
				r.mu.Lock()
				l := r.addLocked(hello, discard)
				l.Close()
				r.removeLocked(l)
				r.mu.Unlock()
				<-parked // it looked, found none, and waits again
				assertBlocked(t, waited)
				return r.Add(hello, discard), nil
			},
			want: func(t *testing.T, got waitResult, link *Link, _ error) {
				require.NoError(t, got.err)
				assert.Same(t, link, got.link)
			},
		},
		{
			name: "the end of the context is browser_not_connected",
			run: func(t *testing.T, _ *Registry, waited <-chan waitResult, _ <-chan struct{}, cancel context.CancelFunc) (*Link, error) {
				assertBlocked(t, waited)
				cancel()
				return nil, context.Canceled
			},
			want: func(t *testing.T, got waitResult, _ *Link, cause error) {
				assert.ErrorIs(t, got.err, protocol.ErrBrowserNotConnected)
				assert.ErrorIs(t, got.err, cause, "the cause is kept")
				assert.Contains(t, protocol.AsError(got.err).Hint, "retry")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRegistry(RegistryOptions{})
			parked := make(chan struct{}, 4)
			r.parked = func() { parked <- struct{}{} }
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			waited := make(chan waitResult, 1)
			go func() {
				l, err := r.Wait(ctx)
				waited <- waitResult{l, err}
			}()
			<-parked // waiting, with no browser
			link, err := tt.run(t, r, waited, parked, cancel)
			select {
			case got := <-waited:
				tt.want(t, got, link, err)
			case <-time.After(5 * time.Second):
				t.Fatal("Wait did not return")
			}
		})
	}
}

func TestRegistryWaitReturnsAtOnceWhenABrowserIsConnected(t *testing.T) {
	r := NewRegistry(RegistryOptions{})
	first := r.Add(&protocol.Hello{Browser: "first"}, discard)
	r.Add(&protocol.Hello{Browser: "second"}, discard)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no waiting at all
	l, err := r.Wait(ctx)
	require.NoError(t, err)
	assert.Same(t, first, l, "the default browser, as Browser(\"\") picks")
}

type waitResult struct {
	link *Link
	err  error
}

// assertBlocked checks the wait has not returned.
func assertBlocked(t *testing.T, waited <-chan waitResult) {
	t.Helper()
	select {
	case got := <-waited:
		t.Fatalf("Wait returned early: %v, %v", got.link, got.err)
	default:
	}
}

func TestALinkWhoseTransportBrokeIsGoneAtOnce(t *testing.T) {
	r := NewRegistry(RegistryOptions{})
	broken := r.Add(&protocol.Hello{Browser: "dying"}, func(protocol.Frame) error { return io.ErrClosedPipe })
	// Its read loop has not noticed yet: it is still listed.
	_, err := broken.Do(context.Background(), protocol.Command{Action: "tab.list"})
	require.ErrorIs(t, err, protocol.ErrBrowserNotConnected)
	assert.ErrorIs(t, err, io.ErrClosedPipe, "the cause is kept")

	_, err = r.Browser("")
	assert.ErrorIs(t, err, protocol.ErrBrowserNotConnected, "a broken link is not picked")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = r.Wait(ctx)
	assert.ErrorIs(t, err, protocol.ErrBrowserNotConnected, "nor waited for")

	next := r.Add(&protocol.Hello{Browser: "next"}, discard)
	l, err := r.Wait(context.Background())
	require.NoError(t, err)
	assert.Same(t, next, l)
}
