/** A line of text placed at a font size; `mono` sets it in Courier. */
export interface FixtureLine {
  text: string;
  size?: number;
  mono?: boolean;
  /** Left edge in points (default 72). */
  x?: number;
}

/** A bookmark: its page (0-based), the top of its destination (omitted: the whole page), children. */
export interface FixtureBookmark {
  title: string;
  page: number;
  top?: number;
  children?: FixtureBookmark[];
}

/** Baseline of the n-th (0-based) line of a fixture page whose lines all have this size and no gaps. */
export function fixtureBaseline(n: number, size = 10): number {
  return 740 - n * size * 1.2;
}

/**
 * Writes a small but well-formed PDF (catalog, pages, Helvetica/Courier, one content stream per
 * page, a correct xref table) so parser tests control the layout exactly. Lines run down the
 * page with a line pitch of 1.2× their size and an extra gap before a line marked by an empty
 * string. `encrypted` adds a Standard security handler whose user password is not empty.
 * `outline` adds bookmarks; with `namedDestinations` they point at named destinations (a /Dests
 * name tree, as LaTeX's hyperref writes them) rather than at explicit ones.
 */
export function fixturePdf(
  pages: FixtureLine[][],
  options: { encrypted?: boolean; outline?: FixtureBookmark[]; namedDestinations?: boolean } = {},
): Buffer {
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
  const outline = options.outline
    ? addOutline(
        { add, set: (id, body) => (objects[id - 1] = body) },
        options.outline,
        kids,
        options.namedDestinations === true,
      )
    : '';
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R${outline} >>`;
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

/** Writes the outline items (PDF 32000 §12.3.3); returns the catalog entries that point at them. */
function addOutline(
  { add, set }: { add: (body: string) => number; set: (id: number, body: string) => void },
  roots: FixtureBookmark[],
  kids: number[],
  named: boolean,
): string {
  const names: string[] = [];
  const destination = (mark: FixtureBookmark): string => {
    const page = kids[mark.page];
    if (page === undefined)
      throw new Error(`bookmark ${mark.title} points at page ${mark.page}, which the fixture lacks`);
    const explicit = mark.top === undefined ? `[${page} 0 R /Fit]` : `[${page} 0 R /XYZ 72 ${mark.top} null]`;
    if (!named) return explicit;
    const name = `d${String(names.length).padStart(5, '0')}`;
    names.push(`(${name}) ${explicit}`);
    return `(${name})`;
  };
  const root = add('');
  const level = (marks: FixtureBookmark[], parent: number): number[] => {
    const ids = marks.map(() => add(''));
    marks.forEach((mark, i) => {
      const children = level(mark.children ?? [], ids[i]!);
      const links = [
        i > 0 ? `/Prev ${ids[i - 1]} 0 R` : '',
        i < ids.length - 1 ? `/Next ${ids[i + 1]} 0 R` : '',
        children.length > 0
          ? `/First ${children[0]} 0 R /Last ${children[children.length - 1]} 0 R /Count ${children.length}`
          : '',
      ].join(' ');
      set(ids[i]!, `<< /Title (${escapePdf(mark.title)}) /Parent ${parent} 0 R /Dest ${destination(mark)} ${links} >>`);
    });
    return ids;
  };
  const top = level(roots, root);
  set(root, `<< /Type /Outlines /First ${top[0]} 0 R /Last ${top[top.length - 1]} 0 R /Count ${top.length} >>`);
  const nameTree = named ? ` /Names << /Dests ${add(`<< /Names [${names.join(' ')}] >>`)} 0 R >>` : '';
  return ` /Outlines ${root} 0 R /PageMode /UseOutlines${nameTree}`;
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
    ops.push(
      `BT /${line.mono ? 'F2' : 'F1'} ${size} Tf ${line.x ?? 72} ${y.toFixed(1)} Td (${escapePdf(line.text)}) Tj ET`,
    );
    y -= size * 1.2;
  }
  return ops.join('\n');
}

/** PDF string syntax, in WinAnsiEncoding (where the bullet is 0x95). */
function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/\u2022/g, '\x95');
}
