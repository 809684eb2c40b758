#!/usr/bin/env node
// `npm run dev`: the server in watch mode plus Vite (which proxies the API and sockets to it), one terminal.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { localBin, ROOT } from './lib/build.mjs';

const port = Number(process.env.PORT || 8000);
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

const procs = [
  {
    name: 'server',
    tint: 36,
    // The SPA comes from Vite in development; the server only answers the API. --clear-screen=false keeps
    // Vite's lines on screen when the server restarts.
    args: [localBin('tsx'), 'watch', '--clear-screen=false', 'server/main.ts'],
    // The page comes from Vite's origin, so its sockets carry that Origin: allow it (the server checks socket origins).
    env: {
      STATIC_DIR: '',
      ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? 'http://localhost:5173,http://127.0.0.1:5173',
    },
  },
  {
    name: 'vite',
    tint: 35,
    args: [localBin('vite')],
    env: { AGORA_API: `http://127.0.0.1:${port}` },
  },
];
const width = Math.max(...procs.map((p) => p.name.length));

let stopping = false;
let exitCode = 0;

for (const p of procs) {
  const child = spawn(process.execPath, p.args, {
    cwd: ROOT,
    stdio: ['inherit', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: color ? '1' : process.env.FORCE_COLOR, ...p.env },
  });
  p.child = child;
  const prefix = paint(p.tint, `[${p.name.padEnd(width)}]`);
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix} ${line}\n`));
  }
  child.on('exit', (code, signal) => {
    p.done = true;
    if (!stopping) {
      console.error(`${prefix} exited (${signal ?? `code ${code}`}); stopping the others`);
      exitCode = code || 1;
      stop('SIGTERM');
    }
    if (procs.every((q) => q.done)) process.exit(exitCode);
  });
}

const alive = () => procs.filter((p) => !p.done);

/** Stops every child: the signal now (unless a terminal already delivered it), SIGKILL after 8 s. */
function stop(sig, alreadyDelivered = false) {
  if (stopping) return;
  stopping = true;
  if (!alreadyDelivered) for (const p of alive()) p.child.kill(sig);
  setTimeout(() => {
    for (const p of alive()) p.child.kill('SIGTERM');
  }, 3000).unref();
  setTimeout(() => {
    for (const p of alive()) p.child.kill('SIGKILL');
  }, 8000).unref();
}

// A terminal's Ctrl+C already reaches both children (same process group); passing it on again would cut the
// server's graceful close short.
process.on('SIGINT', () => stop('SIGINT', Boolean(process.stdin.isTTY)));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('exit', () => {
  for (const p of alive()) p.child.kill('SIGKILL');
});

console.log(
  paint(1, `\n  Agora (development): open http://localhost:5173 — Vite proxies the API and sockets to :${port}\n`),
);
