package native

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// chrome is Chrome's end of the two pipes: what it writes the port reads
// as our stdin, what the port writes it reads as our stdout.
type chrome struct {
	toHost   *io.PipeWriter
	fromHost *protocol.Reader
}

func newPair(t *testing.T) (*Port, *chrome) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return NewPort(inR, outW, nil), &chrome{toHost: inW, fromHost: protocol.NewReader(outR, protocol.MaxToBrowser)}
}

// send writes one native-messaging frame: 4-byte little-endian length, JSON.
func (c *chrome) send(t *testing.T, payload string) {
	t.Helper()
	var hdr [4]byte
	binary.LittleEndian.PutUint32(hdr[:], uint32(len(payload)))
	_, err := c.toHost.Write(append(hdr[:], payload...))
	require.NoError(t, err)
}

const hello = `{"type":"hello","role":"extension","version":"0.1.0","browser":"Chromium/156","profile":"p1"}`

func TestFramesStartWithTheHelloAndEndAtEOF(t *testing.T) {
	p, c := newPair(t)
	go func() {
		c.send(t, hello)
		c.send(t, `{"type":"result","id":"k1","ok":true,"data":{"tabs":[]}}`)
		c.send(t, `{"not json`)                  // dropped, logged
		c.send(t, `{"type":"mystery","id":"x"}`) // dropped: no such frame
		c.send(t, `{"type":"event","name":"handoff.finish","data":{"handoffId":"h1"}}`)
		c.toHost.Close() // Chrome closed the port
	}()
	h, frames, err := p.Frames(context.Background())
	require.NoError(t, err)
	assert.Equal(t, &protocol.Hello{Role: protocol.RoleExtension, Version: "0.1.0", Browser: "Chromium/156", Profile: "p1"}, h)

	var got []protocol.Frame
	for f := range frames {
		got = append(got, f)
	}
	require.Len(t, got, 2, "the bad frames are skipped, the stream stays in step")
	r, ok := got[0].(*protocol.CommandResult)
	require.True(t, ok, "%T", got[0])
	assert.Equal(t, "k1", r.ID)
	assert.True(t, r.OK)
	ev, ok := got[1].(*protocol.Event)
	require.True(t, ok, "%T", got[1])
	assert.Equal(t, "handoff.finish", ev.Name)
}

func TestTheFirstFrameMustBeTheHello(t *testing.T) {
	p, c := newPair(t)
	go c.send(t, `{"type":"result","id":"k1","ok":true}`)
	_, _, err := p.Frames(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hello")
}

func TestAPortClosedBeforeItsHelloSaysSo(t *testing.T) {
	p, c := newPair(t)
	c.toHost.Close()
	_, _, err := p.Frames(context.Background())
	require.ErrorIs(t, err, io.EOF)
}

func TestWaitingForTheHelloEndsWithTheContext(t *testing.T) {
	p, _ := newPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := p.Frames(ctx)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestSendWritesOneFrameAndRefusesOneChromeWouldNot(t *testing.T) {
	p, c := newPair(t)
	got := make(chan []byte, 1)
	go func() {
		b, err := c.fromHost.Read()
		assert.NoError(t, err)
		got <- b
	}()
	require.NoError(t, p.Send(protocol.Cancel{ID: "k7"}))
	var f map[string]any
	require.NoError(t, json.Unmarshal(<-got, &f))
	assert.Equal(t, map[string]any{"type": "cancel", "id": "k7"}, f)

	// Over Chrome's 1 MiB limit: refused whole, nothing written.
	big := protocol.State{Data: json.RawMessage(`"` + strings.Repeat("x", protocol.MaxToBrowser) + `"`)}
	assert.ErrorIs(t, p.Send(big), protocol.ErrTooLarge)
	go func() {
		b, err := c.fromHost.Read()
		assert.NoError(t, err)
		got <- b
	}()
	require.NoError(t, p.Send(protocol.Cancel{ID: "k8"}))
	require.NoError(t, json.Unmarshal(<-got, &f))
	assert.Equal(t, "k8", f["id"], "the next frame is the next one sent: nothing of the big one went out")
}
