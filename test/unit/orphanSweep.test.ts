import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../config/config';
import { objectKeys } from '../../stores/objectKeys';

describe('orphan sweep helpers', () => {
  it('reads the owning document back from every key sluice builds, and from no other', () => {
    const documentId = randomUUID();
    const userId = 'ali/ce 上传';
    const prefix = objectKeys.documentPrefix(userId, documentId);
    for (const key of [
      objectKeys.source(userId, documentId),
      objectKeys.markdown(userId, documentId, 't1'),
      objectKeys.tokenPlan(userId, documentId, 't1'),
    ]) {
      expect(objectKeys.documentOf(key)).toEqual({ documentId, prefix });
    }
    expect(objectKeys.documentOf(`elsewhere/${documentId}/source`)).toBeNull();
    expect(objectKeys.documentOf(`documents/u/not-a-uuid/source`)).toBeNull();
    expect(objectKeys.documentOf(`documents/u/v/${documentId}/source`)).toBeNull();
  });

  it('reads the sweep schedule and grace period from the environment', () => {
    expect(loadConfig({}).orphanSweep).toEqual({ everyMs: 3_600_000, graceMs: 3_600_000 });
    expect(loadConfig({ SLUICE_ORPHAN_SWEEP_EVERY: 'off', SLUICE_ORPHAN_GRACE: '90m' }).orphanSweep).toEqual({
      everyMs: null,
      graceMs: 5_400_000,
    });
    expect(() => loadConfig({ SLUICE_ORPHAN_GRACE: 'soon' })).toThrow(/SLUICE_ORPHAN_GRACE/);
  });
});
