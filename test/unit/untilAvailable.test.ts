import { untilAvailable } from '../../composition/untilAvailable';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('untilAvailable', () => {
  it('retries a start-up step while its dependency is unavailable, then returns its result', async () => {
    let calls = 0;
    const logged: string[] = [];
    const result = await untilAvailable(
      'migrating',
      async () => {
        calls++;
        if (calls < 3) throw refused();
        return 'ready';
      },
      (message) => logged.push(message),
    );
    expect(result).toBe('ready');
    expect(calls).toBe(3);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^migrating: a dependency is unavailable/);
    // The log line names no address.
    expect(logged.join('\n')).not.toMatch(/127\.0\.0\.1|5432/);
  });

  it('ends the start-up at once on any other error', async () => {
    let calls = 0;
    const failing = untilAvailable(
      'migrating',
      async () => {
        calls++;
        throw new Error('relation "x" does not exist');
      },
      () => undefined,
    );
    await expect(failing).rejects.toThrow('relation "x" does not exist');
    expect(calls).toBe(1);
  });
});
