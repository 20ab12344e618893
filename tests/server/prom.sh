# tests/server/prom.sh: a real Prometheus and a real blackbox_exporter for
# the serve tests (POSIX sh; source it after lib.sh and hs_init).
#
# Both are Debian's packages (prometheus, prometheus-blackbox-exporter),
# started in the foreground of a background job on free loopback ports,
# with their configuration and data inside the run's scratch directory,
# and stopped by lib.sh's cleanup like every other server.  Prometheus
# scrapes each prober with the relabel configuration that blackbox_exporter's
# README gives (target -> __param_target -> instance, __address__ -> the
# prober), so a job written for blackbox and one written for hopsplit serve
# differ only in the prober's address.
#
#   hs_start_blackbox DIR [FILE]  blackbox_exporter with module http_2xx
#                              (IPv4, the test CA, $HS_BLACKBOX_TIMEOUT,
#                              default 5s), or the modules of FILE, on
#                              $BLACKBOX_PORT; names from the file
#                              $HS_BLACKBOX_HOSTS when set (unshare -m)
#   hs_start_serve DIR ARGS... $HOPSPLIT serve --listen 127.0.0.1:0 ARGS, its
#                              port (from its first line) in $SERVE_PORT, its
#                              stderr in DIR/serve.err
#   hs_start_loadtarget MODE DIR [DELAY]
#                              tests/server/loadtarget.py MODE (slow: HTTP
#                              answered after DELAY s, default 3; dead: a
#                              connect that never completes) on
#                              $LT_PORT, its pid in $LT_PID, its log (the
#                              slow one's count, after SIGTERM) DIR/MODE.log
#   hs_prom_job NAME ADDR MODULE URL...
#                              add a blackbox-style scrape job (before start)
#   hs_prom_self NAME ADDR     add a plain job scraping ADDR/metrics
#   hs_start_prometheus DIR    Prometheus on $PROM_PORT, every job above,
#                              scrape interval $HS_PROM_INTERVAL (1s)
#   hs_prom_check EXPR PYCHECK [SECONDS]
#                              ask /api/v1/query until PYCHECK holds on the
#                              answer (at most SECONDS, default 20), log the
#                              query and the answer; fail otherwise
#   hs_prom_value EXPR         print the single value of EXPR (no waiting)
#
# Every query and its answer is appended to $HS_DIR/prom-queries.log and
# shown on stderr, so `ctest -V` prints what Prometheus answered.  Every
# bound is multiplied by $HS_TF (HOPSPLIT_TEST_TIMEOUT_FACTOR, lib.sh).

HS_PROM_JOBS=
: "${HS_PROM_INTERVAL:=1s}"

# hs_prom_yaml_list URL...: a YAML flow list of quoted strings.
hs_prom_yaml_list() {
  hs_sep=
  printf '['
  for hs_u in "$@"; do
    printf '%s"%s"' "$hs_sep" "$hs_u"
    hs_sep=', '
  done
  printf ']'
}

# hs_prom_job NAME ADDR MODULE URL...: a job that probes each URL through
# the prober at ADDR (host:port) with MODULE, relabelled as blackbox's
# README says.
hs_prom_job() {
  hs_jn=$1
  hs_ja=$2
  hs_jm=$3
  shift 3
  HS_PROM_JOBS="$HS_PROM_JOBS
  - job_name: $hs_jn
    metrics_path: /probe
    params:
      module: [$hs_jm]
    static_configs:
      - targets: $(hs_prom_yaml_list "$@")
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: $hs_ja"
}

