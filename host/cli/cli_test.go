package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// run runs the CLI with OPENCHROME_HOME in a temp dir and returns its exit
// code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	home := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), args, Env{
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(k string) string {
			if k == "OPENCHROME_HOME" {
				return home
			}
			return ""
		},
		Executable: filepath.Join(home, "openchrome"),
	})
	return code, stdout.String(), stderr.String()
}

func TestCommands(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"no command prints usage", nil, 2, "", "Usage:"},
		{"help", []string{"help"}, 0, "openchrome mcp", ""},
		{"unknown command", []string{"fly"}, 2, "", `unknown command "fly"`},
		{"version", []string{"version"}, 0, "openchrome " + protocol.Version, ""},
		{"call needs a tool", []string{"call"}, 1, "", "usage: openchrome call TOOL"},
		{"call refuses bad JSON", []string{"call", "navigate", "{url:"}, 1, "", "not valid JSON"},
		{"call without a daemon names the fix", []string{"call", "tabs_context"}, 1, "", "openchrome doctor"},
		{"call takes empty arguments as none", []string{"call", "tabs_context", " "}, 1, "", "openchrome doctor"},
		{"mcp refuses an unknown group", []string{"mcp", "--tools", "core,magic"}, 1, "", `unknown tool group "magic"`},
		{"bad flag", []string{"install", "--frobnicate"}, 1, "", "flag provided but not defined"},
		{"native mode without a hello", []string{"chrome-extension://pmdndpcaaogpfkegdbdkbpfpldaklhac/"}, 1, "", "hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.args...)
			assert.Equal(t, tt.code, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assert.Contains(t, stdout, tt.stdout)
			assert.Contains(t, stderr, tt.stderr)
		})
	}
}

func TestNativeModeWritesNothingButFramesToStdout(t *testing.T) {
	// Chrome closes the port at once: the daemon must leave stdout empty
	// (it is the wire) and log to the home's log file instead.
	code, stdout, _ := run(t, "chrome-extension://pmdndpcaaogpfkegdbdkbpfpldaklhac/")
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
}

func TestLogRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "openchrome.log")
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte("x"), 11<<20), 0o600))
	rotate(path)
	_, err := os.Stat(path + ".1")
	assert.NoError(t, err)
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))
}

func TestTheLogIsRedacted(t *testing.T) {
	h := ledger.Home(t.TempDir())
	red := new(redact.Redactor)
	log, closeLog := openLog(Env{Getenv: func(string) string { return "" }}, h, "daemon", red)
	red.Add("SuperSecretPassword!") // as the engine does when it fills a password field
	log.Info("page said SuperSecretPassword!", "url", "https://x.example/cb?code=abc123&page=2",
		"err", errors.New("Authorization: Bearer ya29.a0AfH6SMBx"))
	closeLog()
	b, err := os.ReadFile(h.LogFile())
	require.NoError(t, err)
	line := string(b)
	assert.Contains(t, line, `"msg":"page said [redacted]"`)
	assert.Contains(t, line, `code=[redacted]&page=2`)
	assert.NotContains(t, line, "ya29")
	assert.Contains(t, line, `"component":"daemon"`)
}

func TestDurationEnv(t *testing.T) {
	tests := []struct {
		value string
		want  time.Duration
		err   bool
	}{
		{"", 0, false},
		{"30s", 30 * time.Second, false},
		{"10m", 10 * time.Minute, false},
		{"0s", 0, true},
		{"-1s", 0, true},
		{"ten minutes", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := durationEnv(Env{Getenv: func(string) string { return tt.value }}, "OPENCHROME_IDLE_EXIT")
			if tt.err {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "OPENCHROME_IDLE_EXIT")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestServeRefusesABadIdleExit(t *testing.T) {
	var stderr bytes.Buffer
	vars := map[string]string{"OPENCHROME_HOME": t.TempDir(), "OPENCHROME_IDLE_EXIT": "soon"}
	code := Run(context.Background(), []string{"serve"}, Env{
		Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
		Getenv: func(k string) string { return vars[k] },
	})
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "OPENCHROME_IDLE_EXIT")
}
