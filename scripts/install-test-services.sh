#!/usr/bin/env bash
# The services the tests start privately on loopback come from Debian packages: installed here
# when missing (CI runs as root on a clean machine). Nothing is started or configured system-wide.
set -euo pipefail
need=()
compgen -G '/usr/lib/postgresql/*/bin/initdb' > /dev/null || need+=(postgresql)
# OpenStack Swift with its s3api middleware: the S3-compatible store (tempauth keeps tokens in memcached).
command -v swift-proxy-server > /dev/null || need+=(swift swift-proxy swift-object swift-container swift-account)
command -v memcached > /dev/null || need+=(memcached)
# Redis for the conversion queue (BullMQ).
command -v redis-server > /dev/null || need+=(redis-server)
# Prometheus, scraping the roles' /metrics in the tests (promtool checks the alert rules).
command -v prometheus > /dev/null || need+=(prometheus)
# Chromium for the session page's tests in a real browser (driven by playwright-core).
[ -x /usr/bin/chromium ] || need+=(chromium)
# curl, as the README's first-session walkthrough uses it (run as written by a test).
command -v curl > /dev/null || need+=(curl)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "the tests need these Debian packages: ${need[*]} (install them as root: apt-get install ${need[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "${need[@]}" \
  || { apt-get update -q && apt-get install -y -q --no-install-recommends "${need[@]}"; }
