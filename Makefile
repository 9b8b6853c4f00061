# OpenChrome. The two commands of the README:
#   make setup   build, register the native host, extract the extension,
#                launch Chromium with it when there is one, print the MCP config
#   make test    every test: Go (unit and e2e with real headless Chromium),
#                the extension's type check and unit tests

BIN := bin/openchrome
GO_FILES := $(shell find . -name '*.go' -not -path './extension/node_modules/*')
EXT_FILES := $(shell find extension -path extension/node_modules -prune -o -type f -print)

.PHONY: setup build install launch test deps lint test-go test-ext test-short bench bench-pages bench-sweep fuzz clean

setup: install
	@if ./$(BIN) launch 2>/dev/null; then \
		echo "openchrome doctor checks the chain at any time."; \
	else \
		echo "No Chromium to launch here: load the extension into Chrome as shown above,"; \
		echo "or install Chromium and run: $(BIN) launch"; \
	fi

build: $(BIN)

$(BIN): $(GO_FILES) $(EXT_FILES) go.mod go.sum
	go build -o $(BIN) ./host/cmd/openchrome

install: build
	./$(BIN) install

launch: build
	./$(BIN) launch

test: deps lint test-go test-ext

deps:
	./scripts/deps.sh

lint:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || echo .))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	go vet ./...

# e2e takes about 8 min with -race on two cores: too near go test's
# default limit of 10 min. Its tests wait on pages and servers as much as
# they compute: three at a time keep two cores busy (493 s against 554 s
# at two).
test-go:
	go test -race -count=1 -parallel 3 -timeout 30m ./...

test-ext:
	cd extension && npx tsc --noEmit && node --test --test-reporter=dot

# Unit tests only: no browser.
test-short:
	go test -short -race ./...
	cd extension && node --test --test-reporter=dot

# The broker and the whole tool chain; the task ledger (list over 10,000
# records, how fast a wait wakes), in process and through the tools.
bench:
	go test -run '^$$' -bench 'Broker|ToolsContext' -benchtime 2s ./bridge/ ./e2e/
	go test -run '^$$' -bench 'List10k|WaitWake' ./ledger/
	go test -run '^$$' -bench 'TaskWaitWake|TaskList10k' -benchtime 20x ./e2e/

# read_page over the real Python documentation (issue 3's targets): tokens,
# refs, and the median navigate and read_page times of 7 runs per page; the
# login flow; Playwright MCP and Chrome DevTools MCP on the same pages; and
# crawl throughput over 40 library pages at concurrency 1 and 4.
bench-pages:
	./scripts/bench-deps.sh
	go test -run '^$$' -bench 'PythonDocs|LoginFlow|Peers' -benchtime 7x -timeout 30m ./e2e/

# read_page's tokens over every page of the Python docs (every 5th with
# OPENCHROME_SWEEP_STRIDE=5), against the better peer and the page's own text.
bench-sweep:
	./scripts/bench-deps.sh
	go test -run '^$$' -bench TokenSweep -benchtime 1x -timeout 60m ./e2e/

fuzz:
	go test -run '^$$' -fuzz FuzzReader -fuzztime 30s ./protocol/
	go test -run '^$$' -fuzz FuzzDecode -fuzztime 30s ./protocol/

clean:
	rm -rf bin
