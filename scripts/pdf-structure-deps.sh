#!/usr/bin/env bash
# What `npm run bench:pdf-structure` needs beyond npm's packages, all pinned and cached in
# ~/.cache/sluice/pdf-structure: the renderers WeasyPrint and wkhtmltopdf (Debian; Chromium is
# expected at /usr/bin/chromium), the HTML manuals the corpus is cut from (Debian doc packages,
# downloaded and unpacked, never installed), and a Python venv with the peers pdfplumber and
# pymupdf4llm. Idempotent: what is there is not fetched again. Sluice itself needs none of this.
set -euo pipefail
cache="${SLUICE_PDF_BENCH_CACHE:-$HOME/.cache/sluice/pdf-structure}"
renderers=(weasyprint=57.2-1 wkhtmltopdf=0.12.6-2+b1)
docs=(
  postgresql-doc-15=15.20-0+deb12u1
  python3.11-doc=3.11.2-6+deb12u9
  apache2-doc=2.4.71-1~deb12u1
  sqlite3-doc=3.40.1-2+deb12u2
  debian-reference-en=2.100
)
# The peers and everything they pull in, so a new release of a dependency changes nothing.
python_pins=(
  pdfplumber==0.11.7 pdfminer.six==20250506 pypdfium2==5.15.2 pillow==13.0.0 charset-normalizer==3.5.3
  cryptography==51.0.1 cffi==2.1.1 pycparser==3.12
  pymupdf4llm==0.2.9 PyMuPDF==1.26.7 tabulate==0.10.0
)

# Each package's files go to docs/<package>_<version>; a finished unpack leaves a .done mark.
mkdir -p "$cache/docs" "$cache/debs"
for pin in "${docs[@]}"; do
  pkg="${pin%%=*}" version="${pin#*=}"
  target="$cache/docs/${pkg}_$version"
  [[ -f "$target/.done" ]] && continue
  (cd "$cache/debs" && apt-get download -qq -o APT::Sandbox::User=root "$pin")
  rm -rf "$target" && mkdir -p "$target"
  deb=$(ls "$cache/debs/${pkg}_"*.deb | grep -F "_${version//:/%3a}_")
  dpkg-deb -x "$deb" "$target"
  touch "$target/.done"
done

# The venv's name carries its pins, so a changed pin builds a new one instead of mixing versions.
venv="$cache/venv-$(printf '%s\n' "${python_pins[@]}" | sha1sum | cut -c1-10)"
if [[ ! -f "$venv/.done" ]]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${python_pins[@]}"
  touch "$venv/.done"
fi
ln -sfn "$venv" "$cache/venv"

need=()
for pin in "${renderers[@]}"; do
  [[ "$(dpkg-query -W -f='${Version}' "${pin%%=*}" 2>/dev/null)" == "${pin#*=}" ]] || need+=("$pin")
done
if ((${#need[@]} > 0)); then
  if [[ "$(id -u)" != 0 ]]; then
    echo "bench:pdf-structure: install ${need[*]} (Debian, as root)" >&2
    exit 1
  fi
  # Other installs may hold apt's lock for a while; wait for it rather than fail.
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
