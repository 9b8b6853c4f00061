#!/bin/sh
# Installs what the read_page benchmark needs beyond the tests: Debian's
# Python documentation (the pages it reads) and the peers it is compared with.
set -eu
cd "$(dirname "$0")/.."
./scripts/deps.sh
if [ ! -f /usr/share/doc/python3.11/html/index.html ] && [ -z "${OPENCHROME_PYDOCS:-}" ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	echo "bench: installing Debian's python3.11-doc" >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3.11-doc >/dev/null
fi
if [ ! -f e2e/bench/node_modules/.package-lock.json ] ||
	[ e2e/bench/package-lock.json -nt e2e/bench/node_modules/.package-lock.json ]; then
	(cd e2e/bench && npm ci --no-audit --no-fund --loglevel=error)
fi
