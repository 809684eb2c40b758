import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

// How every PGlite of the server starts (its data directory, its template, the in-memory one of the tests).
//
// shared_buffers: PostgreSQL's default of 128 MB suits a server with memory of its own. PGlite runs inside this
// process, and its start zeroes the whole buffer pool in WebAssembly before the first query: about a fifth of a
// start with existing data (npm run bench server). Agora's database is a few megabytes, so 32 MB holds all of it,
// starts ~80 ms sooner and keeps ~90 MB less resident. Set per start (a -c option), never written to the cluster.
const SHARED_BUFFERS = '32MB';

// pgvector (a 50 KB bundle, unpacked at start) lets sources be searched by meaning as well as by words
// (docs/sources.md#searched-by-words-and-meaning); the template cluster is made with it too, so its migrations
// create the vector table.
export const pgliteOptions = (): PGliteOptions => ({
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  extensions: { vector },
});
