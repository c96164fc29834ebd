import { MAX_CONFIRMED_BY_CHARS, planConfirmationShapeProblem } from '../../../contracts/planConfirmation';

describe('planConfirmationShapeProblem', () => {
  it.each([
    [undefined],
    [null],
    [{}],
    [{ strategy: 'qa', confirmedBy: 'alice' }],
    [{ parameters: { childTokens: 256, overlapTokens: 32, parentTokens: null } }],
    [{ confirmedBy: 'r'.repeat(MAX_CONFIRMED_BY_CHARS) }],
  ])('accepts a confirmation of the contract: %j', (confirmation) => {
    expect(planConfirmationShapeProblem(confirmation)).toBeNull();
  });

  it.each([
    ['a string', 'qa', 'must be an object'],
    ['an array', [], 'must be an object'],
    ['an unknown key', { strategy: 'qa', note: 'hi' }, 'unknown field "note"'],
    ['an unknown strategy', { strategy: 'bogus' }, 'unknown strategy bogus'],
    ['a number for confirmedBy', { confirmedBy: 7 }, 'confirmedBy must be a string'],
    ['an empty confirmedBy', { confirmedBy: '' }, 'confirmedBy must be 1 to 200'],
    ['a 300 KB confirmedBy', { confirmedBy: 'r'.repeat(300_000) }, 'confirmedBy must be 1 to 200'],
    ['a newline in confirmedBy', { confirmedBy: 'a\nb' }, 'control characters'],
    ['parameters that are not an object', { parameters: 5 }, 'parameters must be an object'],
    ['an unknown parameter', { parameters: { childTokens: 256, chunky: true } }, 'unknown parameter "chunky"'],
  ])('refuses %s', (_what, confirmation, problem) => {
    expect(planConfirmationShapeProblem(confirmation)).toContain(problem);
  });

  it('names a long unknown key by its first 40 characters only', () => {
    const problem = planConfirmationShapeProblem({ ['k'.repeat(100_000)]: 1 });
    expect(problem).toBe(`unknown field "${'k'.repeat(40)}"`);
  });
});
