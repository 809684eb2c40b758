// OpenAI-compatible servers are configured by base URL with or without the trailing /v1
// (http://host:8080 and http://host:8080/v1 both work); every call goes to <base>/v1/<path>.

export function openaiApiBase(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

export const bearerHeaders = (apiKey: string | undefined): Record<string, string> =>
  apiKey ? { authorization: `Bearer ${apiKey}` } : {};
