import type { BuiltinProvider } from './llm/builtin';
import type { ResearchService } from './research';
import type { LlmRegistry, SpeechProvider, TranscriptionProvider } from './types';

/** The server's engines, made once (providers/index.ts createProviders, or by hand in tests). */
export interface Providers {
  llm: LlmRegistry;
  speech: SpeechProvider;
  transcription: TranscriptionProvider;
  /** The built-in llama.cpp engine and its model files; absent in hand-made Providers (then its routes say so). */
  builtin?: BuiltinProvider;
  /** Public research APIs. Optional so hand-made Providers in tests need not build one; absent means unavailable. */
  research?: ResearchService;
}
