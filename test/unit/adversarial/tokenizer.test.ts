import path from 'node:path';
import {
  chineseCompoundRun,
  digitRun,
  distinctWords,
  emojiRun,
  giantWord,
  hanRun,
  joinedIdentifier,
  punctuationRun,
  spaceRun,
  stackedMarks,
} from '../../../bench/adversarialChunkerInputs';
import { callOffThread, stopOffThreadCalls } from '../../../testkit/harness/offThread';
import type { TokenSummary } from '../../../testkit/fixtures/tokenSummary';

/**
 * Generated hostile text through tokenize() and the sparse weighting of its terms. Each input is big
 * enough that a quadratic step would run for minutes; it runs on a worker thread so that Jest's
 * timeout fails it then. Every result must hold only terms of at most 64 characters and give a
 * well-formed sparse vector.
 */
const SUMMARY = path.join(__dirname, '../../../testkit/fixtures/tokenSummary.ts');
const MILLION = 1_000_000;

afterEach(stopOffThreadCalls);

interface Case {
  name: string;
  make: () => string;
  check: (summary: TokenSummary) => void;
}

const noTerms = (summary: TokenSummary): void => expect(summary.count).toBe(0);

const cases: Case[] = [
  { name: 'a million-character word', make: () => giantWord(MILLION), check: noTerms },
  { name: 'a million digits', make: () => digitRun(MILLION), check: noTerms },
  { name: 'a million punctuation marks', make: () => punctuationRun(MILLION), check: noTerms },
  { name: 'half a million emoji', make: () => emojiRun(MILLION), check: noTerms },
  {
    name: 'two words around a million spaces',
    make: () => spaceRun(MILLION),
    check: (summary) => expect(summary.firstDistinct).toEqual(['opening', 'closing']),
  },
  {
    name: 'an identifier of 500,000 hyphenated parts',
    make: () => joinedIdentifier(MILLION),
    check: (summary) => expect(summary.firstDistinct).toEqual(['pg_stat_activity']),
  },
  {
    name: 'a letter under a million combining marks',
    make: () => stackedMarks(MILLION),
    check: (summary) => {
      expect(summary.count).toBe(2);
      expect(summary.firstDistinct[1]).toBe('café');
    },
  },
  {
    name: 'a million Han characters of one kind',
    make: () => hanRun(MILLION),
    check: (summary) => {
      expect(summary.count).toBeGreaterThan(MILLION / 4);
      expect(summary.firstDistinct.every((term) => /^数+$/.test(term))).toBe(true);
    },
  },
  {
    name: 'a million characters of Chinese compounds without punctuation',
    make: () => chineseCompoundRun(MILLION),
    check: (summary) => {
      expect(summary.count).toBeGreaterThan(MILLION / 7);
      expect(summary.firstDistinct).toEqual(expect.arrayContaining(['数据库', '管理', '系统']));
    },
  },
  {
    name: '125,000 distinct words',
    make: () => distinctWords(MILLION),
    check: (summary) => {
      expect(summary.distinct).toBe(MILLION / 8);
      // FNV-1a collisions merge a few dimensions; a handful in 125,000 at most.
      expect(summary.vectorTerms).toBeGreaterThan(summary.distinct - 20);
      expect(summary.queryTerms).toBe(summary.vectorTerms);
    },
  },
  {
    name: 'one word 200,000 times',
    make: () => 'word '.repeat(200_000),
    check: (summary) => {
      expect(summary.count).toBe(200_000);
      expect(summary.vectorTerms).toBe(1);
    },
  },
];

describe('tokenize and sparse weighting on generated hostile text', () => {
  it.each(cases)('$name', async ({ make, check }) => {
    const summary = await callOffThread<TokenSummary>(SUMMARY, 'summarizeTokens', make());
    expect(summary.longest).toBeLessThanOrEqual(64);
    expect(summary.wellFormed).toBe(true);
    check(summary);
  });
});
