export { ingestDocument } from './ingestDocument';
