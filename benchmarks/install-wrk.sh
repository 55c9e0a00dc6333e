#!/usr/bin/env bash
# Installs wrk (Debian package) when missing; the end-to-end benchmark drives the server with it.
set -euo pipefail
if ! command -v wrk >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
wrk --version 2>&1 | head -n1 || true
