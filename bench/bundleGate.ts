// CI's size gate: fails (exit 1) when the built sign-in screen's JavaScript passes its budget, so the figure cannot
// drift unseen. Reads an existing build; it never builds.
//
//   tsx bench/bundleGate.ts [dist]        (dist/ by default)
import path from 'node:path';
import { LOGIN_JS_BUDGET_KB, measureLoginJs } from './bundle.bench';

const dist = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
const login = measureLoginJs(dist);
const biggest = [...login.chunks].sort((a, b) => b.gzipKb - a.gzipKb).slice(0, 5);
const line = `Sign-in screen's JavaScript: ${login.gzipKb} KB gzip (budget ${LOGIN_JS_BUDGET_KB} KB)`;
if (login.withinBudget) {
  console.log(`${line}: within.`);
} else {
  console.error(`${line}: OVER. Largest start-up chunks: ${biggest.map((c) => `${c.file} ${c.gzipKb} KB`).join(', ')}`);
  console.error('Something the sign-in screen does not need is loaded statically; load it lazily after sign-in.');
  process.exit(1);
}
