import fs from 'node:fs';
import path from 'node:path';
import { contractFiles } from '../contracts/publishedContract';

// `npm run contract`: rewrites docs/contract/ from the zod schemas (test/unit/contract.test.ts checks it is current).
const dir = path.join(__dirname, '..', 'docs', 'contract');
fs.mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(contractFiles())) fs.writeFileSync(path.join(dir, name), text);
console.log(`wrote ${Object.keys(contractFiles()).length} files to docs/contract/`);
