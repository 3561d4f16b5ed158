#!/usr/bin/env bash
# A real S3 server for objstore's tests: SeaweedFS (https://github.com/seaweedfs/seaweedfs),
# built once per machine from the version pinned in tools/seaweedfs/go.mod, run as separate
# processes on 127.0.0.1 so that a test can kill the S3 gateway or one volume server alone.
#
#   scripts/s3server.sh build              build weed if the cache lacks it; print its path
#   scripts/s3server.sh start DIR          start a cluster with its data and logs in DIR
#   scripts/s3server.sh stop DIR           stop DIR's cluster (by its recorded process IDs)
#   scripts/s3server.sh kill DIR NAME      SIGKILL one process: s3, filer, master, volume1..3
#   scripts/s3server.sh restart DIR NAME   start a stopped or killed process again, same data
#
# start writes DIR/env, to be sourced: PEBBLERF_S3_TEST_URL (the store URL objstore's tests
# read), AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (the only identity the gateway accepts).
# The cluster is a master, three volume servers, a filer and the S3 gateway, each on free
# ports picked at start, with every object stored on two volume servers (replication 001),
# so that one volume server can die without losing a read.
#
# Environment:
#   PEBBLERF_WEED          use this weed binary instead of the cached build
#   PEBBLERF_CACHE         the cache directory (default ${XDG_CACHE_HOME:-$HOME/.cache}/pebblerf)
#   S3SERVER_VOLUME_MAX    volumes each volume server may hold (default 40)
#   S3SERVER_MIN_FREE      a volume server's -minFreeSpace: below it, its volumes turn
#                          read-only (default 1, a percentage); 100 makes a full server
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/tools/seaweedfs
names=(master volume1 volume2 volume3 filer s3)

die() {
	echo "s3server: $*" >&2
	exit 1
}

weed_version() {
	local v
	v=$(sed -n 's#^[[:space:]]*\(require[[:space:]]\{1,\}\)\{0,1\}github\.com/seaweedfs/seaweedfs[[:space:]]\{1,\}\(v[^[:space:]]*\).*#\2#p' "$tools/go.mod" | head -n1)
	[ -n "$v" ] || die "no github.com/seaweedfs/seaweedfs version in $tools/go.mod"
	echo "$v"
}

# weed_path prints the binary to run, building it into the per-machine cache (keyed by the
# pinned version) when it is not there. The build goes to a temporary name first, so an
# interrupted or concurrent build never leaves a partial binary under the final name.
weed_path() {
	if [ -n "${PEBBLERF_WEED:-}" ]; then
		[ -x "$PEBBLERF_WEED" ] || die "PEBBLERF_WEED=$PEBBLERF_WEED is not an executable"
		echo "$PEBBLERF_WEED"
		return
	fi
	local version cache bin tmp start
	version=$(weed_version)
	cache=${PEBBLERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pebblerf}/seaweedfs/$version
	bin=$cache/weed
	if [ ! -x "$bin" ]; then
		mkdir -p "$cache"
		tmp=$(mktemp "$cache/weed.XXXXXX")
		start=$(date +%s)
		echo "s3server: building SeaweedFS $version into $bin (several minutes the first time) ..." >&2
		if ! (cd "$tools" && GOFLAGS=-mod=readonly go build -o "$tmp" github.com/seaweedfs/seaweedfs/weed); then
			rm -f "$tmp"
			die "building weed failed"
		fi
		mv "$tmp" "$bin"
		echo "s3server: built in $(($(date +%s) - start))s" >&2
	fi
	echo "$bin"
}

# listening reports whether something accepts connections on 127.0.0.1:port.
listening() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# http_get prints the answer to GET path from 127.0.0.1:port (status line, headers, body).
http_get() {
	local port=$1 path=$2
	(
		exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
		printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$path" "$port" >&3
		timeout 5 cat <&3
	) 2>/dev/null
}

