package protocol

import (
	"encoding/json"
	"fmt"
	"time"
)

// Version is the version of the wire protocol and of the tool catalog. The MCP
// front-end, the daemon and the extension compare it at hello: a catalog that
// differs between them would list tools the other side cannot run.
const Version = "0.1.0"

// Command timeouts (ARCHITECTURE §4). A command without a timeout gets
// DefaultCommandTimeout; an override is clamped to MaxCommandTimeout so that
// nothing can block a page for longer.
const (
	DefaultCommandTimeout = 30 * time.Second
	MaxCommandTimeout     = 10 * time.Minute
)

// ClampTimeout returns the timeout for a command that asked for ms
// milliseconds: the default when ms <= 0, at most MaxCommandTimeout.
func ClampTimeout(ms int64) time.Duration {
	if ms <= 0 {
		return DefaultCommandTimeout
	}
	if ms > MaxCommandTimeout.Milliseconds() {
		return MaxCommandTimeout
	}
	return time.Duration(ms) * time.Millisecond
}

// Frame type names, the value of every frame's "type" field.
const (
	TypeHello    = "hello"
	TypeReady    = "ready"
	TypeCall     = "call"
	TypeProgress = "progress"
	TypeResult   = "result"
	TypeCancel   = "cancel"
	TypePing     = "ping"
	TypePong     = "pong"
	TypeError    = "error"
	TypeCommand  = "command"
	TypeEvent    = "event"
	TypeState    = "state"
	TypeAsk      = "ask"
	TypeAnswer   = "answer"
)

// Roles a peer declares in its hello.
const (
	RoleAgent     = "agent"     // an MCP front-end or `openchrome call`
	RoleExtension = "extension" // the extension, directly or relayed by a second daemon
)

// Frame is one wire frame. The set is closed: only the types in this package
// implement it.
type Frame interface {
	frameType() string
}

// Hello is the first frame on every connection, from the side that dialled.
type Hello struct {
	Role    string `json:"role"`
	Version string `json:"version"`
	Client  string `json:"client,omitempty"`  // agent: the MCP client's name
	Browser string `json:"browser,omitempty"` // extension: e.g. "Chromium/156"
	Profile string `json:"profile,omitempty"` // extension: the profile's name
}

// Ready answers an agent's hello.
type Ready struct {
	Version  string        `json:"version"`
	Agent    string        `json:"agent,omitempty"` // the id the broker gave this agent
	Browsers []BrowserInfo `json:"browsers"`
}

// BrowserInfo describes one connected browser link.
type BrowserInfo struct {
	ID               string `json:"id"`
	Profile          string `json:"profile,omitempty"`
	Browser          string `json:"browser,omitempty"`
	ExtensionVersion string `json:"extensionVersion"`
}

// Call asks the engine to run one tool.
type Call struct {
	ID        string          `json:"id"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args,omitempty"`
	Progress  bool            `json:"progress,omitempty"`  // the agent wants progress frames
	TimeoutMs int64           `json:"timeoutMs,omitempty"` // 0: the broker's default
	// Roots are the directories the agent's side lets a tool read files
	// from (upload_file): the MCP client's roots, the directory the
	// front-end runs in, and its --upload-root directories. Sent only with
	// a tool that reads files.
	Roots []string `json:"roots,omitempty"`
	// AllowedOrigins and BlockedOrigins narrow the person's site policy for
	// this agent (openchrome mcp --allowed-origins, --blocked-origins): a
	// URL must be in both allowed lists, and in neither blocked one.
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	BlockedOrigins []string `json:"blockedOrigins,omitempty"`
	// CanAsk says the agent can put a question to the person at its MCP
	// client (MCP elicitation): the call may get [Ask] frames.
	CanAsk bool `json:"canAsk,omitempty"`
}

