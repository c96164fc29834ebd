import { identifierTerms } from '../../search/identifierTerms';

describe('identifierTerms', () => {
  it('keeps the pieces written like code, as index terms', () => {
    expect(identifierTerms('dpkg --fsys-tarfile')).toEqual(['fsys-tarfile']);
    expect(identifierTerms('what does $SOURCE_DATE_EPOCH do')).toEqual(['source_date_epoch']);
    expect(identifierTerms('boot with rescue/enable=true')).toEqual(['rescue', 'enable', 'true']);
    expect(identifierTerms('R CMD REMOVE')).toEqual(['cmd', 'remove']);
  });

  it('finds none in a question in plain words', () => {
    expect(identifierTerms('How do I put a package on hold?')).toEqual([]);
    expect(identifierTerms('怎样保留软件包？')).toEqual([]);
  });
});
