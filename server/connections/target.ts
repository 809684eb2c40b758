import type { SecretBox } from '../models/secrets';
import type { connectionStore, StoredConnection } from './store';

// A connection as the services call it, whoever owns it: the server's own (from its environment, read-only) or a
// user's (a stored row, its key opened only here, for the call that needs it). Every kind's service builds its
// targets here and adds its own fields (a model connection's preset, a speech connection's model).

export interface ConnectionTarget<K extends string> {
  id: string;
  kind: K;
  name: string;
  baseUrl: string;
  apiKey: string | null;
  keyHint: string | null;
  readOnly: boolean;
  /** Changes when the connection does, so caches keyed by it never serve an edited connection. */
  version: string;
}

/** One of the server's own connections: read-only, and its key (when it has one) only ever shown as '••••'. */
export const serverOwnedTarget = <K extends string>(
  t: { id: string; kind: K; name: string; baseUrl: string; apiKey?: string | null },
  version = 'env',
): ConnectionTarget<K> => ({
  ...t,
  apiKey: t.apiKey ?? null,
  keyHint: t.apiKey ? '••••' : null,
  readOnly: true,
  version,
});

/** A user's connection from its row; a key sealed with another SECRETS_KEY opens as null (entered again then). */
export const userTarget = <Row extends StoredConnection, Extra extends string>(
  box: SecretBox,
  store: Pick<ReturnType<typeof connectionStore<Row, Extra>>, 'openKey'>,
  row: Row,
): ConnectionTarget<Row['kind']> => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  baseUrl: row.base_url,
  apiKey: store.openKey(box, row),
  keyHint: row.api_key_hint,
  readOnly: false,
  version: `${new Date(row.updated_at).getTime()}`,
});

/** A connection a Test asks about before it is saved (an edit's Test carries its id, so the stored key is used). */
export const testedTarget = <K extends string>(
  kind: K,
  body: { id?: string; base_url: string },
  apiKey: string | null,
  version = 'test',
): ConnectionTarget<K> => ({
  id: body.id ?? 'test',
  kind,
  name: 'test',
  baseUrl: body.base_url,
  apiKey,
  keyHint: null,
  readOnly: false,
  version,
});
