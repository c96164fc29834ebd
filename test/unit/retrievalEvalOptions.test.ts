import { parseArgs } from '../../eval/retrieval/options';

describe('eval:retrieval options', () => {
  it('reads a child size per strategy and names the output after it', () => {
    const options = parseArgs(['--child-tokens=table:100,qa:256']);
    expect(options.childTokens).toEqual({ table: 100, qa: 256 });
    expect(options.out).toBe('retrieval-table100-qa256.json');
  });

  it('runs each strategy at its own size when no child size is given', () => {
    const options = parseArgs(['--ci']);
    expect(options.childTokens).toEqual({});
    expect(options.out).toBe('retrieval-ci.json');
  });

  it.each(['--child-tokens=tables:100', '--child-tokens=qa:8', '--child-tokens=qa'])('refuses %s', (arg) => {
    expect(() => parseArgs([arg])).toThrow(/--child-tokens/);
  });
});
