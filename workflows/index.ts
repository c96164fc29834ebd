export { ingestDocument } from './ingestDocument';
export { deleteDocument } from './deleteDocument';
export { sweepStuckTasks } from './sweepStuckTasks';
export { sweepOrphanedObjects } from './sweepOrphanedObjects';
