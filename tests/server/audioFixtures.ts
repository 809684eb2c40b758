import type { TranscriptionProvider } from '../../server/providers/types';
import type { Providers } from '../../server/providers/providers';
import { silentWav } from '../support/wav';
import type { TestServer } from './harness';

// Tiny but well-formed headers of each accepted audio kind, made here so no binary fixture is checked in.

const wav = (samples = 64): Buffer => silentWav(samples);

const pad = (head: number[] | Buffer, total = 128) =>
  Buffer.concat([Buffer.from(head), Buffer.alloc(Math.max(0, total - head.length))]);
const str = (s: string) => [...Buffer.from(s, 'latin1')];

/** MPEG-1 layer III, 128 kbit/s, 44.1 kHz frame header. */
const MP3_FRAME = [0xff, 0xfb, 0x90, 0x64];

export const AUDIO_SAMPLES = {
  wav: { bytes: wav(), mime: 'audio/wav' },
  mp3: { bytes: pad([...str('ID3'), 3, 0, 0, 0, 0, 0, 0, ...MP3_FRAME]), mime: 'audio/mpeg' },
  webm: {
    bytes: pad([
      0x1a,
      0x45,
      0xdf,
      0xa3,
      0x9f,
      0x42,
      0x86,
      0x81,
      0x01,
      0x42,
      0x82,
      0x84,
      ...str('webm'),
      0x42,
      0x87,
      0x81,
      0x04,
    ]),
    mime: 'audio/webm',
  },
  m4a: { bytes: pad([0, 0, 0, 0x1c, ...str('ftypM4A '), 0, 0, 0, 0, ...str('M4A mp42isom')]), mime: 'audio/mp4' },
  ogg: { bytes: pad([...str('OggS'), 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]), mime: 'audio/ogg' },
  flac: { bytes: pad([...str('fLaC'), 0x80, 0, 0, 0x22]), mime: 'audio/flac' },
} as const;

/** An mp3 with no ID3 tag: just frame sync. */
export const BARE_MP3 = pad(MP3_FRAME);
/** The start of a Linux executable. */
export const ELF = pad([0x7f, ...str('ELF'), 2, 1, 1, 0]);
/** The start of a Windows executable. */
export const MZ = pad(str('MZ\x90\x00'));

export { wav as makeWav };

/** Posts a multipart upload the way the editor does. */
export function upload(
  s: TestServer,
  token: string,
  agentId: string,
  bytes: Buffer,
  fileName: string,
  fields: Record<string, string> = { name: 'Voice' },
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), fileName);
  return s.api('POST', `/agents/${agentId}/audio`, { token, body: fd });
}

export async function createAgent(s: TestServer, token: string, name = 'Ada', extra: Record<string, unknown> = {}) {
  const r = await s.api('POST', '/agents/', {
    token,
    body: { name, role: 'Researcher', prompt: 'Study the evidence.', model: 'offline', ...extra },
  });
  if (r.status !== 201) throw new Error(`create agent failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; name: string } & Record<string, unknown>;
}

/** Providers for route tests: no language model or speech, and the given transcription engine. */
export function providersWith(
  transcription: Partial<TranscriptionProvider> & Pick<TranscriptionProvider, 'transcribe'>,
): Providers {
  return {
    llm: {
      listModels: async () => [],
      forModel: () => {
        throw new Error('no model in this test');
      },
      probe: async () => ({ status: 'disabled' }),
    },
    speech: {
      id: 'none',
      available: () => false,
      synthesize: async () => {
        throw new Error('no speech in this test');
      },
      probe: async () => ({ status: 'disabled' }),
    },
    transcription: { id: 'fake', available: () => true, probe: async () => ({ status: 'ok' }), ...transcription },
  };
}