# pick_ports chooses 12 distinct ports that nothing listens on: weed's HTTP and gRPC
# ports of each process, given explicitly (weed's default gRPC port is the HTTP port plus
# 10000, which could collide with another run's).
pick_ports() {
	local -A taken=()
	ports=()
	while [ ${#ports[@]} -lt 12 ]; do
		local p=$((20000 + RANDOM % 40000))
		if [ -z "${taken[$p]:-}" ] && ! listening "$p"; then
			taken[$p]=1
			ports+=("$p")
		fi
	done
}

pidfile() { echo "$1/run/$2.pid"; }

# alive reports whether the process recorded for name runs, and is still the weed of
# this cluster (a recorded PID may have been reused).
alive() {
	local dir=$1 name=$2 pid
	pid=$(cat "$(pidfile "$dir" "$name")" 2>/dev/null) || return 1
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
	local cmdline
	cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
	[[ $cmdline == *"$dir/"* ]]
}

# launch starts name from its recorded command line, detached from the caller's output
# (a test that runs this script waits for its output to close).
launch() {
	local dir=$1 name=$2
	local -a cmd
	read -r -a cmd <"$dir/run/$name.cmd"
	nohup "${cmd[@]}" </dev/null >>"$dir/log/$name.out" 2>&1 &
	echo $! >"$(pidfile "$dir" "$name")"
}

# filer_known reports whether the master lists a filer. Until it does (some 10 seconds
# after the filer starts), the filer has no lock server and the gateway's writes wait.
filer_known() {
	local dir=$1 weed out
	read -r weed _ <"$dir/run/master.cmd"
	out=$(echo cluster.ps | timeout 10 "$weed" shell -master="$(cat "$dir/run/master.addr")" 2>/dev/null) || true
	grep -q '^\* filers [1-9]' <<<"$out"
}

# ready waits until name answers (the gateway: an HTTP answer to an anonymous request,
# which it refuses, and a filer the master knows, so that writes go through; the master:
# every volume server registered) or its process dies.
ready() {
	local dir=$1 name=$2 port i
	port=$(cat "$dir/run/$name.port")
	for i in $(seq 1 600); do
		alive "$dir" "$name" || return 1
		case $name in
		s3)
			local answer
			answer=$(http_get "$port" /) || true
			if [[ $answer == "HTTP/1."[01]" 403"* ]]; then
				for i in $(seq 1 60); do
					filer_known "$dir" && return 0
					alive "$dir" filer || return 1
					sleep 1
				done
				return 1
			fi
			;;
		master)
			local status ok=1 v
			status=$(http_get "$port" /dir/status || true)
			for v in volume1 volume2 volume3; do
				grep -q "127.0.0.1:$(cat "$dir/run/$v.port")" <<<"$status" || ok=0
			done
			[ $ok = 1 ] && return 0
			;;
		*) listening "$port" && return 0 ;;
		esac
		sleep 0.1
	done
	return 1
}

# stop_one sends sig to name's process and waits for it to end; after 3 seconds (a gateway
# or filer drains its requests first, which on a server that takes no writes never ends)
# it kills it.
stop_one() {
	local dir=$1 name=$2 sig=$3 pid i
	if alive "$dir" "$name"; then
		pid=$(cat "$(pidfile "$dir" "$name")")
		kill "-$sig" "$pid" 2>/dev/null || true
		for i in $(seq 1 30); do
			alive "$dir" "$name" || break
			sleep 0.1
		done
		if alive "$dir" "$name"; then
			kill -KILL "$pid" 2>/dev/null || true
			sleep 0.2
		fi
	fi
	rm -f "$(pidfile "$dir" "$name")"
}

