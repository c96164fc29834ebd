import { htmlSourceWords } from '../../../testkit/fixtures/wordCoverage';

/** The word-coverage measure's source side for HTML: what a reader sees, the navigation left out. */
describe('htmlSourceWords', () => {
  it('breaks words at block boundaries, so cells and terms do not run together ("reservednon")', () => {
    expect(
      htmlSourceWords(
        '<table><tr><td>reserved</td><td>non-reserved</td></tr></table><dl><dt>Functions</dt><dd>pg_x</dd></dl>',
      ),
    ).toEqual(['reserved', 'non', 'reserved', 'Functions', 'pg', 'x']);
  });

  it('runs text on across inline tags and entities, as a browser shows it', () => {
    expect(htmlSourceWords('<p>table <acronym>TID</acronym>s, 2<sup>31</sup>, caf&eacute;s</p>')).toEqual([
      'table',
      'TIDs',
      '231',
      'cafés',
    ]);
  });

  it('leaves out the head, scripts and the navigation: DocBook navheader, navfooter and local contents', () => {
    const page =
      '<html><head><title>T</title></head><body><div class="navheader">Prev Up</div><div class="chapter"><h2>Backup</h2>' +
      '<div class="toc"><dl class="toc"><dt>26.1 Dump</dt></dl></div><p>Body text.</p><script>track()</script></div>' +
      '<div class="navfooter">Next Home</div></body></html>';
    expect(htmlSourceWords(page)).toEqual(['Backup', 'Body', 'text']);
  });
});
