// The REST calls of the person's sources (docs/sources.md), on the one HTTP helper; a file is sent with
// XMLHttpRequest where the browser has it, so its upload reports progress (fetch does not), and its answer is
// checked by the same schema.
import type { SourceAddition } from '../machines/sources.machine';
import { HttpError, NetworkError, detailOf, type Http } from './http';
import { lazyAsk, loadWire } from './lazyAsk';

export interface SourcesApiDeps {
  request: Http['request'];
  getToken: () => string | null;
  baseUrl?: string;
}

/** POST a form with upload progress: resolves with the parsed JSON of a 2xx, rejects like the HTTP helper does. */
function postWithProgress(
  url: string,
  form: FormData,
  token: string | null,
  progress: (fraction: number | null) => void,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => progress(e.lengthComputable ? e.loaded / e.total : null);
    // Sent whole: the server reads the document now (no progress to report until it answers).
    xhr.upload.onload = () => progress(null);
    xhr.onerror = () => reject(new NetworkError(new Error('upload failed')));
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: keep the text
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new HttpError(xhr.status, detailOf(body), typeof body === 'string' ? body : xhr.statusText));
    };
    xhr.send(form);
  });
}

export function createSourcesApi({ request, getToken, baseUrl = '' }: SourcesApiDeps) {
  const enc = encodeURIComponent;
  const ask = lazyAsk(request);
  return {
    listSources: () => ask('GET', '/sources', 'sourceList', { retry: true }),
    async addSource({ addition, progress }: { addition: SourceAddition; progress: (fraction: number | null) => void }) {
      if ('url' in addition) return ask('POST', '/sources', 'source', { json: { url: addition.url } });
      const form = new FormData();
      form.append('file', addition.file, addition.name);
      if (typeof XMLHttpRequest === 'undefined') return ask('POST', '/sources', 'source', { form });
      const body = await postWithProgress(`${baseUrl}/sources`, form, getToken(), progress);
      return (await loadWire()).source.parse(body);
    },
    removeSource: async ({ id }: { id: string }) => {
      await ask('DELETE', `/sources/${enc(id)}`, 'anything');
      return { id };
    },
    loadPassage: ({ sourceId, passageId }: { sourceId: string; passageId: string }) =>
      ask('GET', `/sources/${enc(sourceId)}/passages/${enc(passageId)}`, 'passage'),
    loadEmbedding: () => ask('GET', '/sources/embedding', 'embeddingSettings', { retry: true }),
    saveEmbedding: ({ model }: { model: string | null }) =>
      ask('PUT', '/sources/embedding', 'embeddingSettings', { json: { model } }),
  };
}
export type SourcesApi = ReturnType<typeof createSourcesApi>;
