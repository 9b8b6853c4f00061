#!/bin/sh
# Installs what the tests need when it is missing, so `make test` works on a
# fresh machine: Debian's Chromium for the e2e tests, the extension's npm dev
# dependencies (TypeScript and @types/chrome for the type check, jsdom for the
# page script's tests) and the o200k tokenizer the token budgets are checked
# with (e2e/tokens).
set -eu
cd "$(dirname "$0")/.."

have() { command -v "$1" >/dev/null 2>&1; }

if ! have chromium && ! have chromium-browser && [ -z "${OPENCHROME_CHROMIUM:-}" ]; then
	if have apt-get; then
		sudo=""
		[ "$(id -u)" -eq 0 ] || sudo="sudo"
		echo "deps: installing Debian's chromium for the e2e tests" >&2
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
	else
		echo "deps: the e2e tests need Chromium: install it (macOS: brew install --cask chromium)" >&2
		echo "      or point OPENCHROME_CHROMIUM at a Chromium or Chrome for Testing binary" >&2
		exit 1
	fi
fi

if ! have npm; then
	echo "deps: the extension's checks need Node.js 20+ and npm: install them first" >&2
	exit 1
fi
# npm ci is quick when the lock file has not changed since the last install.
for dir in extension e2e/tokens; do
	if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
		[ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
		echo "deps: installing the npm dev dependencies of $dir" >&2
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
	fi
done
