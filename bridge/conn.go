package bridge

import (
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/openchrome/openchrome/protocol"
)

// writeWait bounds one frame's write, so a peer that stops reading cannot
// stall the goroutines answering it.
const writeWait = 10 * time.Second

// conn is a WebSocket carrying frames, one JSON text message each.
type conn struct {
	ws *websocket.Conn

	mu sync.Mutex // serializes writes: gorilla allows one writer at a time
}

func newConn(ws *websocket.Conn) *conn {
	ws.SetReadLimit(protocol.MaxFromBrowser + 1<<10)
	return &conn{ws: ws}
}

// write sends one frame. It is safe for concurrent use.
func (c *conn) write(f protocol.Frame) error {
	b, err := protocol.Encode(f)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
	return c.ws.WriteMessage(websocket.TextMessage, b)
}

// read returns the next message's bytes.
func (c *conn) read() ([]byte, error) {
	for {
		typ, b, err := c.ws.ReadMessage()
		if err != nil {
			return nil, err
		}
		if typ == websocket.TextMessage {
			return b, nil
		}
	}
}

// close sends a close message when it can and closes the connection.
func (c *conn) close() error {
	c.mu.Lock()
	_ = c.ws.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	c.mu.Unlock()
	return c.ws.Close()
}
