import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../config/config';
import { bgeModelsInstalled, languageDenseEnabled } from '../../../embedders/bgeModelFiles';
import { BGE_MODEL_IDENTITIES } from '../../../contracts/localModel';

// SLUICE_LANGUAGE_DENSE: `auto` (the default) runs the second dense vector wherever its models are
// installed and starts without it where they are not; `on` and `off` are what they say.
let modelDir: string;

beforeEach(() => {
  modelDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-bge-setting-'));
});
afterEach(() => fs.rmSync(modelDir, { recursive: true, force: true }));

function install(languages: (keyof typeof BGE_MODEL_IDENTITIES)[]): void {
  for (const language of languages) {
    const dir = path.join(modelDir, BGE_MODEL_IDENTITIES[language].name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'model.onnx'), 'graph');
    fs.writeFileSync(path.join(dir, 'tokenizer.json'), '{}');
  }
}

it('defaults to auto', () => {
  const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' });
  expect(config.embedding.languageDense).toBe('auto');
});

it('turns auto on only when both languages are installed', () => {
  expect(languageDenseEnabled('auto', modelDir)).toBe(false);
  install(['en']);
  expect(bgeModelsInstalled(modelDir)).toBe(false);
  expect(languageDenseEnabled('auto', modelDir)).toBe(false);
  install(['zh']);
  expect(bgeModelsInstalled(modelDir)).toBe(true);
  expect(languageDenseEnabled('auto', modelDir)).toBe(true);
});

it('keeps on and off as set, whatever is installed', () => {
  expect(languageDenseEnabled('on', modelDir)).toBe(true);
  install(['en', 'zh']);
  expect(languageDenseEnabled('off', modelDir)).toBe(false);
});

it('refuses a value other than on, off and auto', () => {
  expect(() => loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x', SLUICE_LANGUAGE_DENSE: 'yes' })).toThrow(
    /SLUICE_LANGUAGE_DENSE/,
  );
});
