// Package native is the daemon's end of Chrome native messaging: the frames
// the extension writes to our stdin and reads from our stdout.
package native

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// helloWait bounds how long the extension may take to say hello after Chrome
// starts us; it sends it as its first message.
const helloWait = 10 * time.Second

// Port reads and writes native-messaging frames.
type Port struct {
	r   *protocol.Reader
	w   *protocol.Writer
	log *slog.Logger
}

// NewPort returns a port on r (Chrome's pipe to us) and w (ours to Chrome).
func NewPort(r io.Reader, w io.Writer, log *slog.Logger) *Port {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Port{
		r:   protocol.NewReader(r, protocol.MaxFromBrowser),
		w:   protocol.NewWriter(w, protocol.MaxToBrowser),
		log: log,
	}
}

// Send writes one frame to the extension. A frame over Chrome's 1 MiB limit is
// refused whole with too_large. Send is safe for concurrent use.
func (p *Port) Send(f protocol.Frame) error { return p.w.WriteFrame(f) }

// Recv returns the next frame from the extension. It skips, and logs, frames
// it cannot decode; it returns io.EOF when Chrome closes the port.
func (p *Port) Recv() (protocol.Frame, error) {
	for {
		b, err := p.r.Read()
		if errors.Is(err, protocol.ErrTooLarge) || errors.Is(err, protocol.ErrBadRequest) {
			p.log.Warn("dropped a frame from the extension", "err", err)
			continue
		}
		if err != nil {
			return nil, err
		}
		f, err := protocol.DecodeBrowserFrame(b)
		if err != nil {
			p.log.Warn("dropped a frame from the extension", "err", err)
			continue
		}
		return f, nil
	}
}

// Frames reads the port until it closes, sending each frame on the returned
// channel; the channel closes at EOF. The first frame must be the extension's
// hello, which is returned apart.
func (p *Port) Frames(ctx context.Context) (*protocol.Hello, <-chan protocol.Frame, error) {
	type first struct {
		f   protocol.Frame
		err error
	}
	got := make(chan first, 1)
	go func() {
		f, err := p.Recv()
		got <- first{f, err}
	}()
	var f first
	select {
	case f = <-got:
	case <-time.After(helloWait):
		return nil, nil, fmt.Errorf("native: the extension sent no hello within %s", helloWait)
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	if f.err != nil {
		return nil, nil, fmt.Errorf("native: waiting for hello: %w", f.err)
	}
	hello, ok := f.f.(*protocol.Hello)
	if !ok || hello.Role != protocol.RoleExtension {
		return nil, nil, fmt.Errorf("native: the extension's first frame is not its hello")
	}
	frames := make(chan protocol.Frame, 16)
	go func() {
		defer close(frames)
		for {
			f, err := p.Recv()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					p.log.Warn("native port closed", "err", err)
				}
				return
			}
			frames <- f
		}
	}()
	return hello, frames, nil
}
