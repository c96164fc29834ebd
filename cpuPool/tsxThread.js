'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file: require is how it loads. */
// A pool thread's entry when sluice runs from TypeScript source (tsx, or Jest, whose transform
// does not reach other threads): register tsx in this thread, then load the task module named
// in workerData. A build hands piscina the compiled task module directly and never loads this.
const { workerData } = require('node:worker_threads');
require('tsx/cjs/api').register();
module.exports = require(workerData.sluiceTaskModule);