# hs_prom_self NAME ADDR: a job that scrapes the prober's own /metrics.
hs_prom_self() {
  HS_PROM_JOBS="$HS_PROM_JOBS
  - job_name: $1
    static_configs:
      - targets: [\"$2\"]"
}

# hs_wait_http URL PID WHAT: wait (at most 10 s) until URL answers 200, or
# fail when PID exits.
hs_wait_http() {
  hs_i=0
  while [ "$hs_i" -lt $((100 * HS_TF)) ]; do
    hs_is_running "$2" || return 1
    if curl -q -sS -f -o /dev/null --max-time 2 --noproxy '*' "$1" \
      2>/dev/null; then
      return 0
    fi
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  hs_fail "$3 started but does not answer $1"
}

# hs_start_blackbox DIR: blackbox_exporter with its own configuration.
# Module http_2xx: IPv4 first (the origin listens on 127.0.0.1), the test
# CA as trust anchor, 5 s timeout (or $HS_BLACKBOX_TIMEOUT); everything
# else as blackbox defaults.
hs_start_blackbox() {
  hs_d=$1
  mkdir -p "$hs_d" || hs_fail "cannot create $hs_d"
  [ -n "${CA_FILE:-}" ] || hs_fail "hs_start_blackbox: call hs_make_ca first"
  if [ -n "${2:-}" ]; then
    cp "$2" "$hs_d/blackbox.yml" || hs_fail "cannot copy $2"
  else
    cat >"$hs_d/blackbox.yml" <<EOF
modules:
  http_2xx:
    prober: http
    timeout: ${HS_BLACKBOX_TIMEOUT:-5s}
    http:
      preferred_ip_protocol: ip4
      tls_config:
        ca_file: $CA_FILE
EOF
  fi
  prometheus-blackbox-exporter --config.file="$hs_d/blackbox.yml" \
    --config.check >"$hs_d/check.log" 2>&1 || {
    cat "$hs_d/check.log" >&2
    hs_fail "blackbox_exporter rejects its configuration"
  }
  hs_try=0
  while [ "$hs_try" -lt 5 ]; do
    hs_try=$((hs_try + 1))
    BLACKBOX_PORT=$(hs_free_port) || hs_fail "no free port"
    # HS_BLACKBOX_HOSTS: an /etc/hosts of the test's for Go's resolver,
    # bind-mounted in a private mount namespace (root; the machine's file
    # is untouched).
    if [ -n "${HS_BLACKBOX_HOSTS:-}" ]; then
      unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' \
        sh "$HS_BLACKBOX_HOSTS" prometheus-blackbox-exporter \
        --config.file="$hs_d/blackbox.yml" \
        --web.listen-address="127.0.0.1:$BLACKBOX_PORT" --log.level=debug \
        </dev/null >"$hs_d/blackbox.log" 2>&1 &
    else
      prometheus-blackbox-exporter --config.file="$hs_d/blackbox.yml" \
        --web.listen-address="127.0.0.1:$BLACKBOX_PORT" --log.level=debug \
        </dev/null >"$hs_d/blackbox.log" 2>&1 &
    fi
    hs_pid=$!
    hs_track "$hs_pid"
    if hs_wait_http "http://127.0.0.1:$BLACKBOX_PORT/metrics" "$hs_pid" \
      blackbox_exporter; then
      BLACKBOX_PID=$hs_pid
      export BLACKBOX_PORT BLACKBOX_PID
      return 0
    fi
    grep -q 'in use' "$hs_d/blackbox.log" || {
      cat "$hs_d/blackbox.log" >&2
      hs_fail "blackbox_exporter did not start"
    }
    hs_log "blackbox_exporter: port taken, retrying"
  done
  hs_fail "blackbox_exporter: no free port after $hs_try tries"
}

# hs_start_serve DIR ARGS...: hopsplit serve on a port the kernel picks
# (no race); it says which on its first line of stderr.
hs_start_serve() {
  hs_d=$1
  shift
  mkdir -p "$hs_d" || hs_fail "cannot create $hs_d"
  : >"$hs_d/serve.err"
  "$HOPSPLIT" serve --listen 127.0.0.1:0 "$@" </dev/null \
    >"$hs_d/serve.out" 2>"$hs_d/serve.err" &
  hs_pid=$!
  hs_track "$hs_pid"
  hs_i=0
  SERVE_PORT=
  while [ "$hs_i" -lt $((100 * HS_TF)) ]; do
    SERVE_PORT=$(sed -n 's|^hopsplit: serve: listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' \
      "$hs_d/serve.err")
    [ -n "$SERVE_PORT" ] && break
    hs_is_running "$hs_pid" || break
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  if [ -z "$SERVE_PORT" ]; then
    cat "$hs_d/serve.err" >&2
    hs_fail "hopsplit serve did not start"
  fi
  SERVE_PID=$hs_pid
  SERVE_ERR=$hs_d/serve.err
  export SERVE_PORT SERVE_PID SERVE_ERR
}

# hs_start_loadtarget MODE DIR [DELAY]: a target for many probes at once.
hs_start_loadtarget() {
  hs_m=$1
  hs_d=$2
  mkdir -p "$hs_d" || hs_fail "cannot create $hs_d"
  rm -f "$hs_d/$hs_m.port"
  "$HS_PYTHON" "$HS_LIB_DIR/loadtarget.py" "$hs_m" "$hs_d/$hs_m.port" \
    $((3600 * HS_TF)) "${3:-3}" </dev/null >"$hs_d/$hs_m.log" 2>&1 &
  LT_PID=$!
  hs_track "$LT_PID"
  hs_i=0
  while [ ! -s "$hs_d/$hs_m.port" ]; do
    hs_is_running "$LT_PID" || break
    hs_i=$((hs_i + 1))
    [ "$hs_i" -lt $((100 * HS_TF)) ] || break
    sleep 0.1
  done
  [ -s "$hs_d/$hs_m.port" ] || {
    cat "$hs_d/$hs_m.log" >&2
    hs_fail "loadtarget $hs_m did not start"
  }
  LT_PORT=$(cat "$hs_d/$hs_m.port")
  export LT_PORT LT_PID
}

# hs_start_prometheus DIR: Prometheus scraping every job added so far, its
# TSDB in DIR/data, its API on 127.0.0.1:$PROM_PORT.
hs_start_prometheus() {
  hs_d=$1
  mkdir -p "$hs_d/data" || hs_fail "cannot create $hs_d"
  [ -n "$HS_PROM_JOBS" ] || hs_fail "hs_start_prometheus: no job added"
  cat >"$hs_d/prometheus.yml" <<EOF
global:
  scrape_interval: $HS_PROM_INTERVAL
  scrape_timeout: $HS_PROM_INTERVAL
  evaluation_interval: $HS_PROM_INTERVAL
scrape_configs:$HS_PROM_JOBS
EOF
  promtool check config "$hs_d/prometheus.yml" >"$hs_d/check.log" 2>&1 || {
    cat "$hs_d/prometheus.yml" "$hs_d/check.log" >&2
    hs_fail "promtool rejects the Prometheus configuration"
  }
  hs_try=0
  while [ "$hs_try" -lt 5 ]; do
    hs_try=$((hs_try + 1))
    PROM_PORT=$(hs_free_port) || hs_fail "no free port"
    prometheus --config.file="$hs_d/prometheus.yml" \
      --storage.tsdb.path="$hs_d/data" \
      --web.listen-address="127.0.0.1:$PROM_PORT" \
      --web.console.templates="$hs_d" --web.console.libraries="$hs_d" \
      </dev/null >"$hs_d/prometheus.log" 2>&1 &
    hs_pid=$!
    hs_track "$hs_pid"
    if hs_wait_http "http://127.0.0.1:$PROM_PORT/-/ready" "$hs_pid" \
      prometheus; then
      PROM_PID=$hs_pid
      PROM_URL=http://127.0.0.1:$PROM_PORT
      export PROM_PORT PROM_PID PROM_URL
      return 0
    fi
    grep -q 'in use' "$hs_d/prometheus.log" || {
      cat "$hs_d/prometheus.log" >&2
      hs_fail "prometheus did not start"
    }
    hs_log "prometheus: port taken, retrying"
  done
  hs_fail "prometheus: no free port after $hs_try tries"
}

# hs_prom_check EXPR PYCHECK [SECONDS]: see promq.py for the names PYCHECK
# may use (rows, vals, one, by).
hs_prom_check() {
  "$HS_PYTHON" "$HS_LIB_DIR/promq.py" --wait "$((${3:-20} * HS_TF))" \
    --log "$HS_DIR/prom-queries.log" --check "$2" "$PROM_URL" "$1" ||
    hs_fail "Prometheus: '$1' does not satisfy: $2"
}

# hs_prom_value EXPR: the value of a query that has exactly one series.
hs_prom_value() {
  "$HS_PYTHON" "$HS_LIB_DIR/promq.py" --value "$PROM_URL" "$1" ||
    hs_fail "Prometheus: '$1' has not exactly one series"
}
