#!/usr/bin/env bash
# make test-s3: objstore's tests against a real S3 server, then a pebblebench remote scenario
# at a small scale on it. The server is SeaweedFS on 127.0.0.1 (scripts/s3server.sh builds it
# once per machine, through the Go module proxy, and starts it in a temporary directory),
# unless PEBBLERF_S3_TEST_URL already names another endpoint (MinIO, AWS S3; credentials in
# AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY). The tests that kill a server's processes start
# SeaweedFS clusters of their own either way.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

PEBBLERF_WEED=$(scripts/s3server.sh build)
export PEBBLERF_WEED
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebblerf-test-s3.XXXXXX")
cleanup() {
	scripts/s3server.sh stop "$tmp/server" || true
	rm -rf "$tmp"
}
trap cleanup EXIT
if [ -z "${PEBBLERF_S3_TEST_URL:-}" ]; then
	scripts/s3server.sh start "$tmp/server"
	# shellcheck disable=SC1091
	. "$tmp/server/env"
fi
echo "test-s3: the suite against ${PEBBLERF_S3_TEST_URL%%\?*}"

# -v: the fault tests log what each fault did (errors seen, time to error, writes read back).
$GO test -count=1 -run '^TestRealS3' -v ./objstore/

# The remote scenario, both engines, each under its own prefix below pebblebench/.
base=${PEBBLERF_S3_TEST_URL%%\?*}
query=${PEBBLERF_S3_TEST_URL#"$base"}
remote="${base%/}/pebblebench$query"
echo "test-s3: pebblebench -scenario=remote-range-filters on $remote"
$GO run ./cmd/pebblebench -scenario=remote-range-filters -remote="$remote" \
	-num=200000 -writes=20000 -reads=100 -threads=2
