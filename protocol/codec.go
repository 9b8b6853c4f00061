package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// Native-messaging size limits, from Chrome's side of the pipe: Chrome refuses
// a message over 1 MiB from the host and never sends one over 64 MiB.
// https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-protocol
const (
	MaxToBrowser   = 1 << 20  // host -> extension
	MaxFromBrowser = 64 << 20 // extension -> host
)

// Reader reads native-messaging frames: a 4-byte little-endian length, then
// that many bytes of UTF-8 JSON.
type Reader struct {
	r   io.Reader
	max int
	hdr [4]byte
}

// NewReader returns a Reader that refuses frames longer than max bytes.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: r, max: max}
}

// Read returns the next frame's payload. It returns io.EOF only at a frame
// boundary; a stream cut inside a frame is io.ErrUnexpectedEOF. A frame over
// the limit is skipped whole, so the stream stays in step, and reported as a
// too_large *Error; so is a payload that is not valid UTF-8 (bad_request).
func (r *Reader) Read() ([]byte, error) {
	if _, err := io.ReadFull(r.r, r.hdr[:]); err != nil {
		return nil, err // io.EOF at a boundary, io.ErrUnexpectedEOF inside the header
	}
	n := binary.LittleEndian.Uint32(r.hdr[:])
	if uint64(n) > uint64(r.max) {
		if _, err := io.CopyN(io.Discard, r.r, int64(n)); err != nil {
			return nil, unexpected(err)
		}
		return nil, Errorf(CodeTooLarge, "frame of %d bytes is over the %d-byte limit", n, r.max)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r.r, buf); err != nil {
		return nil, unexpected(err)
	}
	if !utf8.Valid(buf) {
		return nil, Errorf(CodeBadRequest, "frame is not valid UTF-8")
	}
	return buf, nil
}

func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Writer writes native-messaging frames. It is safe for concurrent use: each
// frame goes out in one Write, whole or not at all.
type Writer struct {
	max int

	mu sync.Mutex // guards w, so frames never interleave
	w  io.Writer
}

// NewWriter returns a Writer that refuses payloads longer than max bytes.
func NewWriter(w io.Writer, max int) *Writer {
	return &Writer{w: w, max: max}
}

// Write writes payload as one frame. A payload over the limit is refused with
// a too_large *Error and nothing is written.
func (w *Writer) Write(payload []byte) error {
	if len(payload) > w.max {
		return Errorf(CodeTooLarge, "frame of %d bytes is over the %d-byte limit", len(payload), w.max)
	}
	buf := make([]byte, 4+len(payload))
	binary.LittleEndian.PutUint32(buf, uint32(len(payload)))
	copy(buf[4:], payload)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.w.Write(buf); err != nil {
		return fmt.Errorf("protocol: write frame: %w", err)
	}
	return nil
}

// WriteFrame encodes f and writes it as one frame.
func (w *Writer) WriteFrame(f Frame) error {
	b, err := Marshal(f)
	if err != nil {
		return fmt.Errorf("protocol: encode %s frame: %w", f.frameType(), err)
	}
	return w.Write(b)
}
