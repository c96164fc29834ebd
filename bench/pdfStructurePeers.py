"""The Python peers of `npm run bench:pdf-structure`, run in the venv of scripts/pdf-structure-deps.sh.

Usage: python pdfStructurePeers.py <side> < paths
where <side> is pymupdf4llm or pdfplumber and stdin holds one PDF path a line. The interpreter and
the library are loaded once, before the first file, so start-up is not charged to any file. Each
file's parse is timed here (wall clock and this process's CPU time) and written as one JSON line:
{"path", "seconds", "cpuSeconds", "markdown"}. Whatever the libraries print goes to stderr, so that
stdout carries only those lines.
"""

import contextlib
import json
import sys
import time


def pymupdf4llm_side():
    import pymupdf4llm

    return lambda path: pymupdf4llm.to_markdown(path, show_progress=False)


def markdown_table(rows):
    """pdfplumber's table (rows of cells, None for a merged cell) as a markdown table."""

    def cell(text):
        return " ".join((text or "").split()).replace("|", "\\|")

    width = max(len(row) for row in rows)
    lines = []
    for index, row in enumerate(rows):
        cells = [cell(text) for text in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if index == 0:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)


def pdfplumber_side():
    """Text for the words, then the page's tables as markdown: pdfplumber has no lists or headings."""
    import pdfplumber

    def parse(path):
        parts = []
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                parts.append(page.extract_text() or "")
                parts.extend(markdown_table(rows) for rows in page.extract_tables() if rows)
        return "\n\n".join(parts)

    return parse


def main():
    with contextlib.redirect_stdout(sys.stderr):
        parse = {"pymupdf4llm": pymupdf4llm_side, "pdfplumber": pdfplumber_side}[sys.argv[1]]()
    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        started, cpu_started = time.perf_counter(), time.process_time()
        try:
            with contextlib.redirect_stdout(sys.stderr):
                markdown = parse(path)
        except Exception as error:  # a failed file scores nothing; the run goes on
            markdown = ""
            print(f"{sys.argv[1]}: {path}: {error}", file=sys.stderr)
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
        line = {"path": path, "seconds": seconds, "cpuSeconds": cpu_seconds, "markdown": markdown}
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
