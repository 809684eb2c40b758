import type { UserModelKind } from '../../src/schemas/modelConnections';
import { connectionStore, type ConnectionInput } from '../connections/store';

// The model_connections table: one use of the connections store (server/connections/store.ts), with a model
// connection's own column, its preset.

export interface ConnectionRow {
  id: string;
  user_id: string;
  kind: UserModelKind;
  preset: string | null;
  name: string;
  base_url: string;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  updated_at: string | Date;
}
export type RowInput = ConnectionInput<ConnectionRow, 'preset'>;

export const modelConnectionStore = connectionStore<ConnectionRow, 'preset'>({
  table: 'model_connections',
  noun: 'connection',
  notFound: 'No such model connection',
  extra: ['preset'],
});
