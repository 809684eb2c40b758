import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './build.mjs';

// Why this file: `npm start` used to run server/main.ts through tsx's loader, which resolves and transpiles each
// of a few hundred modules through a hooks thread on every start (about a second, the largest part of a start
// with existing data). The server is now bundled once into one ES module and rebuilt only when one of its inputs
// changed, as dist/ is for the SPA.
//
// The packages are bundled too: resolving, reading and (for CommonJS imported from ESM) lexing their few hundred
// files one by one was about 150 ms of every start (npm run bench server). Those that must stay as installed are
// listed in EXTERNAL; the bundle's `require` (for the CommonJS inside it) resolves from its own place in
// node_modules, so they and Node's built-ins are found as usual.
//
// Each file keeps its own import.meta.url, .dirname and .filename (the migrations folder is found from them): the
// plugin below writes the source file's in their place before esbuild bundles.

const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'agora', 'server');
export const SERVER_BUNDLE = path.join(OUT_DIR, 'main.mjs');
/**
 * The second entry: a Sources reader thread (server/sources/worker/readerWorker.ts) is started from its own file,
 * which the server finds through AGORA_SOURCE_READER_URL (defined below; from the sources it loads the .ts file).
 */
export const SOURCE_READER_BUNDLE = path.join(OUT_DIR, 'sourceReader.mjs');
const META = path.join(OUT_DIR, 'inputs.json');
const ENTRY = path.join(ROOT, 'server', 'main.ts');
const READER_ENTRY = path.join(ROOT, 'server', 'sources', 'worker', 'readerWorker.ts');
/** Bumped when the options below change, so an old bundle is not reused. */
const RECIPE = 11;

/**
 * Packages loaded from node_modules as installed: PGlite (and its pgvector extension) finds its wasm, data and
 * extension files next to its own module,
 * node-llama-cpp is native, pg is only loaded with DATABASE_URL, compromise only when the offline model first
 * tags a text, and bufferutil / utf-8-validate are ws's optional native helpers. The document readers of Sources
 * (pdf.js through unpdf, which finds its own files by import.meta.url; mammoth and jszip; linkedom and Readability)
 * are loaded when a source is first read (in a reader thread).
 */
const EXTERNAL = [
  // Fastify requires these two only to build its default schema compilers, which the server replaces with zod's
  // (server/http/routeSchema.ts): kept out, they and ajv (330 KB) are not read at every start.
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  // piscina starts each thread from its own worker.js beside it; pg-boss is loaded only with DATABASE_URL.
  'piscina',
  'pg-boss',
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
  'node-llama-cpp',
  'pg',
  'compromise',
  'bufferutil',
  'utf-8-validate',
  'unpdf',
  'mammoth',
  'jszip',
  'linkedom',
  '@mozilla/readability',
];

const REQUIRE_BANNER =
  "import { createRequire as agoraCreateRequire } from 'node:module'; const require = agoraCreateRequire(import.meta.url);";

const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?tsx?$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: path.extname(args.path).slice(1).replace(/^[cm]/, '') };
    });
  },
};

/**
 * zod's `locales` namespace (its messages in some fifty languages, 300 KB) with English only. zod exports it beside
 * `z`, and esbuild keeps a namespace whole, so every start read and compiled all fifty; the server sets no locale
 * (zod speaks English by default, from its own import of en.js), and `z.locales.en` is still there.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/** Why the bundle must be (re)built, or null when every input is older than it. */
export function serverBundleReason() {
  if (!existsSync(SERVER_BUNDLE) || !existsSync(SOURCE_READER_BUNDLE) || !existsSync(META))
    return 'no server bundle yet';
  let meta;
  try {
    meta = JSON.parse(readFileSync(META, 'utf8'));
  } catch {
    return 'the bundle record is unreadable';
  }
  if (meta.recipe !== RECIPE) return 'the bundle recipe changed';
  // The bundle names its source files by absolute path (import.meta.url above): a moved or copied project rebuilds.
  if (meta.root !== ROOT) return 'the project folder moved';
  const built = statSync(SERVER_BUNDLE).mtimeMs;
  for (const input of [...meta.inputs, 'package-lock.json']) {
    let st;
    try {
      st = statSync(path.join(ROOT, input));
    } catch {
      return `${input} is gone`;
    }
    if (st.mtimeMs > built) return `${input} changed`;
  }
  return null;
}