cmd_stop() {
	local dir=$1 i
	[ -d "$dir/run" ] || return 0
	dir=$(cd "$dir" && pwd)
	for ((i = ${#names[@]} - 1; i >= 0; i--)); do
		stop_one "$dir" "${names[$i]}" TERM
	done
}

random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

try_start() {
	local dir=$1 weed=$2
	local max=${S3SERVER_VOLUME_MAX:-40} minfree=${S3SERVER_MIN_FREE:-1}
	pick_ports
	local mp=${ports[0]} mg=${ports[1]} fp=${ports[8]} fg=${ports[9]} sp=${ports[10]} sg=${ports[11]}
	local log=(-logdir="$dir/log" -alsologtostderr=false)
	local -a cmds
	cmds[0]="$weed ${log[*]} master -ip=127.0.0.1 -ip.bind=127.0.0.1 -port=$mp -port.grpc=$mg -mdir=$dir/master -defaultReplication=001 -volumeSizeLimitMB=256 -telemetry=false"
	echo "$mp" >"$dir/run/master.port"
	echo "127.0.0.1:$mp.$mg" >"$dir/run/master.addr"
	local i
	for i in 1 2 3; do
		local vp=${ports[$((2 * i))]} vg=${ports[$((2 * i + 1))]}
		mkdir -p "$dir/volume$i"
		cmds[$i]="$weed ${log[*]} volume -ip=127.0.0.1 -ip.bind=127.0.0.1 -port=$vp -port.grpc=$vg -dir=$dir/volume$i -max=$max -minFreeSpace=$minfree -preStopSeconds=0 -master=127.0.0.1:$mp.$mg"
		echo "$vp" >"$dir/run/volume$i.port"
	done
	cmds[4]="$weed ${log[*]} filer -ip=127.0.0.1 -ip.bind=127.0.0.1 -port=$fp -port.grpc=$fg -master=127.0.0.1:$mp.$mg -defaultStoreDir=$dir/filer"
	echo "$fp" >"$dir/run/filer.port"
	cmds[5]="$weed ${log[*]} s3 -ip=127.0.0.1 -ip.bind=127.0.0.1 -port=$sp -port.grpc=$sg -port.iceberg=0 -port.lance=0 -filer=127.0.0.1:$fp.$fg -config=$dir/s3.json -autoCreateBucket=false"
	echo "$sp" >"$dir/run/s3.port"
	for i in "${!names[@]}"; do
		echo "${cmds[$i]}" >"$dir/run/${names[$i]}.cmd"
	done
	# The master first (the others register with it), the gateway last.
	launch "$dir" master
	for i in $(seq 1 600); do
		listening "$mp" && break
		alive "$dir" master || return 1
		sleep 0.1
	done
	# The filer joins the master some 10 seconds after it starts: it starts with the volume
	# servers.
	for i in 1 2 3; do launch "$dir" "volume$i"; done
	launch "$dir" filer
	ready "$dir" master || return 1
	ready "$dir" filer || return 1
	launch "$dir" s3
	ready "$dir" s3 || return 1
	echo "$sp"
}

cmd_start() {
	local dir=$1 weed attempt port key secret
	weed=$(weed_path)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	case $dir in *[[:space:]]*) die "the directory $dir has white space in its name" ;; esac
	[ -z "$(ls -A "$dir")" ] || die "$dir is not empty: start makes a new cluster (restart brings back a process of one)"
	key=pebblerf-$(random_hex 6)
	secret=$(random_hex 20)
	printf '{"identities":[{"name":"pebblerf","credentials":[{"accessKey":"%s","secretKey":"%s"}],"actions":["Admin","Read","List","Tagging","Write"]}]}\n' \
		"$key" "$secret" >"$dir/s3.json"
	# Another run may take a port between the check and the bind: try again on new ports,
	# with new data.
	for attempt in 1 2 3; do
		rm -rf "$dir/run" "$dir/master" "$dir/filer" "$dir"/volume[123]
		mkdir -p "$dir/run" "$dir/log" "$dir/master" "$dir/filer"
		if port=$(try_start "$dir" "$weed"); then
			cat >"$dir/env" <<EOF
export PEBBLERF_S3_TEST_URL='s3://pebblerf-test?endpoint=127.0.0.1:$port&secure=false&lookup=path&region=us-east-1&create_bucket=true'
export AWS_ACCESS_KEY_ID='$key'
export AWS_SECRET_ACCESS_KEY='$secret'
export AWS_SESSION_TOKEN=
EOF
			echo "s3server: S3 on 127.0.0.1:$port, data in $dir; source $dir/env" >&2
			return 0
		fi
		cmd_stop "$dir"
		echo "s3server: start attempt $attempt failed; logs in $dir/log" >&2
	done
	tail -n 20 "$dir"/log/*.out >&2 || true
	die "could not start SeaweedFS in $dir"
}

cmd_kill() {
	local dir=$1 name=$2
	alive "$dir" "$name" || die "$name is not running in $dir"
	stop_one "$dir" "$name" KILL
}

cmd_restart() {
	local dir=$1 name=$2
	[ -f "$dir/run/$name.cmd" ] || die "no $name in $dir"
	alive "$dir" "$name" && die "$name already runs in $dir"
	launch "$dir" "$name"
	ready "$dir" "$name" || die "$name did not come back; logs in $dir/log"
}

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

[ $# -ge 1 ] || usage
case $1 in
build)
	[ $# = 1 ] || usage
	weed_path
	;;
start | stop)
	[ $# = 2 ] || usage
	"cmd_$1" "$2"
	;;
kill | restart)
	[ $# = 3 ] || usage
	dir=$(cd "$2" && pwd) || die "no directory $2"
	case $3 in master | volume[123] | filer | s3) ;; *) die "unknown process $3 (${names[*]})" ;; esac
	"cmd_$1" "$dir" "$3"
	;;
*) usage ;;
esac
