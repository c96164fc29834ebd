import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAdapters } from '../../composition/adapters';
import { testConfig } from '../../testkit/harness/testConfig';

// SLUICE_LANGUAGE_DENSE=auto, the default, as a process builds its adapters: the second dense vector's
// embedders where the stack installed the bge models, none (and a line saying why) where it did not.

it('builds the bge embedders under auto where the models are installed, and they embed', async () => {
  const logged: string[] = [];
  const adapters = createAdapters(testConfig({ SLUICE_LANGUAGE_DENSE: 'auto' }), (line) => logged.push(line));
  try {
    expect(adapters.languageEmbedders).not.toBeNull();
    const [vector] = (await adapters.languageEmbedders?.of('en').embed(['Checkpoints live in Postgres.'])) ?? [];
    expect(vector).toHaveLength(384);
    expect(logged.filter((line) => line.includes('second dense vector'))).toEqual([]);
  } finally {
    await adapters.close();
  }
});

it('starts without them under auto where the models are missing, saying so, and fails fast under on', async () => {
  const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-no-bge-'));
  try {
    const logged: string[] = [];
    const adapters = createAdapters(testConfig({ SLUICE_LANGUAGE_DENSE: 'auto', SLUICE_MODEL_DIR: emptyDir }), (line) =>
      logged.push(line),
    );
    await adapters.close();
    expect(adapters.languageEmbedders).toBeNull();
    expect(logged).toEqual([
      expect.stringContaining(`second dense vector: off, its bge models are not installed in ${emptyDir}`),
    ]);
    expect(() => createAdapters(testConfig({ SLUICE_LANGUAGE_DENSE: 'on', SLUICE_MODEL_DIR: emptyDir }))).toThrow(
      /language models of the second dense vector are not installed/,
    );
  } finally {
    fs.rmSync(emptyDir, { recursive: true, force: true });
  }
});
