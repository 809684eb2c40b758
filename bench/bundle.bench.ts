// Production build budget: the JavaScript a browser must fetch to show the login screen — the entry
// chunk in dist/index.html, its modulepreloads and everything they import statically, not lazily loaded
// chunks — gzipped, against 100 KB; and proof that no chunk loaded at start carries jspdf or the inspector.
// The figure is deterministic for a given build, so CI gates on it (bench/bundleGate.ts, in .ci/run).
//
//   npm run bench bundle        (builds first when dist/ is stale)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildIfNeeded, ROOT } from '../scripts/lib/build.mjs';
import type { Figures } from './run';

const DIST = path.join(ROOT, 'dist');
export const LOGIN_JS_BUDGET_KB = 100;

/**
 * Code that must stay out of the start-up chunks, recognised by text only the library itself carries (not the
 * names an app uses to load it lazily, such as `jsPDF` or `createBrowserInspector`, which survive minification).
 */
export const FORBIDDEN: Record<string, { markers: string[]; fileHint?: RegExp }> = {
  jspdf: { markers: ['%PDF-'], fileHint: /^jspdf/i },
  inspector: { markers: ['stately.ai/inspect', 'stately.ai/registry'] },
};

/** Specifiers of static `import … from "x"`, `import "x"` and `export … from "x"`; `import("x")` is lazy and skipped. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  const re = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
  for (const m of code.matchAll(re)) found.add(m[1]!);
  return [...found];
}

/** Entry scripts and modulepreloads named by index.html, as paths inside dist/. */
export function startScripts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["']/g)) out.push(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["']/g))
    out.push(m[1]!);
  return out.filter((s) => !/^https?:/.test(s)).map((s) => s.replace(/^\//, ''));
}

/** Every chunk reachable from the start scripts by static imports. */
export function startChunks(readDist: (p: string) => string, html: string): string[] {
  const seen = new Set<string>();
  const queue = startScripts(html);
  while (queue.length > 0) {
    const file = path.posix.normalize(queue.shift()!);
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(readDist(file))) {
      if (!spec.startsWith('.') && !spec.startsWith('/')) continue; // bare specifiers cannot occur in a build
      queue.push(spec.startsWith('/') ? spec.slice(1) : path.posix.join(path.posix.dirname(file), spec));
    }
  }
  return [...seen].sort();
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export interface LoginJs {
  /** Gzip (level 9) and raw sizes of the start-up chunks, in KB to one decimal. */
  gzipKb: number;
  rawKb: number;
  /** Each start-up chunk with its gzip size. */
  chunks: { file: string; gzipKb: number }[];
  withinBudget: boolean;
}

/** The sign-in screen's JavaScript in a built dist/ (index.html and what it loads statically). */
export function measureLoginJs(dist: string = DIST): LoginJs {
  const read = (p: string) => readFileSync(path.join(dist, p), 'utf8');
  let raw = 0;
  let gz = 0;
  const chunks: LoginJs['chunks'] = [];
  for (const file of startChunks(read, read('index.html'))) {
    const buf = readFileSync(path.join(dist, file));
    const g = gzipSync(buf, { level: 9 }).length;
    raw += buf.length;
    gz += g;
    chunks.push({ file, gzipKb: kb(g) });
  }
  return { gzipKb: kb(gz), rawKb: kb(raw), chunks, withinBudget: kb(gz) <= LOGIN_JS_BUDGET_KB };
}

export default async function run(): Promise<Figures> {
  await buildIfNeeded({ quiet: true });
  const read = (p: string) => readFileSync(path.join(DIST, p), 'utf8');
  const login = measureLoginJs();
  const chunks = login.chunks.map((c) => c.file);

  const figures: Figures = {
    login_js_gzip_kb: login.gzipKb,
    login_js_raw_kb: login.rawKb,
    login_js_budget_kb: LOGIN_JS_BUDGET_KB,
    login_js_within_budget: login.withinBudget ? 'yes' : 'NO',
    start_chunks: login.chunks.map((c) => `${c.file} ${c.gzipKb} KB`).join(', '),
  };

  // Where each forbidden library does live, to show the detection works and that it is loaded lazily.
  const allJs = readdirSync(path.join(DIST, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`)
    .sort();
  for (const [name, { markers, fileHint }] of Object.entries(FORBIDDEN)) {
    const carries = (file: string) =>
      Boolean(fileHint?.test(path.basename(file))) || markers.some((m) => read(file).includes(m));
    const atStart = chunks.filter(carries);
    const lazy = allJs.filter((f) => !chunks.includes(f) && carries(f));
    figures[`${name}_in_start_chunks`] = atStart.length === 0 ? 'no' : `YES: ${atStart.join(', ')}`;
    figures[`${name}_lazy_chunks`] = lazy.length === 0 ? 'none (not in the build)' : lazy.join(', ');
  }
  return figures;
}
