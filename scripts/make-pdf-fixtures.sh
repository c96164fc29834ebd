#!/usr/bin/env bash
# Remakes the rendered PDF fixtures under testkit/fixtures/pdf/ (committed; this documents how they
# were made): each HTML page there printed by WeasyPrint, which writes list markers after the page's
# text and embeds monospaced fonts without the fixed-pitch flag, the two cases these fixtures test.
# Needs: apt-get install weasyprint.
set -euo pipefail
cd "$(dirname "$0")/../testkit/fixtures/pdf"
for html in *.html; do
  weasyprint "$html" "weasyprint-${html%.html}.pdf"
done
ls -l ./*.pdf
