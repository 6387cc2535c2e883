#!/usr/bin/env bash
# Sourced by ./test: a throwaway PostgreSQL cluster on loopback for the store contract tests.
#
# Leaves CHRONICLE_TEST_POSTGRES alone when it is already set (your own server). Otherwise
# initdb into a temporary directory (as the `postgres` user when running as root, since the
# server refuses to run as root), start it on a free port of 127.0.0.1 with its socket in
# /tmp, create the database `chronicle_test`, export CHRONICLE_TEST_POSTGRES, and stop and
# delete the cluster on exit (trap EXIT). Durability is off: the data is thrown away anyway.
# Without PostgreSQL binaries it says so and the PostgreSQL tests are skipped.

pg_cluster_start() {
  local bindir
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "pg-cluster: no PostgreSQL binaries found; PostgreSQL tests will be skipped" >&2
    return 0
  fi
  local as=()
  if [ "$(id -u)" = 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
      echo "pg-cluster: running as root without a postgres user; PostgreSQL tests skipped" >&2
      return 0
    fi
    as=(runuser -u postgres --)
  fi
  PG_CLUSTER_DIR=$(mktemp -d /tmp/chronicle-pg.XXXXXX)
  chmod 755 "$PG_CLUSTER_DIR"
  [ "$(id -u)" = 0 ] && chown postgres "$PG_CLUSTER_DIR"
  PG_CLUSTER_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  PG_CLUSTER_CTL=("${as[@]}" "$bindir/pg_ctl" -D "$PG_CLUSTER_DIR/data")
  "${as[@]}" "$bindir/initdb" -D "$PG_CLUSTER_DIR/data" -U chronicle --auth=trust \
    -E UTF8 --locale=C.UTF-8 >"$PG_CLUSTER_DIR/initdb.log" 2>&1 \
    || { cat "$PG_CLUSTER_DIR/initdb.log" >&2; return 1; }
  trap pg_cluster_stop EXIT
  "${PG_CLUSTER_CTL[@]}" -w -t 60 -l "$PG_CLUSTER_DIR/server.log" \
    -o "-k /tmp -p $PG_CLUSTER_PORT -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { cat "$PG_CLUSTER_DIR/server.log" >&2; return 1; }
  "${as[@]}" "$bindir/createdb" -h 127.0.0.1 -p "$PG_CLUSTER_PORT" -U chronicle chronicle_test
  export CHRONICLE_TEST_POSTGRES="postgresql://chronicle@127.0.0.1:$PG_CLUSTER_PORT/chronicle_test"
  echo "pg-cluster: PostgreSQL on $CHRONICLE_TEST_POSTGRES" >&2
}

pg_cluster_stop() {
  if [ -n "${PG_CLUSTER_DIR:-}" ] && [ -d "$PG_CLUSTER_DIR" ]; then
    "${PG_CLUSTER_CTL[@]}" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_CLUSTER_DIR"
  fi
}

if [ -z "${CHRONICLE_TEST_POSTGRES:-}" ]; then
  pg_cluster_start
fi
