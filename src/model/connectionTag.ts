import { OPENAI_PRESETS } from '../schemas/constants';

// The tag a connection wears ('Groq', 'LM Studio', 'Local OpenAI-compatible'): it follows the address, not the
// preset the form started from — a connection typed with http://127.0.0.1:8080 after picking 'OpenAI' is not OpenAI.

const LOCAL =
  /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|[^.]+)$/i;

const hostPort = (url: string) => {
  try {
    const u = new URL(url);
    return { host: u.hostname.toLowerCase(), port: u.port || (u.protocol === 'https:' ? '443' : '80') };
  } catch {
    return null;
  }
};

export function connectionTag(c: { kind: string; preset: string | null; base_url: string }): string {
  if (c.kind === 'ollama') return 'Ollama';
  if (c.kind === 'builtin') return 'Built-in (llama.cpp)';
  const at = hostPort(c.base_url);
  if (!at) return 'OpenAI-compatible';
  // A hosted service is named by its host; a local server by its usual port (LM Studio 1234, llama.cpp 8080…).
  const hosted = OPENAI_PRESETS.find((p) => p.needsKey && hostPort(p.baseUrl)?.host === at.host);
  if (hosted) return hosted.label;
  if (LOCAL.test(at.host)) {
    const local = OPENAI_PRESETS.find((p) => !p.needsKey && p.baseUrl && hostPort(p.baseUrl)?.port === at.port);
    return local ? local.label : 'Local OpenAI-compatible';
  }
  return 'OpenAI-compatible';
}
