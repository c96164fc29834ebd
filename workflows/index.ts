export { ingestDocument } from './ingestDocument';
export { deleteDocument } from './deleteDocument';
export { rebuildDataset } from './rebuildDataset';
export { sweepStuckTasks } from './sweepStuckTasks';
export { sweepOrphanedObjects } from './sweepOrphanedObjects';
export { copyDocumentFields } from './copyDocumentFields';
export { syncSource } from './syncSource';
