# shellcheck shell=bash
# pgvector for the local PostgreSQL (scripts/stack/postgres.sh): the `vector` extension sluice's
# Postgres vector store needs (stores/postgresDenseTable.ts). No Debian release of bookworm ships it
# built for PostgreSQL 15, but the archive serves its source package: it is fetched with apt's
# signed indexes (a deb-src line for the suite after bookworm, in lists of our own), built against
# the server's headers, and the built files cached, so a second machine run copies them back.
# Sourced after lib.sh and postgres.sh.

PGVECTOR_DEB_VERSION="0.8.0-1"
PGVECTOR_VERSION="${PGVECTOR_DEB_VERSION%-*}"
PGVECTOR_SOURCE_SUITE="trixie"
PGVECTOR_CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}/pgvector"

# Where the server looks for extensions: Debian's layout for the major version of PG_BINDIR.
pgvector_pg_major() { basename "$(dirname "$PG_BINDIR")"; }
pgvector_libdir() { printf '/usr/lib/postgresql/%s/lib\n' "$(pgvector_pg_major)"; }
pgvector_extdir() { printf '/usr/share/postgresql/%s/extension\n' "$(pgvector_pg_major)"; }

pgvector_installed() {
  [[ -f "$(pgvector_libdir)/vector.so" && -f "$(pgvector_extdir)/vector--$PGVECTOR_VERSION.sql" ]]
}

# The built files of this version for this server major, as `make install` lays them out.
pgvector_cached_dir() { printf '%s/%s-pg%s\n' "$PGVECTOR_CACHE" "$PGVECTOR_DEB_VERSION" "$(pgvector_pg_major)"; }

pgvector_copy_in() {
  local cached
  cached="$(pgvector_cached_dir)"
  install -m 755 "$cached/lib/vector.so" "$(pgvector_libdir)/vector.so"
  install -m 644 "$cached/extension/"vector* "$(pgvector_extdir)/"
}

# Fetches the pinned source package and builds it into the cache (needs root: apt and the headers).
pgvector_build() {
  local major work lists
  major="$(pgvector_pg_major)"
  work="$(mktemp -d)"
  lists="$PGVECTOR_CACHE/apt-lists"
  mkdir -p "$lists/partial"
  printf 'deb-src http://deb.debian.org/debian %s main\n' "$PGVECTOR_SOURCE_SUITE" >"$work/sources.list"
  local apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$lists")
  say "pgvector: building $PGVECTOR_DEB_VERSION from Debian's source package against PostgreSQL $major"
  stack_apt_install "postgresql-server-dev-$major" >>"$STACK_INSTALL_LOG" 2>&1 \
    || die "pgvector: apt-get install postgresql-server-dev-$major failed (details in $STACK_INSTALL_LOG)"
  (
    cd "$work"
    apt-get "${apt_opts[@]}" update -qq \
      && apt-get "${apt_opts[@]}" source -qq "pgvector=$PGVECTOR_DEB_VERSION" \
      && cd "pgvector-$PGVECTOR_VERSION" \
      && make -j2 PG_CONFIG="$PG_BINDIR/pg_config" with_llvm=no OPTFLAGS="" \
      && make install PG_CONFIG="$PG_BINDIR/pg_config" with_llvm=no DESTDIR="$work/stage"
  ) >>"$STACK_INSTALL_LOG" 2>&1 || die "pgvector: fetching or building the source package failed (details in $STACK_INSTALL_LOG)"
  local cached
  cached="$(pgvector_cached_dir)"
  rm -rf "$cached" && mkdir -p "$cached/lib" "$cached/extension"
  cp "$work/stage/usr/lib/postgresql/$major/lib/vector.so" "$cached/lib/"
  cp "$work/stage/usr/share/postgresql/$major/extension/"vector* "$cached/extension/"
  rm -rf "$work"
}

pgvector_install() {
  pgvector_installed && return 0
  is_root || die "pgvector is not installed for PostgreSQL $(pgvector_pg_major) and installing it needs root (see docs/operations.md)"
  [[ -f "$(pgvector_cached_dir)/lib/vector.so" ]] || pgvector_build
  pgvector_copy_in
  pgvector_installed || die "pgvector: the files did not land in $(pgvector_libdir) and $(pgvector_extdir)"
  say "pgvector: $PGVECTOR_VERSION installed"
}