// Progress reports how far a call or command has got.
type Progress struct {
	ID       string  `json:"id"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// CallResult carries a tool's result to the agent that called it.
type CallResult struct {
	ID     string      `json:"id"`
	Result *ToolResult `json:"result"`
}

// ToolResult mirrors MCP's CallToolResult, so the front-end can pass it on
// without knowing any tool.
type ToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// Content is one MCP content block: text, an image with its bytes, or a
// resource_link to a file.
type Content struct {
	Type     string `json:"type"` // "text" or "image"
	Text     string `json:"text,omitempty"`
	Data     []byte `json:"data,omitempty"` // base64 on the wire, as MCP wants
	MimeType string `json:"mimeType,omitempty"`
	// A resource_link: a file a tool wrote, by URI (file://), with its name
	// and size.
	URI  string `json:"uri,omitempty"`
	Name string `json:"name,omitempty"`
	Size int64  `json:"size,omitempty"`
}

// Cancel stops a call (agent to broker) or a command (daemon to extension).
type Cancel struct {
	ID string `json:"id"`
}

// Ask puts a question to the person at the MCP client of the agent whose
// call is in flight (broker to agent), for tools that may be answered there
// as well as in the browser. The agent answers with [Answer]; the broker
// withdraws an ask it no longer needs with a [Cancel] of its id.
type Ask struct {
	ID      string   `json:"id"`
	Call    string   `json:"call"` // the call it is for
	Message string   `json:"message"`
	Choices []Choice `json:"choices,omitempty"` // none: a yes-or-no confirmation
}

// Choice is one answer an [Ask] offers.
type Choice struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// What the person did with an [Ask], as MCP elicitation says it.
const (
	AnswerAccept  = "accept"  // answered: confirmed, or chose Value
	AnswerDecline = "decline" // said no
	AnswerCancel  = "cancel"  // closed it without answering, or it could not be asked
)

// Answer answers an [Ask] (agent to broker).
type Answer struct {
	ID     string `json:"id"`
	Action string `json:"action"`
	Value  string `json:"value,omitempty"` // the chosen Choice's value
}

// Ping and Pong keep a connection's liveness visible.
type (
	Ping struct{}
	Pong struct{}
)

// Fail refuses a session, e.g. when versions differ, before the connection closes.
type Fail struct {
	Error *Error `json:"error"`
}

// Command asks the extension to do one action.
type Command struct {
	ID        string          `json:"id"`
	Action    string          `json:"action"`
	Params    json.RawMessage `json:"params,omitempty"`
	TimeoutMs int64           `json:"timeoutMs"`
}

// CommandResult answers exactly one Command: Data when OK, else Error.
type CommandResult struct {
	ID    string          `json:"id"`
	OK    bool            `json:"ok"`
	Data  json.RawMessage `json:"data,omitempty"`
	Error *Error          `json:"error,omitempty"`
}

// Event reports something a human did in the browser, e.g. "handoff.finish".
type Event struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data,omitempty"`
}

// State carries what the side panel shows.
type State struct {
	Data json.RawMessage `json:"data"`
}

func (Hello) frameType() string         { return TypeHello }
func (Ready) frameType() string         { return TypeReady }
func (Call) frameType() string          { return TypeCall }
func (Progress) frameType() string      { return TypeProgress }
func (CallResult) frameType() string    { return TypeResult }
func (Cancel) frameType() string        { return TypeCancel }
func (Ping) frameType() string          { return TypePing }
func (Pong) frameType() string          { return TypePong }
func (Fail) frameType() string          { return TypeError }
func (Command) frameType() string       { return TypeCommand }
func (CommandResult) frameType() string { return TypeResult }
func (Event) frameType() string         { return TypeEvent }
func (State) frameType() string         { return TypeState }
func (Ask) frameType() string           { return TypeAsk }
func (Answer) frameType() string        { return TypeAnswer }

// Each frame marshals with its "type" first, so no caller can forget it.
func (f Hello) MarshalJSON() ([]byte, error)    { type p Hello; return typed(TypeHello, p(f)) }
func (f Ready) MarshalJSON() ([]byte, error)    { type p Ready; return typed(TypeReady, p(f)) }
func (f Call) MarshalJSON() ([]byte, error)     { type p Call; return typed(TypeCall, p(f)) }
func (f Progress) MarshalJSON() ([]byte, error) { type p Progress; return typed(TypeProgress, p(f)) }
func (f CallResult) MarshalJSON() ([]byte, error) {
	type p CallResult
	return typed(TypeResult, p(f))
}
func (f Cancel) MarshalJSON() ([]byte, error)  { type p Cancel; return typed(TypeCancel, p(f)) }
func (f Ping) MarshalJSON() ([]byte, error)    { return typed(TypePing, struct{}{}) }
func (f Pong) MarshalJSON() ([]byte, error)    { return typed(TypePong, struct{}{}) }
func (f Fail) MarshalJSON() ([]byte, error)    { type p Fail; return typed(TypeError, p(f)) }
func (f Command) MarshalJSON() ([]byte, error) { type p Command; return typed(TypeCommand, p(f)) }
func (f CommandResult) MarshalJSON() ([]byte, error) {
	type p CommandResult
	return typed(TypeResult, p(f))
}
func (f Event) MarshalJSON() ([]byte, error) { type p Event; return typed(TypeEvent, p(f)) }
func (f State) MarshalJSON() ([]byte, error) { type p State; return typed(TypeState, p(f)) }
func (f Ask) MarshalJSON() ([]byte, error)   { type p Ask; return typed(TypeAsk, p(f)) }
func (f Answer) MarshalJSON() ([]byte, error) {
	type p Answer
	return typed(TypeAnswer, p(f))
}

