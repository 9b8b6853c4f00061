package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// MCPConfig returns the text that tells a user how to add OpenChrome to their
// MCP client, for the binary at binary: the Claude Code command, the JSON that
// Cursor and similar clients take, and Codex's TOML.
func MCPConfig(binary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Claude Code:\n  claude mcp add openchrome -- %s mcp\n\n", shellQuote(binary))
	fmt.Fprintf(&b, "Cursor and other clients configured with JSON (mcpServers):\n  %s\n\n", mcpJSON(binary))
	fmt.Fprintf(&b, "Codex (~/.codex/config.toml):\n  [mcp_servers.openchrome]\n  command = %s\n  args = [\"mcp\"]\n",
		jsonQuote(binary))
	return b.String()
}

func mcpJSON(binary string) string {
	type server struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	v := map[string]map[string]server{"mcpServers": {"openchrome": {Command: binary, Args: []string{"mcp"}}}}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings and maps only: cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}

// jsonQuote quotes s as a JSON string, which is also a valid TOML basic
// string: both escape only \", \\ and control characters, as \uXXXX.
func jsonQuote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// shellQuote quotes s for a POSIX shell when it needs it, as a macOS path
// under "Application Support" does.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
