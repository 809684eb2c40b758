import type { LlmProvider } from '../providers/types';

/**
 * An engine inside this server that offers models as one of its own connections: the built-in llama.cpp engine
 * registers itself here (registerServerEngine). It is listed read-only with kind 'builtin', its models get ids
 * '@<id>/<model>' like any connection's, and resolveModel sends them to `provider`.
 */
export interface ServerEngine {
  /** A fixed id without '/', e.g. 'server-builtin'. */
  id: string;
  /** As the dialog and the pickers show it: 'Built-in'. */
  name: string;
  /** What the dialog shows where a URL would be: 'GGUF files in DATA_DIR/models'. */
  location: string;
  /** Its models now; a rejection shows the connection as unreachable with the error's message. */
  listModels(): Promise<string[]>;
  /** Answers a chat whose `model` is the bare model name. */
  provider: LlmProvider;
}
