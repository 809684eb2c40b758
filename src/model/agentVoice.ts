// What the editor's 'Voice' field holds and hears (the chart is src/machines/agentVoice.machine.ts): the editor
// passes these events on, so its event union names them without importing the chart.
import type { SpeechConnection, VoiceMode } from '../schemas/speechConnections';

export interface VoiceDraft {
  /** '' is the server's default speech. */
  connectionId: string;
  mode: VoiceMode;
  voice: string;
  consent: boolean;
}

export type AgentVoiceEvent =
  | { type: 'voice.connection'; id: string }
  | { type: 'voice.mode'; mode: VoiceMode }
  | { type: 'voice.pick'; voice: string }
  | { type: 'voice.consent'; checked: boolean }
  | { type: 'voice.sample' }
  | { type: 'voice.save' }
  | { type: 'voice.retry' }
  | { type: 'voice.dismiss' }
  | { type: 'voice.agentSaved'; agentId: string };

/** OpenAI's own voice names: what the voice picker offers for an OpenAI-style server that does not list its voices. */
export const OPENAI_STOCK_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'];
/** The voices a picker offers: those the server listed, else (OpenAI-style) OpenAI's own names, which it most likely takes. */
export const pickableVoices = (c: Pick<SpeechConnection, 'kind' | 'voices' | 'lists_voices'>): string[] =>
  c.lists_voices ? c.voices : c.kind === 'openai' ? OPENAI_STOCK_VOICES : c.voices;
