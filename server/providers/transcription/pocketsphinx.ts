import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, abortError } from '../errors';
import type { TranscriptionProvider } from '../types';
import { readWavInfo, wavRefusal } from '../../audio/wavHeader';

// Debian's pocketsphinx (`pocketsphinx_continuous`, with the US English model of pocketsphinx-en-us): local
// and offline, as espeak-ng is for speech; rough on accents and noise, so a real server (TRANSCRIBE_BASE_URL)
// wins when one is configured. pocketsphinx reads 16 kHz mono 16-bit PCM WAV, so every upload is converted
// first: by ffmpeg when installed (it reads everything the app accepts), else by sox (WAV, FLAC, Ogg only —
// a browser recording, WebM/Opus, then gets a clear 'install ffmpeg' error). Arguments go as an array: no
// shell ever sees a file name.

const PROVIDER = 'pocketsphinx';
/** Where Debian's pocketsphinx-en-us puts the model. */
export const DEBIAN_EN_US_MODEL = '/usr/share/pocketsphinx/model/en-us';
const SOX_READS = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/flac', 'audio/ogg']);

const isExecutable = (p: string) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first of `names` found executable on PATH. */
export function onPath(names: string[], envPath = process.env.PATH ?? ''): string | null {
  for (const name of names) {
    for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

export interface PocketsphinxSetup {
  executable: string;
  /** The model directory (acoustic model `en-us/`, `en-us.lm.bin`, `cmudict-en-us.dict`); null = the binary's built-in default. */
  modelDir: string | null;
  converter: { kind: 'ffmpeg' | 'sox'; executable: string };
}

/**
 * pocketsphinx and a converter, when this machine has both: POCKETSPHINX_PATH (or pocketsphinx_continuous on
 * PATH), POCKETSPHINX_MODEL_DIR (or Debian's en-us model when present), and ffmpeg or sox. Null otherwise.
 */
export function findPocketsphinx(
  opts: { path?: string; modelDir?: string; envPath?: string } = {},
): PocketsphinxSetup | null {
  const executable = opts.path
    ? isExecutable(opts.path)
      ? opts.path
      : null
    : onPath(['pocketsphinx_continuous'], opts.envPath);
  if (!executable) return null;
  const ffmpeg = onPath(['ffmpeg'], opts.envPath);
  const sox = ffmpeg ? null : onPath(['sox'], opts.envPath);
  const converter = ffmpeg
    ? { kind: 'ffmpeg' as const, executable: ffmpeg }
    : sox
      ? { kind: 'sox' as const, executable: sox }
      : null;
  if (!converter) return null;
  const modelDir = opts.modelDir ?? (existsSync(path.join(DEBIAN_EN_US_MODEL, 'en-us')) ? DEBIAN_EN_US_MODEL : null);
  return { executable, modelDir, converter };
}

/**
 * `maxSeconds` (TRANSCRIBE_MAX_MINUTES): the converter's output is cut there, whatever the input declares, so a
 * file that claims a tiny sample rate (hours of audio once resampled) cannot make it write without end.
 */
export function createPocketsphinxProvider(
  setup: PocketsphinxSetup,
  timeoutMs = 120_000,
  opts: { maxSeconds?: number } = {},
): TranscriptionProvider {
  const maxSeconds = Math.max(1, Math.round(opts.maxSeconds ?? 30 * 60));
  const maxMinutes = maxSeconds / 60;
  const cut = String(maxSeconds);
  return {
    id: PROVIDER,
    available: () => true,
    probe: async () => ({
      status: 'ok',
      provider: PROVIDER,
      detail: `pocketsphinx (US English) at ${setup.executable}, audio read by ${setup.converter.kind}`,
    }),

    async transcribe(file, signal) {
      if (setup.converter.kind === 'sox' && !SOX_READS.has(file.mimeType)) {
        throw new ProviderError(
          `pocketsphinx reads ${file.mimeType} audio only through ffmpeg, which is not installed on this server (sox reads WAV, FLAC and Ogg)`,
          PROVIDER,
          'unconfigured',
        );
      }
      // A WAV says its rate and length in its header: judged before the converter reads a byte.
      if (SOX_READS.has(file.mimeType) && /wav/.test(file.mimeType)) {
        const refusal = wavRefusal(await readWavInfo(file.path).catch(() => null), maxMinutes);
        if (refusal) throw new ProviderError(refusal, PROVIDER, 'failed');
      }
      if (signal?.aborted) throw abortError(PROVIDER, signal);
      const dir = await mkdtemp(path.join(tmpdir(), 'agora-sphinx-'));
      const wav = path.join(dir, 'audio.wav');
      try {
        const convertArgs =
          setup.converter.kind === 'ffmpeg'
            ? [
                '-nostdin',
                '-loglevel',
                'error',
                '-i',
                file.path,
                '-t',
                cut,
                '-ar',
                '16000',
                '-ac',
                '1',
                '-c:a',
                'pcm_s16le',
                '-f',
                'wav',
                wav,
              ]
            : // -D: no dither, so the same recording is always heard the same way (sox dithers after effects by default).
              [
                '-D',
                file.path,
                '-r',
                '16000',
                '-c',
                '1',
                '-b',
                '16',
                '-e',
                'signed-integer',
                wav,
                'trim',
                '0',
                cut,
                'gain',
                '-n',
                '-3',
              ];
        await run(
          setup.converter.executable,
          convertArgs,
          signal,
          timeoutMs,
          `${setup.converter.kind} could not read the audio`,
        );
        const m = setup.modelDir;
        const modelArgs = m
          ? [
              '-hmm',
              path.join(m, 'en-us'),
              '-lm',
              path.join(m, 'en-us.lm.bin'),
              '-dict',
              path.join(m, 'cmudict-en-us.dict'),
            ]
          : [];
        const out = await run(
          setup.executable,
          ['-infile', wav, '-logfn', '/dev/null', ...modelArgs],
          signal,
          timeoutMs,
          'pocketsphinx failed',
        );
        // One line per utterance it heard.
        return out
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .join(' ');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

function run(
  executable: string,
  args: string[],
  signal: AbortSignal | undefined,
  timeoutMs: number,
  failure: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(PROVIDER, signal));
    const child = spawn(executable, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const finish = (e: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (e) {
        child.kill('SIGKILL');
        reject(e);
      } else resolve(Buffer.concat(out).toString('utf8'));
    };
    const onAbort = () => finish(abortError(PROVIDER, signal));
    const timer = setTimeout(
      () =>
        finish(
          new ProviderError(
            `${path.basename(executable)} did not finish within ${Math.round(timeoutMs / 1000)} s`,
            PROVIDER,
            'timeout',
          ),
        ),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 2000) err += d.toString('utf8');
    });
    child.on('error', (e) => finish(new ProviderError(`${failure}: ${e.message}`, PROVIDER, 'failed')));
    child.on('close', (code) => {
      if (code === 0) finish(null);
      else
        finish(
          new ProviderError(
            `${failure} (exit ${code})${err.trim() ? `: ${err.trim().split('\n').pop()}` : ''}`,
            PROVIDER,
            'failed',
          ),
        );
    });
  });
}
