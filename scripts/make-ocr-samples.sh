#!/usr/bin/env bash
# Remakes the scanned samples under samples/ (committed; this documents how they were made):
# two pages each of the English and Chinese "Guide for Debian Maintainers" (Debian's debmake-doc,
# Expat licence, see samples/SCANNED-SAMPLES.md) rendered to 150 dpi greyscale bitmaps with
# poppler's pdftoppm, wrapped as image-only PDFs with img2pdf, and one page kept as a PNG upload.
# Needs: apt-get install poppler-utils img2pdf (downloads the package with apt-get download).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download debmake-doc >/dev/null && dpkg-deb -x debmake-doc_*.deb tree)
docs="$work/tree/usr/share/doc/debmake-doc"
pdftoppm -gray -r 150 -png -f 9 -l 10 "$docs/debmake-doc.en.pdf" "$work/en"
pdftoppm -gray -r 150 -png -f 9 -l 10 "$docs/debmake-doc.zh-cn.pdf" "$work/zh"
img2pdf "$work"/en-*.png -o samples/scanned-debmake-guide.en.pdf
img2pdf "$work"/zh-*.png -o samples/扫描-debmake-指南.zh-cn.pdf
cp "$(ls "$work"/en-*.png | tail -1)" samples/scanned-page.en.png
ls -l samples/scanned-debmake-guide.en.pdf samples/扫描-debmake-指南.zh-cn.pdf samples/scanned-page.en.png
