'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file: require is how it loads. */
// A pool child process's entry when sluice runs from TypeScript source (tsx, or Jest): register
// tsx's CommonJS hook only (not its ESM loader, which re-transforms pdf.js and triples its memory,
// see threadPool.ts), then load the child module named by the first argument. A build forks the
// compiled child module directly and never loads this.
require('tsx/cjs/api').register();
require(process.argv[2]);
