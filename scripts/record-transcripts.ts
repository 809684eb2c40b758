// Records the discussion sockets of the real server (in-memory PGlite, the built-in offline model) into
// tests/transcripts/<endpoint>-<case>.jsonl, in the format of docs/architecture.md#recorded-socket-transcripts:
//   {"endpoint": "/ws/hybrid", "note": "…"}
//   {"t": 120, "dir": "server" | "client", "data": {…}}        t = ms since the (first) socket opened
//   {"t": 900, "event": "close", "code": 1006}
// A transcript that reconnects after a close simply continues: the next client line is the new socket's
// configuration. Fault cases are recorded too; only `*-malformed-frame` is edited afterwards (the note says how).
// Replies stream (agent_message_start, agent_message_delta, then the final frame with the same id): most cases run
// the offline model fast (about 1000 tokens/s, a turn in ~0.1 s) so they stay short; the `*-streaming` cases run
// it at a human pace (OFFLINE_MODEL_TOKENS_PER_SECOND's default) to show deltas as a person would see them.
//
//   npm run transcripts:record            (all)
//   npm run transcripts:record -- hybrid  (only names containing "hybrid")

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CASES } from './transcripts/cases';
import { FAULTS_FROM, malformedFrom } from './transcripts/faults';
import { startServer } from './transcripts/server';

const OUT = path.resolve('tests/transcripts');
const only = process.argv[2];

async function main() {
  const { env, close } = await startServer();
  try {
    await mkdir(OUT, { recursive: true });
    for (const c of CASES.filter((x) => !only || x.name.includes(only))) {
      const r = await c.run(env);
      await writeFile(path.join(OUT, `${c.name}.jsonl`), r.toJsonl());
      console.log(`${c.name}.jsonl  ${r.lines.length} lines`);
      if (c.name === 'hybrid-natural') {
        await writeFile(path.join(OUT, 'hybrid-malformed-frame.jsonl'), malformedFrom(r));
        console.log('hybrid-malformed-frame.jsonl  (edited from hybrid-natural)');
      }
      for (const fault of FAULTS_FROM[c.name] ?? []) {
        await writeFile(path.join(OUT, `${fault.name}.jsonl`), fault.edit(r));
        console.log(`${fault.name}.jsonl  (edited from ${c.name})`);
      }
    }
  } finally {
    await close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
