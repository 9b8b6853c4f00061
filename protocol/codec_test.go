package protocol

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodecVectors(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		wire    string // hex
	}{
		{"ping", `{"type":"ping"}`, "0f000000" + hex.EncodeToString([]byte(`{"type":"ping"}`))},
		{"empty object", `{}`, "02000000" + "7b7d"},
		{"utf-8", `{"t":"é"}`, "0a000000" + hex.EncodeToString([]byte(`{"t":"é"}`))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, NewWriter(&buf, MaxToBrowser).Write([]byte(tt.payload)))
			assert.Equal(t, tt.wire, hex.EncodeToString(buf.Bytes()))

			got, err := NewReader(&buf, MaxFromBrowser).Read()
			require.NoError(t, err)
			assert.Equal(t, tt.payload, string(got))
		})
	}
}

func TestCodecRoundTripsManyFrames(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, MaxToBrowser)
	frames := []Frame{
		Hello{Role: RoleExtension, Version: Version},
		Command{ID: "k1", Action: "tab.list", TimeoutMs: 30000},
		Cancel{ID: "k1"},
		Ping{},
	}
	for _, f := range frames {
		require.NoError(t, w.WriteFrame(f))
	}
	r := NewReader(&buf, MaxFromBrowser)
	for _, want := range frames {
		b, err := r.Read()
		require.NoError(t, err)
		got, err := DecodeBrowserFrame(b)
		require.NoError(t, err)
		wantJSON, _ := Encode(want)
		gotJSON, _ := Encode(got)
		assert.JSONEq(t, string(wantJSON), string(gotJSON))
	}
	_, err := r.Read()
	assert.Equal(t, io.EOF, err)
}

func TestWriterRefusesOversizedFramesWhole(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, 16)
	err := w.Write(bytes.Repeat([]byte("x"), 17))
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Zero(t, buf.Len(), "nothing of a refused frame is written")

	require.NoError(t, w.Write(bytes.Repeat([]byte("x"), 16)))
	assert.Equal(t, 20, buf.Len())
}

func TestWriterLimitIsOneMebibyteToTheBrowser(t *testing.T) {
	w := NewWriter(io.Discard, MaxToBrowser)
	assert.NoError(t, w.Write(make([]byte, 1<<20)))
	assert.ErrorIs(t, w.Write(make([]byte, 1<<20+1)), ErrTooLarge)
}

func TestReaderSkipsOversizedFramesAndStaysInStep(t *testing.T) {
	var buf bytes.Buffer
	big := NewWriter(&buf, 1<<10)
	require.NoError(t, big.Write(bytes.Repeat([]byte("y"), 100)))
	require.NoError(t, big.Write([]byte(`{"type":"ping"}`)))

	r := NewReader(&buf, 50)
	_, err := r.Read()
	assert.ErrorIs(t, err, ErrTooLarge)
	b, err := r.Read()
	require.NoError(t, err)
	assert.Equal(t, `{"type":"ping"}`, string(b))
}

func TestReaderTruncatedStreams(t *testing.T) {
	frame := func(n uint32, body string) []byte {
		b := binary.LittleEndian.AppendUint32(nil, n)
		return append(b, body...)
	}
	tests := []struct {
		name string
		wire []byte
		want error
	}{
		{"empty stream is EOF", nil, io.EOF},
		{"cut in the header", []byte{5, 0}, io.ErrUnexpectedEOF},
		{"cut in the payload", frame(10, "{}"), io.ErrUnexpectedEOF},
		{"cut while skipping an oversized frame", frame(1000, "xx"), io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewReader(bytes.NewReader(tt.wire), 100).Read()
			assert.ErrorIs(t, err, tt.want)
		})
	}
}

func TestReaderRefusesInvalidUTF8(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, NewWriter(&buf, 100).Write([]byte{'"', 0xff, '"'}))
	_, err := NewReader(&buf, 100).Read()
	assert.ErrorIs(t, err, ErrBadRequest)
}

func TestWriterFramesNeverInterleave(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw, MaxToBrowser)
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			payload := strings.Repeat(string(rune('a'+i)), 1000+i)
			for range each {
				assert.NoError(t, w.Write([]byte(payload)))
			}
		}()
	}
	go func() { wg.Wait(); pw.Close() }()

	r := NewReader(pr, MaxFromBrowser)
	n := 0
	for {
		b, err := r.Read()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		require.Equal(t, strings.Repeat(string(b[0]), len(b)), string(b), "a frame mixes writers")
		n++
	}
	assert.Equal(t, writers*each, n)
}

func FuzzReader(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{3, 0, 0, 0, '"', 0xff, '"', 1, 0, 0, 0, '1'})
	f.Fuzz(func(t *testing.T, wire []byte) {
		const limit = 64
		r := NewReader(bytes.NewReader(wire), limit)
		for range 1000 {
			b, err := r.Read()
			if err != nil {
				return
			}
			if len(b) > limit {
				t.Fatalf("frame of %d bytes passed a %d-byte limit", len(b), limit)
			}
			// Every frame read must survive a write and a read back.
			var buf bytes.Buffer
			if err := NewWriter(&buf, limit).Write(b); err != nil {
				t.Fatal(err)
			}
			again, err := NewReader(&buf, limit).Read()
			if err != nil || !bytes.Equal(again, b) {
				t.Fatalf("round trip: %q -> %q, %v", b, again, err)
			}
		}
	})
}
