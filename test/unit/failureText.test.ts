import { describeForLog, redactCredentials, safeForTenant } from '../../activities/failureText';

describe('failure text', () => {
  const raw =
    'bulk write failed: ConnectionError: connect ECONNREFUSED 10.2.3.4:9200 at https://admin:hunter2@search.internal.corp:9200/_bulk; ' +
    'getaddrinfo ENOTFOUND vault.internal.corp; [fd00::7]:8200 and fe80::1%eth0 down; Authorization: Bearer sk-live-abc123';

  it('gives tenants no URL, address, host or credential', () => {
    const safe = safeForTenant(raw);
    expect(safe).not.toMatch(/hunter2|admin|10\.2\.3\.4|search\.internal|vault\.internal|fd00|fe80|sk-live|https?:/);
    expect(safe).toContain('bulk write failed: ConnectionError: connect ECONNREFUSED [address]');
    expect(safe).toContain('ENOTFOUND [host]');
  });

  it('leaves ordinary messages alone', () => {
    for (const text of [
      'the document has no text',
      'model m returned 5-dimensional vectors, but the embedding config says 4',
      'timed out (START_TO_CLOSE)',
    ]) {
      expect(safeForTenant(text)).toBe(text);
    }
  });

  it('keeps hosts for the log but blanks credentials', () => {
    const logged = redactCredentials(raw);
    expect(logged).toContain('search.internal.corp:9200');
    expect(logged).toContain('https://[redacted]@search.internal.corp');
    expect(logged).not.toMatch(/hunter2|sk-live/);
  });

  it('describes an error with its causes for the log', () => {
    const error = new Error('embedding failed', { cause: new Error('HTTP 500 from http://u:p@provider.internal/v1') });
    expect(describeForLog(error)).toBe(
      'Error: embedding failed\n  caused by Error: HTTP 500 from http://[redacted]@provider.internal/v1',
    );
  });

  it('scans a huge message in bounded time and length', () => {
    const huge = `${'a'.repeat(1_000_000)}://${'b'.repeat(1_000_000)}`;
    expect(safeForTenant(huge).length).toBeLessThan(5000);
  });
});
