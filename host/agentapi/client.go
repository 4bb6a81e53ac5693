package agentapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// A Client is one connection to the agent API of a running host, as
// `host mcp` (attached) and tests use it.
type Client struct {
	conn *websocket.Conn
	// Hello is the host's answer to the client's hello.
	Hello  nativemsg.Hello
	mu     sync.Mutex
	nextID atomic.Uint64
}

// Dial finds the running host through the discovery file at path, connects
// with its token and says hello as client. It returns ErrNoHost or ErrStale
// when no host runs.
func Dial(ctx context.Context, path, client string) (*Client, error) {
	d, err := ReadDiscovery(path)
	if err != nil {
		return nil, err
	}
	conn, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(d.Port)+"/",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + d.Token}}})
	if err != nil {
		return nil, fmt.Errorf("connecting to the host's agent API on port %d: %w", d.Port, err)
	}
	conn.SetReadLimit(hardReadLimit)
	c := &Client{conn: conn}
	if err := c.Call(ctx, TypeHello, map[string]any{"client": client, "protocol": nativemsg.ProtocolVersion}, &c.Hello); err != nil {
		conn.CloseNow()
		return nil, err
	}
	return c, nil
}

// Call sends a request of type typ with the fields of body and reads its
// reply's fields into out (nil to ignore them). An error reply is returned
// as a *nativemsg.Error.
func (c *Client) Call(ctx context.Context, typ string, body, out any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := "c-" + strconv.FormatUint(c.nextID.Add(1), 10)
	msg, err := encodeMessage(nativemsg.Envelope{V: nativemsg.ProtocolVersion, ID: id, Type: typ}, body)
	if err != nil {
		return err
	}
	if err := c.conn.Write(ctx, websocket.MessageText, msg); err != nil {
		return fmt.Errorf("sending %s to the host: %w", typ, err)
	}
	_, b, err := c.conn.Read(ctx)
	if err != nil {
		return fmt.Errorf("reading the host's answer to %s: %w", typ, err)
	}
	var env struct {
		nativemsg.Envelope
		Code    nativemsg.Code `json:"code"`
		Message string         `json:"message"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("the host answered %s with something other than a JSON object", typ)
	}
	if env.Type == nativemsg.TypeError {
		return &nativemsg.Error{Code: env.Code, Message: env.Message}
	}
	if env.ID != id || env.Type != typ {
		return fmt.Errorf("the host answered %s (id %s) with %s (id %s)", typ, id, env.Type, env.ID)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("reading the host's %s answer: %w", typ, err)
		}
	}
	return nil
}

// Close ends the connection.
func (c *Client) Close() error {
	err := c.conn.Close(websocket.StatusNormalClosure, "")
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
