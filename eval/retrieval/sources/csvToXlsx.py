"""Writes a CSV file as one worksheet of an XLSX workbook with openpyxl: csvToXlsx.py IN OUT SHEET.

The retrieval eval's spreadsheet is written by a real spreadsheet library, as users' files are;
the header row is bold and frozen, as a person preparing the sheet would leave it.
"""
import csv
import sys

from openpyxl import Workbook
from openpyxl.styles import Font


def main(source: str, target: str, sheet: str) -> None:
    book = Workbook()
    ws = book.active
    ws.title = sheet
    with open(source, newline="", encoding="utf-8") as f:
        for row in csv.reader(f):
            ws.append(row)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    book.save(target)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
