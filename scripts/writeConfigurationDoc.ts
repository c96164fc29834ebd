import fs from 'node:fs';
import path from 'node:path';
import { configurationDoc } from './configurationDoc';

// `npm run docs:config`: rewrites docs/configuration.md from the config schemas
// (test/unit/configurationDoc.test.ts checks it is current).
const file = path.join(__dirname, '..', 'docs', 'configuration.md');
fs.writeFileSync(file, configurationDoc());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
