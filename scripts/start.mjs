#!/usr/bin/env node
// `npm start`: build the SPA when dist/ is stale, then run the server (SPA + API on one origin) in this process.
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// From Node 22.1, V8 keeps the compiled code of the modules loaded from here on (the server bundle above all, and
// these scripts) between starts: about 70 ms of a start with existing data (npm run bench server). Node 20 has no
// such cache.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
module.enableCompileCache?.(path.join(ROOT, 'node_modules', '.cache', 'agora', 'compile'));
const [{ buildIfNeeded }, { publicUrl }, { buildServerIfNeeded }] = await Promise.all([
  import('./lib/build.mjs'),
  import('./lib/health.mjs'),
  import('./lib/serverBundle.mjs'),
]);

const port = Number(process.env.PORT || 8000);
const host = process.env.HOST || '0.0.0.0';

// STATIC_DIR points the server at another bundle ('' serves the API only), so ./dist is not ours to build then.
try {
  if (process.env.STATIC_DIR === undefined) await buildIfNeeded();
} catch (e) {
  console.error(`[agora] ${e.message}`);
  process.exit(1);
}

// The server runs from its bundle (scripts/lib/serverBundle.mjs: one module instead of a few hundred through a
// loader); if the bundle cannot be made, from the sources through tsx's loader. Either way in this process: a
// second node would cost a second boot on every start, and with one process a signal reaches the server exactly
// once (server/main.ts closes gracefully on the first and ignores the repeats a terminal and npm deliver).
const entry = await buildServerIfNeeded().then(
  (bundle) => {
    process.setSourceMapsEnabled(true); // for the modules loaded from here on: stack traces name the sources
    return pathToFileURL(bundle).href;
  },
  async (e) => {
    console.error(`[agora] could not bundle the server (${e.message}); running it from the sources`);
    const { register } = await import('tsx/esm/api');
    register();
    return new URL('../server/main.ts', import.meta.url).href;
  },
);

try {
  await import(entry); // resolves once the server listens (server/main.ts exits the process when it cannot)
} catch (e) {
  console.error(`[agora] could not start the server: ${e?.stack ?? e}`);
  process.exit(1);
}
// Shortly after the log's own lines, which the logger writes to the same stdout asynchronously.
setTimeout(() => console.log(`\n  Agora is running at ${publicUrl(host, port)}\n  (Ctrl+C stops it)\n`), 100);
