/** A line of text placed at a font size; `mono` sets it in Courier. */
export interface FixtureLine {
  text: string;
  size?: number;
  mono?: boolean;
  /** Left edge in points (default 72). */
  x?: number;
}

/**
 * Writes a small but well-formed PDF (catalog, pages, Helvetica/Courier, one content stream per
 * page, a correct xref table) so parser tests control the layout exactly. Lines run down the
 * page with a line pitch of 1.2× their size and an extra gap before a line marked by an empty
 * string. `encrypted` adds a Standard security handler whose user password is not empty.
 */
export function fixturePdf(pages: FixtureLine[][], options: { encrypted?: boolean } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const helvetica = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const courier = add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const stream = contentStream(lines);
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 ${helvetica} 0 R /F2 ${courier} 0 R >> >> >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const encrypt = options.encrypted
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`)
    : null;

  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const extra = encrypt ? ` /Encrypt ${encrypt} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]` : '';
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${extra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

function contentStream(lines: FixtureLine[]): string {
  let y = 740;
  const ops: string[] = [];
  for (const line of lines) {
    const size = line.size ?? 10;
    if (line.text === '') {
      y -= size;
      continue;
    }
    ops.push(`BT /${line.mono ? 'F2' : 'F1'} ${size} Tf ${line.x ?? 72} ${y.toFixed(1)} Td (${escapePdf(line.text)}) Tj ET`);
    y -= size * 1.2;
  }
  return ops.join('\n');
}

/** PDF string syntax, in WinAnsiEncoding (where the bullet is 0x95). */
function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/\u2022/g, '\x95');
}
