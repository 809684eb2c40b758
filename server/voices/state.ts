import type { SpeechConnectionTestResult } from '../../src/schemas/speechConnections';
import { subsystemPlugin } from '../http/subsystem';
import type { SpeechProvider } from '../providers/types';

// The voices subsystem's per-server state, carried by the AppContext (`ctx.voices`): what each speech connection's
// server can do, briefly cached, and the espeak-ng fallback voice once looked for.

export interface KnownAbilities {
  version: string;
  at: number;
  result: SpeechConnectionTestResult;
}

export interface VoicesState {
  /** By connection id. */
  abilities: Map<string, KnownAbilities>;
  /** The espeak-ng fallback: undefined until looked for, null when espeak-ng is not installed. */
  espeak: SpeechProvider | null | undefined;
}

declare module '../context' {
  interface AppContext {
    voices: VoicesState;
  }
}

export const voicesPlugin = subsystemPlugin('voices', 'voices', {
  create: (): VoicesState => ({ abilities: new Map(), espeak: undefined }),
});
