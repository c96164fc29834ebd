import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

// The layer rules of eslint.config.mjs (eslint.layers.js), run by ESLint's own Linter on snippets
// under made-up file names: each must refuse the import it is there to refuse, and let the
// allowed ones through. `npm run lint` then holds the real tree to them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { layerRules } = require('../../../eslint.layers.js') as { layerRules: Linter.Config[] };

const root = path.resolve(__dirname, '../../..');
const linter = new Linter({ cwd: root, configType: 'flat' });
const config: Linter.Config[] = [
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
  ...layerRules,
];

function refusals(file: string, code: string): string[] {
  return linter
    .verify(code, config, { filename: path.join(root, file) })
    .map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

it('keeps parsers, chunker, tokenizer and sparse away from every I/O layer, at any depth', () => {
  expect(
    refusals(
      'parsers/x.ts',
      "import { findDocument } from '../db/repositories/documents';\nexport const f = findDocument;\n",
    ),
  ).toEqual([expect.stringMatching(/^no-restricted-imports: .*do no I\/O/)]);
  expect(
    refusals('parsers/pdf/x.ts', "import type { Client } from '@temporalio/client';\nexport type C = Client;\n"),
  ).toHaveLength(1);
  expect(
    refusals('chunker/x.ts', "import { loadConfig } from '../config/config';\nexport const f = loadConfig;\n"),
  ).toHaveLength(1);
  expect(
    refusals('sparse/x.ts', "import type { SparseVector } from '../contracts/chunk';\nexport type C = SparseVector;\n"),
  ).toEqual([]);
});

it('keeps db/ from importing adapters and processes', () => {
  expect(
    refusals(
      'db/repositories/x.ts',
      "import { createS3ObjectStore } from '../../stores/s3ObjectStore';\nexport const f = createS3ObjectStore;\n",
    ),
  ).toEqual([expect.stringMatching(/^no-restricted-imports: .*db\/ imports no adapter/)]);
  expect(
    refusals(
      'db/repositories/x.ts',
      "import { encryptSecret } from '../../crypto/secretBox';\nexport const f = encryptSecret;\n",
    ),
  ).toEqual([]);
});

it('lets only the surfaces (and tests) import client/, and keeps activities from the processes', () => {
  const importsClient = "import { connectClient } from '../client/ingestClient';\nexport const f = connectClient;\n";
  expect(refusals('worker/x.ts', importsClient)).toEqual([expect.stringMatching(/Only the surfaces/)]);
  expect(
    refusals(
      'api/routes/x.ts',
      "import { connectClient } from '../../client/ingestClient';\nexport const f = connectClient;\n",
    ),
  ).toEqual([]);
  expect(refusals('cli/x.ts', importsClient)).toEqual([]);
  expect(refusals('registration/x.ts', importsClient)).toHaveLength(1);
  expect(
    refusals('client/x.ts', "import { connectClient } from './ingestClient';\nexport const f = connectClient;\n"),
  ).toEqual([]);
  expect(
    refusals(
      'activities/x.ts',
      "import { createAdapters } from '../composition/adapters';\nexport const f = createAdapters;\n",
    ),
  ).toEqual([expect.stringMatching(/^no-restricted-imports: .*activities\/ get their adapters/)]);
});

it('keeps api/ for itself and cli/, cli/ for nobody, and client/ under both', () => {
  const importsApi = "import { runApiServer } from '../api/serve';\nexport const f = runApiServer;\n";
  const importsCli = "import { fitToWidth } from '../cli/displayWidth';\nexport const f = fitToWidth;\n";
  expect(refusals('client/x.ts', importsApi)).toEqual([expect.stringMatching(/Only api\/ and cli\//)]);
  expect(refusals('worker/x.ts', importsApi)).toEqual([expect.stringMatching(/Only api\/ and cli\//)]);
  expect(
    refusals(
      'db/repositories/x.ts',
      "import { runApiServer } from '../../api/serve';\nexport const f = runApiServer;\n",
    ),
  ).toHaveLength(1);
  expect(refusals('cli/x.ts', importsApi)).toEqual([]);
  expect(refusals('client/x.ts', importsCli)).toEqual([expect.stringMatching(/Nothing imports cli\//)]);
  expect(
    refusals('api/routes/x.ts', "import { fitToWidth } from '../../cli/displayWidth';\nexport const f = fitToWidth;\n"),
  ).toEqual([expect.stringMatching(/Nothing imports cli\//)]);
  expect(refusals('activities/x.ts', importsCli)).toHaveLength(1);
});

it('keeps config/ to the contracts: no component constant reaches it', () => {
  expect(
    refusals(
      'config/x.ts',
      "import { LOCAL_MODEL } from '../embedders/localModelFiles';\nexport const f = LOCAL_MODEL;\n",
    ),
  ).toEqual([expect.stringMatching(/^no-restricted-imports: .*config\/ imports only contracts/)]);
  expect(
    refusals(
      'config/x.ts',
      "import { connectClient } from '../client/ingestClient';\nexport const f = connectClient;\n",
    ),
  ).toHaveLength(1);
  expect(
    refusals(
      'config/x.ts',
      "import { LOCAL_MODEL_IDENTITY } from '../contracts/localModel';\nexport const f = LOCAL_MODEL_IDENTITY;\n",
    ),
  ).toEqual([]);
});

it('keeps every production folder, the CLI included, away from test, testkit, bench and eval code', () => {
  const importsFake =
    "import { startFakeChatServer } from '../testkit/fakes/fakeChatServer';\nexport const f = startFakeChatServer;\n";
  for (const file of ['cli/x.ts', 'api/x.ts', 'search/x.ts', 'activities/x.ts', 'db/x.ts', 'parsers/x.ts']) {
    expect(refusals(file, importsFake)).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*Production code imports nothing/),
    ]);
  }
  expect(refusals('activities/stages/x.ts', "import { x } from '../../bench/corpus';\nexport const f = x;\n")).toEqual([
    expect.stringMatching(/Production code imports nothing/),
  ]);
  expect(refusals('bench/x.ts', importsFake)).toEqual([]);
});
