import type { McpTransportChoice } from './mcp/client';
import { connectionStore } from '../connections/store';

// The tool_connections table: one use of the connections store (server/connections/store.ts), with a tool
// server's own column, how the MCP client reaches it.

export interface ToolRow {
  id: string;
  user_id: string;
  kind: 'mcp';
  name: string;
  base_url: string;
  transport: McpTransportChoice;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  updated_at: string | Date;
}

export const toolConnectionStore = connectionStore<ToolRow, 'transport'>({
  table: 'tool_connections',
  noun: 'tool server',
  notFound: 'No such tool server',
  extra: ['transport'],
});
