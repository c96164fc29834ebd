import { chunkMarkdown } from '../../../chunker/chunkMarkdown';
import { applyOcrProvenance } from '../../../chunker/ocrProvenance';
import { ocrMarker, takeOcrMarks, textLayerMarker } from '../../../contracts/ocrMarkers';

const paragraph = (words: number, seed: string) =>
  Array.from({ length: words }, (_, i) => `${seed}${i}`).join(' ') + '.';

describe('OCR provenance in chunks', () => {
  it('strips the markers and gives each chunk the lowest confidence of the OCR pages it spans', () => {
    const markdown = [
      '# Typeset',
      paragraph(40, 'typeset'),
      ocrMarker(2, 0.95),
      '# Scanned',
      paragraph(40, 'scanned'),
      ocrMarker(3, 0.81),
      paragraph(40, 'smudged'),
      textLayerMarker(4),
      '# Typeset again',
      paragraph(40, 'again'),
    ].join('\n\n');
    const drafts = applyOcrProvenance(chunkMarkdown('doc', markdown, { maxTokens: 400, overlapTokens: 0 }));
    for (const draft of drafts) {
      expect(draft.text).not.toContain('<!--');
      expect(draft.charCount).toBe(draft.text.length);
    }
    const child = (word: string) => drafts.find((d) => d.kind === 'child' && d.text.includes(word))!;
    expect(child('typeset0').ocrConfidence).toBeNull();
    expect(child('scanned0').ocrConfidence).toBeCloseTo(0.81);
    expect(child('again0').ocrConfidence).toBeNull();
    const scannedParent = drafts.find((d) => d.kind === 'parent' && d.text.includes('scanned0'))!;
    expect(scannedParent.ocrConfidence).toBeCloseTo(0.81);
  });

  it('leaves the chunks of a document without OCR as they were', () => {
    const drafts = chunkMarkdown('doc', `# A\n\n${paragraph(30, 'w')}`, { maxTokens: 400, overlapTokens: 0 });
    expect(applyOcrProvenance(drafts)).toBe(drafts);
  });

  it('reads markers back in order and ignores look-alikes', () => {
    const text = `${ocrMarker(7, 0.9)}\n\nbody\n\n<!-- sluice:ocr page=x -->\n\n${textLayerMarker(8)}`;
    const { marks, text: rest } = takeOcrMarks(text);
    expect(marks).toEqual([
      { page: 7, confidence: 0.9, followedByText: true },
      { page: 8, confidence: null, followedByText: false },
    ]);
    expect(rest).toBe('body\n\n<!-- sluice:ocr page=x -->');
  });
});
