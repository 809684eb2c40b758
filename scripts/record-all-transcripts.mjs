#!/usr/bin/env node
// `npm run transcripts:record [-- filter]`: the discussion sockets, then /ws/updates. A filter (a part of a
// transcript name, e.g. `hybrid` or `updates`) is passed to both recorders; each records only what matches.
import { spawnSync } from 'node:child_process';
import { localBin } from './lib/build.mjs';

const filter = process.argv.slice(2);
for (const script of ['scripts/record-transcripts.ts', 'scripts/record-updates-transcripts.ts']) {
  const r = spawnSync(process.execPath, [localBin('tsx'), script, ...filter], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
