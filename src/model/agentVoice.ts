// What the editor's 'Voice' field holds and hears (the chart is src/machines/agentVoice.machine.ts): the editor
// passes these events on, so its event union names them without importing the chart.
import type { VoiceMode } from '../schemas/speechConnections';

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
