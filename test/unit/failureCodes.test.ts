import { FAILURE_REASON_MAX, formatFailureReason, isFailureCode } from '../../contracts/failureCodes';
import { firstUnfinishedStage, allPending } from '../../contracts/stages';
import { objectKeys } from '../../stores/objectKeys';

describe('failure reasons', () => {
  it('prefix the code and never exceed the column size', () => {
    expect(formatFailureReason('EMPTY_DOCUMENT', 'nothing left')).toBe('EMPTY_DOCUMENT: nothing left');
    const long = formatFailureReason('PARSE_ENGINE_FAILED', 'x'.repeat(5000));
    expect(long).toHaveLength(FAILURE_REASON_MAX);
    expect(long.startsWith('PARSE_ENGINE_FAILED: ')).toBe(true);
  });

  it('recognise only the listed codes', () => {
    expect(isFailureCode('VECTORIZING_FAILED')).toBe(true);
    expect(isFailureCode('TypeError')).toBe(false);
  });
});

describe('firstUnfinishedStage', () => {
  it('is the first stage that is not SUCCESS', () => {
    const statuses = allPending();
    statuses.CLEANING = 'SUCCESS';
    statuses.CHUNKING = 'SUCCESS';
    statuses.PRETOKENIZE = 'SUCCESS';
    expect(firstUnfinishedStage(statuses)).toBe('VECTORIZING');
  });
});

describe('object keys', () => {
  it('are built from ids, escaping anything that is not key-safe in a user id', () => {
    expect(objectKeys.source('alice', 'doc-1')).toBe('documents/alice/doc-1/source');
    expect(objectKeys.source('../../etc', 'd')).toBe('documents/.002e.002e.002f.002e.002e.002fetc/d/source');
    // Fixed-width escapes: '中' and 'N2d' would collide with variable-width hex.
    expect(objectKeys.source('中', 'd')).not.toBe(objectKeys.source('N2d', 'd'));
  });
});
