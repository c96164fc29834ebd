import fs from 'node:fs';
import path from 'node:path';
import { envSchema } from '../../config/config';
import { configurationDoc } from '../../scripts/configurationDoc';

const ROOT = path.join(__dirname, '..', '..');
const doc = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');

/** The text of every file of `dir` whose name ends with `ext`. */
function sources(dir: string, ext: string): string {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(ext))
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    .join('\n');
}

describe('docs/configuration.md', () => {
  it('names every variable the config reads: its schema, its code, and Temporal env-config', () => {
    const configNames = sources(path.join(ROOT, 'config'), '.ts').match(
      /\b(?:SLUICE|TEMPORAL|DATABASE|S3|QDRANT|OPENSEARCH)_[A-Z0-9_]*[A-Z0-9]/g,
    );
    // env-config reads the environment config/ hands it: an upgrade that reads a new name shows here.
    const envConfigDir = path.dirname(require.resolve('@temporalio/envconfig'));
    const envConfigNames = sources(envConfigDir, '.js').match(/\bTEMPORAL_[A-Z0-9_]*[A-Z0-9]/g);
    const read = new Set([...Object.keys(envSchema.shape), ...(configNames ?? []), ...(envConfigNames ?? [])]);
    expect([...read].filter((name) => !doc.includes(`\`${name}`))).toEqual([]);
  });

  it('is what `npm run docs:config` writes from the schemas now', () => {
    expect(doc).toBe(configurationDoc());
  });
});