/** Builds the server bundle when stale; resolves with its path. */
export async function buildServerIfNeeded() {
  const reason = serverBundleReason();
  if (reason === null) return SERVER_BUNDLE;
  const esbuild = await import('esbuild');
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: REQUIRE_BANNER },
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    define: { AGORA_SOURCE_READER_URL: JSON.stringify(pathToFileURL(SOURCE_READER_BUNDLE).href) },
    sourcemap: 'linked',
    sourcesContent: false,
    // Without comments and indentation the bundle is 4.0 MB instead of 5.7 MB: less to read, hash (the compile
    // cache's key) and scan at every start. Names are kept; stack traces map to the sources through the map.
    minifyWhitespace: true,
    legalComments: 'eof',
    metafile: true,
    write: false,
    logLevel: 'error',
    plugins: [ownImportMetaUrl, zodEnglishOnly],
  };
  // The server with what it loads later (a dynamic import(): the address rule's undici, the MCP SDK) in chunks of
  // their own, read when first loaded: a start reads, hashes and maps 2.2 MB instead of 4.0 MB. The reader thread
  // is a build of its own, so the two share no chunk that the server would load at start.
  const [server, reader] = await Promise.all([
    esbuild.build({ ...common, entryPoints: { main: ENTRY }, splitting: true, chunkNames: 'chunk-[hash]' }),
    esbuild.build({ ...common, entryPoints: { sourceReader: READER_ENTRY } }),
  ]);
  // Packages change only with package-lock.json, which is checked anyway; a plugin's own module (zod's English
  // locales, named namespace:path) is made from a package too.
  const inputs = [...new Set([server, reader].flatMap((r) => Object.keys(r.metafile.inputs)))].filter(
    (p) => !p.startsWith('node_modules/') && !p.includes(':'),
  );
  // Each file is written beside its place and renamed into it: a server starting meanwhile never loads half a
  // bundle, and a node_modules shared by hard links (cp -al, some CI caches) keeps the other copies' bundles.
  // Maps first, then chunks (named by their content), then the entries, and the record last, so nothing already
  // in place refers to a file that is not.
  const order = (f) => (f.path.endsWith('.map') ? 0 : path.basename(f.path).startsWith('chunk-') ? 1 : 2);
  const outputs = [...server.outputFiles, ...reader.outputFiles];
  mkdirSync(OUT_DIR, { recursive: true });
  for (const file of outputs.sort((a, b) => order(a) - order(b)))
    replaceFile(file.path, file.path.endsWith('.mjs') ? asciiOnly(file.text) : ownSourcesOnly(file.text, OUT_DIR));
  replaceFile(META, JSON.stringify({ recipe: RECIPE, root: ROOT, inputs }));
  pruneChunks(new Set(outputs.map((f) => path.basename(f.path))));
  return SERVER_BUNDLE;
}

/** How long a chunk of an earlier build stays: a server started from that build may still load it (a later part). */
const OLD_CHUNK_MS = 60 * 60 * 1000;

/** Removes the chunks of earlier builds older than OLD_CHUNK_MS, so rebuilds do not pile them up. */
export function pruneChunks(current, now = Date.now()) {
  for (const name of readdirSync(OUT_DIR)) {
    if (!name.startsWith('chunk-') || current.has(name)) continue;
    const file = path.join(OUT_DIR, name);
    try {
      if (now - statSync(file).mtimeMs > OLD_CHUNK_MS) rmSync(file, { force: true });
    } catch {
      // Removed meanwhile by another build.
    }
  }
}

/**
 * The bundle with every non-ASCII character written as a \\u escape. esbuild escapes strings and names but not
 * regular expression literals, and a few of those (quotes, ellipses, dashes) made the whole 4 MB source a
 * two-byte string: node then decoded, hashed and parsed it about twice as slowly at every start. An escape means
 * the same character in a string, a name, a regular expression (with or without the u flag, surrogate pairs
 * included) and a comment; no template literal in the bundle is read raw with such a character.
 */
export function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The source map with the mappings into the project's own files only. Node reads and parses a linked map when it
 * loads the bundle (source maps are on for stack traces), and four fifths of the 3 MB were the packages' mappings:
 * about 40 ms of every start (npm run bench server). A frame inside a package keeps the bundle's line and column
 * and its function name; a frame in our code names the source file as before. A dropped range becomes an unmapped
 * segment, so it is not read as part of the own code before it.
 */
export function ownSourcesOnly(mapText, mapDir) {
  // Loaded here, for a build: `npm start` imports this module on every start and mostly builds nothing.
  const { decode, encode } = createRequire(import.meta.url)('@jridgewell/sourcemap-codec');
  const map = JSON.parse(mapText);
  const own = map.sources.map(
    (s) => !path.relative(ROOT, path.resolve(mapDir, s)).split(path.sep).includes('node_modules'),
  );
  const sourceIndex = new Map();
  const nameIndex = new Map();
  const sources = [];
  const names = [];
  // Node's lookup runs on past a line's end (a line without segments takes the one before), hence across lines.
  let mapped = false;
  const lines = decode(map.mappings).map((line) => {
    const out = [];
    for (const seg of line) {
      if (seg.length === 1 || !own[seg[1]]) {
        if (mapped) out.push([seg[0]]);
        mapped = false;
        continue;
      }
      mapped = true;
      if (!sourceIndex.has(seg[1])) sourceIndex.set(seg[1], sources.push(map.sources[seg[1]]) - 1);
      const kept = [seg[0], sourceIndex.get(seg[1]), seg[2], seg[3]];
      if (seg.length === 5) {
        if (!nameIndex.has(seg[4])) nameIndex.set(seg[4], names.push(map.names[seg[4]]) - 1);
        kept.push(nameIndex.get(seg[4]));
      }
      out.push(kept);
    }
    return out;
  });
  return JSON.stringify({ ...map, sources, names, mappings: encode(lines) });
}

function replaceFile(target, contents) {
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, target);
}
