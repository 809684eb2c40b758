// Rewrites comments that cite documents outside the repo into links to its own docs (scripts/lib/citations.ts).
// `--check` lists what still cites and exits 1.
//   npx tsx scripts/rewriteCitations.ts [--check]
import { writeFileSync } from 'node:fs';
import { citations, outsideCitations } from './lib/citations';

if (process.argv.includes('--check')) {
  const left = outsideCitations();
  if (left.length) {
    console.error(`Comments still citing documents outside the repo:\n${left.join('\n')}`);
    process.exit(1);
  }
  console.log('No comment cites a document outside the repo.');
} else {
  let changed = 0;
  const left: string[] = [];
  for (const c of citations()) {
    left.push(...c.left);
    if (c.next !== c.text) {
      writeFileSync(c.file, c.next);
      changed++;
    }
  }
  console.log(`rewrote ${changed} files${left.length ? `; left for a person:\n${left.join('\n')}` : ''}`);
}
