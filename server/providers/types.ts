import type { z } from 'zod';
import type { componentStatus } from '../../src/schemas/system';
import type { TurnContext } from '../engine/turnAnswer';

// The small interfaces every engine sits behind. Real implementations live beside this file, one
// folder per kind; index.ts chooses them from the configuration.

export type ComponentStatus = z.infer<typeof componentStatus>;

export interface ModelInfo {
  name: string;
  provider: string;
  label?: string;
  offline?: boolean;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant message that asked for tools (docs/tools.md#the-call-loop). */
  toolCalls?: ToolCallRequest[];
  /** A `tool` message: the call it answers, and the tool's name (Ollama reads the name, OpenAI the id). */
  toolCallId?: string;
  toolName?: string;
}

/** A tool a model is offered, in no provider's format (each provider writes its own). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model asked for: its id (made up when the provider gives none), the tool's name, its arguments. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** JSON Schema the answer must follow (made from a zod schema with z.toJSONSchema). */
  jsonSchema?: Record<string, unknown>;
  signal?: AbortSignal;
  /** Called with each streamed piece of text, when the provider streams. */
  onToken?: (piece: string) => void;
  /** Structured facts about the turn; real models ignore it (they read `messages`), the offline model composes from it. */
  context?: TurnContext;
  /** Ask the server to report the tokens it counted (OpenAI-compatible: stream_options.include_usage). */
  wantUsage?: boolean;
  /** The tools the model may call this time (docs/tools.md); absent or empty: none. */
  tools?: ToolSpec[];
}

/** Tokens of one call as the model's server (or the built-in engine's tokenizer) counted them. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  /** Counted by the built-in engine's own tokenizer rather than a model server (absent: the server counted). */
  byTokenizer?: boolean;
}

export interface ChatResult {
  content: string;
  model: string;
  provider: string;
  durationMs: number;
  /** Present when the server reported its token counts. */
  usage?: ChatUsage;
  /** The tools the model asked to call instead of (or before) answering. */
  toolCalls?: ToolCallRequest[];
  /** The request offered tools this model cannot take (its template has no call syntax): it answered without. */
  toolsUnsupported?: boolean;
}

export interface LlmProvider {
  readonly id: string;
  readonly label: string;
  owns(model: string): boolean;
  listModels(): Promise<ModelInfo[]>;
  chat(req: ChatRequest): Promise<ChatResult>;
  probe(): Promise<ComponentStatus>;
  /**
   * Whether it can offer tools to a model (OpenAI-compatible, Ollama, the built-in engine, the offline demo model);
   * a model that cannot take them after all answers with `toolsUnsupported`.
   */
  readonly toolCalling?: boolean;
  /** Whether its last listing or probe reached it; the registry sends unknown model names only to a reachable provider. */
  reachable?(): boolean;
  /**
   * Loads what its first answer would load, when a discussion that uses it starts (engine/discussions.ts): a load
   * that holds the process up does it before the first turn, not in the middle of a run others are watching.
   */
  warm?(): Promise<void>;
}

export interface LlmRegistry {
  listModels(): Promise<ModelInfo[]>;
  /**
   * The provider that serves `model`: 'offline' → the offline model; else the provider that listed it
   * (or whose prefix it carries, 'ollama:' / 'openai:'); else the first reachable real provider, which
   * answers or says clearly that it has no such model; else, with no real provider reachable, the
   * offline model. Compare `provider.id` with 'offline' to tell the user when the offline model stood in.
   */
  forModel(model: string): LlmProvider;
  /** forModel after refreshing stale model listings (at most every 30 s). */
  resolve?(model: string): Promise<LlmProvider>;
  probe(): Promise<ComponentStatus>;
}

export interface SpeechRequest {
  text: string;
  speed?: number;
  format?: string;
  signal?: AbortSignal;
}
export interface SpeechProvider {
  readonly id: string;
  available(): boolean;
  synthesize(req: SpeechRequest): Promise<{ audio: Buffer; mimeType: string; extension: string }>;
  probe(): Promise<ComponentStatus>;
}

export interface TranscriptionProvider {
  readonly id: string;
  available(): boolean;
  transcribe(file: { path: string; mimeType: string; fileName: string }, signal?: AbortSignal): Promise<string>;
  probe(): Promise<ComponentStatus>;
}

export type { ResearchService, ResearchQuery, ResearchOutcome } from './research';
