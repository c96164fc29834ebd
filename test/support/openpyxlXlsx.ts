import { execFileSync } from 'node:child_process';

/**
 * A real XLSX written by openpyxl (Debian's python3-openpyxl, installed by .ci/run), not by our
 * own zip fixture: an inventory sheet of `rows` items and a short second sheet. Returns the path.
 */
export function openpyxlInventory(file: string, rows: number): string {
  const script = `
import sys
from openpyxl import Workbook
wb = Workbook()
ws = wb.active
ws.title = "Inventory"
ws.append(["Part number", "Description", "Warehouse", "Quantity", "Unit price"])
colours = ["red", "green", "blue", "black", "white", "amber", "violet"]
for i in range(int(sys.argv[2])):
    ws.append([f"P-{1000 + i}", f"{colours[i % 7]} bracket size {i % 13}", f"WH-{i % 5}", (i * 37) % 500, round(1.5 + (i % 17) * 0.25, 2)])
notes = wb.create_sheet("Suppliers")
notes.append(["Supplier", "Country"])
notes.append(["Acme Fasteners", "Germany"])
notes.append(["Northwind Metals", "Canada"])
wb.save(sys.argv[1])
`;
  execFileSync('/usr/bin/python3', ['-c', script, file, String(rows)], { stdio: 'pipe', timeout: 60_000 });
  return file;
}
