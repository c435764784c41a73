#!/usr/bin/env bash
# One redis-server, two `belote serve --redis` processes and nginx in front of them, on this machine:
# the shape of a deployment on several machines (docs/architecture.md, "Several machines").
#
# Usage: deploy/run-two.sh [RUN_DIR]     (default: a new folder under /tmp)
# Environment: PORT (the proxy, 8080), PORT_A and PORT_B (the backends, 8001 and 8002),
#   REDIS_PORT (6380), BELOTE (the command, `belote`), HOST_NAME (the public name people reach the
#   proxy by, e.g. belote.example: the backends answer requests for it, for localhost and for IP
#   addresses), BELOTE_SERVE_ARGS (more options for both, e.g. "--turn-timer 60").
# Prints "ready: http://127.0.0.1:PORT" once the page answers through the proxy, then runs until
# stopped (Ctrl-C or SIGTERM stops all four). RUN_DIR keeps the Redis append-only file, the logs,
# nginx's config and each process's id (redis.pid, a.pid, b.pid, nginx.pid).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
run="${1:-$(mktemp -d /tmp/belote-deploy.XXXXXX)}"
mkdir -p "$run"
run="$(cd "$run" && pwd)"
port="${PORT:-8080}"
port_a="${PORT_A:-8001}"
port_b="${PORT_B:-8002}"
redis_port="${REDIS_PORT:-6380}"
read -r -a belote <<<"${BELOTE:-belote}"
read -r -a more <<<"${BELOTE_SERVE_ARGS:-}"
if [ -n "${HOST_NAME:-}" ]; then
    more+=(--host-name "$HOST_NAME")
fi
nginx="$(command -v nginx || echo /usr/sbin/nginx)"
redis_url="redis://127.0.0.1:$redis_port/0"

children=()
# shellcheck disable=SC2317  # called by the traps
stop() {
    trap - EXIT INT TERM
    for pid in "${children[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    # Ten seconds to finish what they are doing, then they are killed.
    for _ in $(seq 100); do
        alive=0
        for pid in "${children[@]}"; do
            kill -0 "$pid" 2>/dev/null && alive=1
        done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for pid in "${children[@]}"; do
        kill -9 "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 0' INT TERM

# Redis with its append-only file: a restart keeps the tables (a Redis that comes back empty all
# the same loses no table that a process still holds: it writes it back whole).
redis-server --port "$redis_port" --bind 127.0.0.1 --appendonly yes --save "" --dir "$run" \
    >"$run/redis.log" 2>&1 &
children+=($!)
echo $! >"$run/redis.pid"
for _ in $(seq 100); do
    redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
    sleep 0.1
done

for name in a b; do
    [ "$name" = a ] && p="$port_a" || p="$port_b"
    "${belote[@]}" serve --host 127.0.0.1 --port "$p" --redis "$redis_url" --db "$run/$name.sqlite3" \
        --forwarded-allow-ips 127.0.0.1 "${more[@]}" >"$run/$name.log" 2>&1 &
    children+=($!)
    echo $! >"$run/$name.pid"
done

sed -e "s|@RUN@|$run|g" -e "s|@PORT@|$port|g" -e "s|@PORT_A@|$port_a|g" -e "s|@PORT_B@|$port_b|g" \
    "$here/nginx.conf" >"$run/nginx.conf"
"$nginx" -p "$run" -c "$run/nginx.conf" -e "$run/nginx-error.log" -g "daemon off;" &
children+=($!)

for _ in $(seq 300); do
    if curl -fs -o /dev/null "http://127.0.0.1:$port_a/api/health" &&
        curl -fs -o /dev/null "http://127.0.0.1:$port_b/api/health" &&
        curl -fs -o /dev/null "http://127.0.0.1:$port/"; then
        echo "ready: http://127.0.0.1:$port"
        wait
        exit 0
    fi
    sleep 0.1
done
echo "the processes did not start: see the logs in $run" >&2
exit 1