// typed marshals v, a struct, as a JSON object whose first member is "type".
func typed(typ string, v any) ([]byte, error) {
	b, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	head := `{"type":"` + typ + `"`
	if len(b) == 2 { // "{}"
		return []byte(head + "}"), nil
	}
	return append([]byte(head+","), b[1:]...), nil
}

// Encode marshals a frame.
func Encode(f Frame) ([]byte, error) { return Marshal(f) }

// DecodeAgentFrame decodes a frame of the agent channel: the WebSocket between
// an agent and the broker. A "result" there is a [CallResult].
func DecodeAgentFrame(b []byte) (Frame, error) {
	return decode(b, map[string]func() Frame{
		TypeHello:    func() Frame { return &Hello{} },
		TypeReady:    func() Frame { return &Ready{} },
		TypeCall:     func() Frame { return &Call{} },
		TypeProgress: func() Frame { return &Progress{} },
		TypeResult:   func() Frame { return &CallResult{} },
		TypeCancel:   func() Frame { return &Cancel{} },
		TypePing:     func() Frame { return &Ping{} },
		TypePong:     func() Frame { return &Pong{} },
		TypeError:    func() Frame { return &Fail{} },
		TypeAsk:      func() Frame { return &Ask{} },
		TypeAnswer:   func() Frame { return &Answer{} },
	})
}

// DecodeBrowserFrame decodes a frame of the browser channel: native messaging
// between the daemon and the extension, or the same frames relayed over the
// broker's WebSocket by a second daemon. A "result" there is a [CommandResult].
func DecodeBrowserFrame(b []byte) (Frame, error) {
	return decode(b, map[string]func() Frame{
		TypeHello:    func() Frame { return &Hello{} },
		TypeCommand:  func() Frame { return &Command{} },
		TypeProgress: func() Frame { return &Progress{} },
		TypeResult:   func() Frame { return &CommandResult{} },
		TypeCancel:   func() Frame { return &Cancel{} },
		TypeEvent:    func() Frame { return &Event{} },
		TypeState:    func() Frame { return &State{} },
		TypePing:     func() Frame { return &Ping{} },
		TypePong:     func() Frame { return &Pong{} },
		TypeError:    func() Frame { return &Fail{} },
	})
}

func decode(b []byte, types map[string]func() Frame) (Frame, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, Errorf(CodeBadRequest, "frame is not a JSON object").WithCause(err)
	}
	mk, ok := types[head.Type]
	if !ok {
		return nil, Errorf(CodeBadRequest, "unknown frame type %q", head.Type)
	}
	f := mk()
	if err := json.Unmarshal(b, f); err != nil {
		return nil, Errorf(CodeBadRequest, "malformed %s frame", head.Type).WithCause(err)
	}
	if err := check(f); err != nil {
		return nil, err
	}
	return f, nil
}

// check enforces what the JSON types cannot: ids present, results one-sided.
func check(f Frame) error {
	missing := func(field string) error {
		return Errorf(CodeBadRequest, "%s frame without %s", f.frameType(), field)
	}
	switch f := f.(type) {
	case *Hello:
		if f.Role != RoleAgent && f.Role != RoleExtension {
			return Errorf(CodeBadRequest, "hello with unknown role %q", f.Role)
		}
		if f.Version == "" {
			return missing("version")
		}
	case *Call:
		if f.ID == "" {
			return missing("id")
		}
		if f.Tool == "" {
			return missing("tool")
		}
	case *Command:
		if f.ID == "" {
			return missing("id")
		}
		if f.Action == "" {
			return missing("action")
		}
	case *CallResult:
		if f.ID == "" {
			return missing("id")
		}
		if f.Result == nil {
			return missing("result")
		}
	case *CommandResult:
		if f.ID == "" {
			return missing("id")
		}
		if !f.OK && f.Error == nil {
			return missing("error")
		}
		if f.Error != nil && !f.Error.Code.Known() {
			// An extension newer than the host may know more codes; keep the
			// message, call it internal.
			f.Error = &Error{Code: CodeInternal, Message: fmt.Sprintf("%s (%s)", f.Error.Message, f.Error.Code), Hint: f.Error.Hint}
		}
	case *Progress:
		if f.ID == "" {
			return missing("id")
		}
	case *Cancel:
		if f.ID == "" {
			return missing("id")
		}
	case *Event:
		if f.Name == "" {
			return missing("name")
		}
	case *Fail:
		if f.Error == nil {
			return missing("error")
		}
	case *Ask:
		if f.ID == "" {
			return missing("id")
		}
		if f.Call == "" {
			return missing("call")
		}
	case *Answer:
		if f.ID == "" {
			return missing("id")
		}
		if f.Action != AnswerAccept && f.Action != AnswerDecline && f.Action != AnswerCancel {
			return Errorf(CodeBadRequest, "answer with unknown action %q", f.Action)
		}
	}
	return nil
}
