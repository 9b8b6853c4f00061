package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openchrome/openchrome/host/launch"
)

// suite is what TestMain sets up once for every test.
var suite struct {
	binary   string // the openchrome binary under test
	chromium string
	skip     string // why e2e tests are skipped, if they are
	browsers *browsers
}

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if testing.Short() {
		suite.skip = "e2e tests need a browser: skipped with -short"
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "openchrome-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)

	suite.chromium = os.Getenv("OPENCHROME_CHROMIUM")
	if suite.chromium == "" {
		suite.chromium, err = launch.FindBrowser(exec.LookPath, runtime.GOOS)
		if err != nil {
			fmt.Fprintf(os.Stderr, "e2e: %v\nInstall it with: make deps (Debian: apt-get install chromium), or set OPENCHROME_CHROMIUM.\n", err)
			return 1
		}
	}

	suite.binary = filepath.Join(dir, "openchrome")
	args := []string{"build", "-o", suite.binary}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "./host/cmd/openchrome")...)
	build.Dir = ".."
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build openchrome:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "e2e: built %s in %s (race: %v); browser %s\n", suite.binary, time.Since(start).Round(time.Millisecond), raceEnabled, suite.chromium)

	suite.browsers = &browsers{root: dir}
	code := m.Run()
	if err := suite.browsers.closeAll(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: a shared browser:", err)
		code = 1
	}
	if leaked := processesOf(suite.binary, 5*time.Second); len(leaked) > 0 {
		fmt.Fprintf(os.Stderr, "e2e: openchrome processes outlived their tests: %v\n", leaked)
		code = 1
	}
	return code
}

// processesOf returns the pids still running binary after waiting up to wait
// for them to go. Linux only (it reads /proc); elsewhere it finds none.
func processesOf(binary string, wait time.Duration) []string {
	deadline := time.Now().Add(wait)
	for {
		var pids []string
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
			if err == nil && strings.TrimSuffix(exe, " (deleted)") == binary {
				pids = append(pids, e.Name())
			}
		}
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func skipIfShort(t testing.TB) {
	t.Helper()
	if suite.skip != "" {
		t.Skip(suite.skip)
	}
}
