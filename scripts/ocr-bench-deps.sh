#!/usr/bin/env bash
# What `npm run bench:ocr` needs beyond npm's packages: Tesseract 5 with its English and Simplified
# Chinese data from Debian, the engine the benchmark measures beside PP-OCRv4. Idempotent: nothing
# is done when they are installed. Sluice itself (its OCR, its tests) needs none of this.
set -euo pipefail
need=()
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
for lang in eng chi-sim; do
  dpkg -s "tesseract-ocr-$lang" >/dev/null 2>&1 || need+=("tesseract-ocr-$lang")
done
((${#need[@]} == 0)) && exit 0
if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "bench:ocr: install ${need[*]} (Debian) to measure Tesseract beside PP-OCRv4" >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
