import { modelId } from '../../src/schemas/modelConnections';
import type { BuiltinProvider } from '../providers/llm/builtin';
import { listModelFiles } from '../providers/llm/builtin/modelFiles';
import type { ServerEngine } from './serverEngine';

// The built-in llama.cpp engine as the server's 'Built-in' connection: its GGUF files are its models, named
// '@server-builtin/<file>.gguf' like any connection's, and resolveModel hands the bare file name to the provider.
// The older 'builtin:<file>.gguf' names still reach the same provider through the LLM registry.

export const BUILTIN_CONNECTION_ID = 'server-builtin';

/** What an agent's `model` says to use a file of the built-in engine. */
export const builtinModelId = (file: string) => modelId(BUILTIN_CONNECTION_ID, file);

export function builtinServerEngine(provider: BuiltinProvider): ServerEngine {
  return {
    id: BUILTIN_CONNECTION_ID,
    name: 'Built-in',
    location: `GGUF files in ${provider.modelsDir}`,
    listModels: async () => (await listModelFiles(provider.modelsDir)).map((f) => f.name),
    provider,
  };
}
