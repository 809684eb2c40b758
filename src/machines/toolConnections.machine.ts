// The Models dialog's 'Tools' section (docs/tools.md): the server's own tool servers (read-only: the built-ins and
// the operator's MCP_SERVERS_FILE) and the user's MCP servers, the tools each lists, and one form to add or edit a
// server with Test (it lists the server's tools) and Save. The Models chart runs it as a child while its dialog is
// open. The chart is the one connections section (kit/connectionSection.ts) with the tool server form.
import type { UserToolKind } from '../schemas/toolConnections';
import { TOOL_FORM_RULES, type ToolFormField } from '../model/toolForm';
import { connectionSectionMachine, type SectionActorRef, type SectionEvent } from './kit/connectionSection';

export type { ToolForm, ToolFormField } from '../model/toolForm';

export const toolConnectionsMachine = connectionSectionMachine(TOOL_FORM_RULES);

export type ToolConnectionsEvent = SectionEvent<'tools', UserToolKind, ToolFormField>;
export type ToolConnectionsActorRef = SectionActorRef<typeof toolConnectionsMachine, ToolConnectionsEvent>;
