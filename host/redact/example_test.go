package redact_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/openchrome/openchrome/host/redact"
)

func ExampleText() {
	fmt.Println(redact.Text("login failed: password=hunter2, Authorization: Bearer abc.def"))
	fmt.Println(redact.Text("passwordless login via the token bucket, commit 3f2a1bc"))
	// Output:
	// login failed: password=[redacted], Authorization: [redacted]
	// passwordless login via the token bucket, commit 3f2a1bc
}

func ExampleURL() {
	fmt.Println(redact.URL("https://bob:pw@app.example/cb?code=4%2F0Ab&state=xyz#access_token=t"))
	// Output: https://[redacted]@app.example/cb?code=[redacted]&state=xyz#access_token=[redacted]
}

func ExampleArgs() {
	raw := json.RawMessage(`{"url":"https://docs.example/?token=t","maxPages":50,"auth":{"user":"bob","pass":"x"}}`)
	fmt.Println(redact.Args(raw, 2048))
	// Output: {"url":"https://docs.example/?token=[redacted]","maxPages":50,"auth":"[redacted]"}
}

func ExampleRedactor() {
	var r redact.Redactor // one per daemon, shared by tools and the logger
	r.Add("correct horse battery")
	fmt.Println(r.Text(`typed "correct horse battery" into the password field`))
	fmt.Println(r.URL("https://app.example/login?u=bob&p=correct+horse+battery"))
	// Output:
	// typed "[redacted]" into the password field
	// https://app.example/login?u=bob&p=[redacted]
}

func ExampleNewHandler() {
	var known redact.Redactor
	opts := &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{} // for a stable example
		}
		return a
	}}
	log := slog.New(redact.NewHandler(slog.NewJSONHandler(os.Stdout, opts), &known))
	log.Info("navigate", "url", "https://app.example/cb?code=abc", "password", "hunter2")
	// Output: {"level":"INFO","msg":"navigate","url":"https://app.example/cb?code=[redacted]","password":"[redacted]"}
}
