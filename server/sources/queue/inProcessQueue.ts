import type { Db } from '../../db/db';
import type { SourcesConfig } from '../config';
import { readAndStore } from '../ingest';
import type { ReaderPool } from '../worker/readerPool';
import type { SourceReadQueue } from './readQueue';

// PGlite is one process: a job is run as it is submitted (the reader pool bounds how many read at once). Nothing is
// written before the document is read, so a crash leaves nothing half.
export function inProcessQueue(deps: { db: Db; cfg: SourcesConfig; pool: ReaderPool }): SourceReadQueue {
  return {
    kind: 'in-process',
    submit: (job) => readAndStore(deps, job),
    close: async () => {},
  };
}
