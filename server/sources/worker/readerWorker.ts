// The entry of a reader thread (readerPool.ts): piscina calls its default export with each task.
export { readTask as default } from './readTask';
