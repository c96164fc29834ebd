import {
  MAX_WINDOWS,
  passageWindows,
  sentencesOf,
  WINDOW_SIZE,
  windowSize,
  windowsPerChild,
} from '../../../chunker/passageWindows';

const sentence = (i: number): string => `Sentence number ${i} says one plain thing about the shell and its options.`;
const child = (path: string, count: number): string =>
  `${path}\n${Array.from({ length: count }, (_, i) => sentence(i)).join(' ')}`;

describe('passage windows', () => {
  it('gives a child of one or two sentences no window: its own vector already is one', () => {
    expect(passageWindows('Bash › Startup files\nBash reads ~/.bashrc. Then it stops.')).toEqual([]);
    expect(passageWindows('')).toEqual([]);
  });

  it('starts every window with the child’s section path and keeps every sentence whole in one of them', () => {
    const text = child('Bash Features › Bash Startup Files', 12);
    const windows = passageWindows(text);
    expect(windows.length).toBeGreaterThan(1);
    for (const w of windows) expect(w.startsWith('Bash Features › Bash Startup Files\n')).toBe(true);
    for (let i = 0; i < 12; i++) expect(windows.some((w) => w.includes(sentence(i)))).toBe(true);
    for (const w of windows) expect(windowSize(w.slice(w.indexOf('\n') + 1))).toBeLessThanOrEqual(WINDOW_SIZE);
  });

  it('overlaps consecutive windows by one sentence, so a fact across a boundary is whole in one', () => {
    const windows = passageWindows(child('Guide', 12)).map((w) => sentencesOf(w.slice(w.indexOf('\n') + 1)));
    for (let i = 1; i < windows.length; i++) {
      const previous = windows[i - 1] as string[];
      expect((windows[i] as string[])[0]).toBe(previous[previous.length - 1]);
    }
  });

  it('cuts Chinese after its full stops, and sizes Han characters as half a word each', () => {
    expect(sentencesOf('第一句话。第二句话！第三句？')).toEqual(['第一句话。', '第二句话！', '第三句？']);
    expect(windowSize('工作进程')).toBe(2);
    const text = `指南 › 安装\n${'安装程序会检查磁盘空间是否足够并给出提示。'.repeat(30)}`;
    const windows = passageWindows(text);
    expect(windows.length).toBeGreaterThan(1);
    expect(windows.every((w) => w.startsWith('指南 › 安装\n'))).toBe(true);
  });

  it('does not cut a Latin sentence at a dot inside a word or a number', () => {
    expect(sentencesOf('Set PS1 in ~/.bashrc to 2.5 or 3.0 and reload. Done.')).toEqual([
      'Set PS1 in ~/.bashrc to 2.5 or 3.0 and reload.',
      'Done.',
    ]);
  });

  it('keeps a huge child to MAX_WINDOWS windows with every sentence in one', () => {
    const text = child('Reference', 2_000);
    const windows = passageWindows(text);
    expect(windows.length).toBeLessThanOrEqual(MAX_WINDOWS);
    expect(windows.some((w) => w.includes(sentence(1_999)))).toBe(true);
  });

  it('treats a long first line as prose, not as a path to repeat', () => {
    const first =
      'This first line is a long sentence of prose that is far longer than any section path would be, '.repeat(3);
    const windows = passageWindows(`${first}\n${Array.from({ length: 8 }, (_, i) => sentence(i)).join(' ')}`);
    expect(windows.length).toBeGreaterThan(1);
    expect(windows.filter((w) => w.includes('This first line')).length).toBe(1);
  });
});

describe('windows per document', () => {
  it('gives each child its share of the document cap, at most 12, and none below two', () => {
    expect(windowsPerChild(100, 20_000)).toBe(12);
    expect(windowsPerChild(5_000, 20_000)).toBe(4);
    expect(windowsPerChild(200_000, 20_000)).toBe(0);
    expect(windowsPerChild(0, 20_000)).toBe(12);
  });

  it('cuts a child into at most its share of windows, and into none when that is under two', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence ${i} says something about durable ingestion.`).join(
      ' ',
    );
    expect(passageWindows(text).length).toBeGreaterThan(3);
    expect(passageWindows(text, 3).length).toBeGreaterThanOrEqual(2);
    expect(passageWindows(text, 3).length).toBeLessThanOrEqual(3);
    expect(passageWindows(text, 3).join(' ')).toContain('Sentence 39');
    expect(passageWindows(text, 1)).toEqual([]);
  });
});
