import { isIdentifierQuery } from '../../search/identifierTerms';
import { asks, DEFAULT_SEARCH_SETTINGS, forIdentifierQuery } from '../../search/searchSettings';

describe('a query of identifiers only', () => {
  it('is one with no word beside its identifiers', () => {
    expect(isIdentifierQuery('start-stop-daemon')).toBe(true);
    expect(isIdentifierQuery('/var/lib/dpkg/info $SOURCE_DATE_EPOCH')).toBe(true);
    expect(isIdentifierQuery('what does start-stop-daemon do')).toBe(false);
    expect(isIdentifierQuery('Installed-Size 字段')).toBe(false);
    expect(isIdentifierQuery('   ')).toBe(false);
  });

  it('asks no dense list under the default factor, and asks the keyword index once', () => {
    const settings = forIdentifierQuery(DEFAULT_SEARCH_SETTINGS);
    expect(asks(settings, 'dense')).toBe(false);
    expect(asks(settings, 'languageDense')).toBe(false);
    expect(asks(settings, 'passage')).toBe(false);
    expect(asks(settings, 'sparse')).toBe(true);
    expect(asks(settings, 'keyword')).toBe(true);
    // Its identifiers are the whole query: the identifier list would be the keyword list again.
    expect(asks(settings, 'identifier')).toBe(false);
    expect(settings.weights.sparse).toBe(DEFAULT_SEARCH_SETTINGS.weights.sparse);
    expect(settings.weights.keyword).toBe(DEFAULT_SEARCH_SETTINGS.weights.keyword);
  });

  it('scales the dense weights by another factor when given one', () => {
    const settings = forIdentifierQuery(DEFAULT_SEARCH_SETTINGS, 0.5);
    expect(settings.weights.dense).toBe(DEFAULT_SEARCH_SETTINGS.weights.dense * 0.5);
    expect(settings.weights.languageDense).toBe(DEFAULT_SEARCH_SETTINGS.weights.languageDense * 0.5);
    expect(settings.weights.passage).toBe(DEFAULT_SEARCH_SETTINGS.weights.passage * 0.5);
  });

  it('asks the passage windows with the second dense vector’s model only', () => {
    expect(asks(DEFAULT_SEARCH_SETTINGS, 'passage')).toBe(true);
    expect(asks({ ...DEFAULT_SEARCH_SETTINGS, denseModels: ['user'] }, 'passage')).toBe(false);
    expect(
      asks({ ...DEFAULT_SEARCH_SETTINGS, weights: { ...DEFAULT_SEARCH_SETTINGS.weights, passage: 0 } }, 'passage'),
    ).toBe(false);
  });
});
