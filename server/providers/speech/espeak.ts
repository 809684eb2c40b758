import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { ProviderError, abortError } from '../errors';
import type { SpeechProvider, SpeechRequest } from '../types';
import { fixWavSizes } from './audioTypes';

// espeak-ng: robotic but local and instant. It cannot clone: a voice cloned from an agent's recording speaks
// through a voice-cloning connection. The text goes in on stdin and the arguments as an array: no shell sees either.

const BASE_RATE_WPM = 175;

/** The espeak-ng executable: ESPEAK_PATH when it is executable, else `espeak-ng` (or `espeak`) on PATH. */
export function findEspeak(explicit?: string, envPath = process.env.PATH ?? ''): string | null {
  const executable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (explicit) return executable(explicit) ? explicit : null;
  for (const name of ['espeak-ng', 'espeak']) {
    for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  return null;
}

export interface EspeakOptions {
  executable: string;
  timeoutMs?: number;
  /** espeak-ng voice name (e.g. 'en-us'); default: its own default. */
  voice?: string;
}

export function createEspeakProvider(opts: EspeakOptions): SpeechProvider {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return {
    id: 'espeak',
    available: () => true,
    probe: async () => ({ status: 'ok', provider: 'espeak', detail: `espeak-ng at ${opts.executable}` }),
    synthesize: (req: SpeechRequest) => run(opts, timeoutMs, req),
  };
}

function run(opts: EspeakOptions, timeoutMs: number, req: SpeechRequest) {
  return new Promise<{ audio: Buffer; mimeType: string; extension: string }>((resolve, reject) => {
    if (req.signal?.aborted) return reject(abortError('espeak', req.signal));
    const rate = Math.round(Math.min(450, Math.max(80, BASE_RATE_WPM * (req.speed ?? 1))));
    const args = ['--stdout', '-s', String(rate), ...(opts.voice ? ['-v', opts.voice] : [])];
    const child = spawn(opts.executable, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const finish = (e: Error | null, audio?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (e) {
        child.kill('SIGKILL');
        reject(e);
      } else resolve({ audio: audio!, mimeType: 'audio/wav', extension: 'wav' });
    };
    const onAbort = () => finish(abortError('espeak', req.signal));
    const timer = setTimeout(
      () => finish(new ProviderError(`espeak-ng did not finish within ${timeoutMs / 1000} s`, 'espeak', 'timeout')),
      timeoutMs,
    );
    req.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => finish(new ProviderError(`espeak-ng could not start: ${e.message}`, 'espeak', 'failed')));
    child.on('close', (code) => {
      const audio = Buffer.concat(out);
      if (code !== 0 || audio.length < 44)
        finish(
          new ProviderError(
            `espeak-ng failed${code !== null ? ` (exit ${code})` : ''}${err.trim() ? `: ${err.trim().split('\n')[0]}` : ''}`,
            'espeak',
            'failed',
          ),
        );
      else finish(null, fixWavSizes(audio));
    });
    // Newlines would make espeak pause oddly; one line of text is what it reads best.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${req.text.replace(/\s+/g, ' ').trim()}\n`);
  });
}
