// A model server may quote the key it was sent ('Incorrect API key provided: sk-…'). Whatever text of another
// server is passed on (an error frame, the stored discussion, an HTTP answer, a log line) goes through here
// first: the key itself, and anything that plainly is a credential, becomes '••••'.

const MASK = '••••';

const PATTERNS: Array<[RegExp, string]> = [
  // Authorization header values and token parameters quoted back (a credential has a digit; a word has none).
  [/\b(bearer\s+|token=)(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${MASK}`],
  // Key shapes of the common hosted services: OpenAI sk-…, Anthropic sk-ant-…, Groq gsk_…, xAI xai-…, HF hf_….
  [/\b(sk|gsk|xai|hf|pk|rk)[-_][A-Za-z0-9_-]{12,}/g, `$1-${MASK}`],
  // api_key=… / "apiKey": "…" / access_token=… in a quoted URL or JSON.
  [/\b(api[_-]?key|access[_-]?token|client[_-]?secret)("?\s*[:=]\s*"?)[^\s"'&,;}]{6,}/gi, `$1$2${MASK}`],
];

export function maskSecrets(text: string, secrets: ReadonlyArray<string | null | undefined> = []): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join(MASK);
  }
  for (const [re, to] of PATTERNS) out = out.replace(re, to);
  return out;
}
