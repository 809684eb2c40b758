import { SOCKETS, typeOf } from '../../server/apiDocs/asyncapi';

// The socket section of docs/protocol.md, written from the same list and frame unions the AsyncAPI document is
// built from (server/apiDocs/asyncapi.ts), so the page cannot drift from what the server validates. The discussion
// sockets share one flow (first frame, streaming, resume, close codes): it is written once, before them.

const list = (names: string[]) => (names.length ? names.map((n) => `\`${n}\``).join(', ') : '—');

export function renderSocketSection(): string {
  const out: string[] = [];
  const discussion = SOCKETS.filter((s) => s.first.length > 0);
  const split = (d: string) => {
    const at = d.indexOf('\n\n');
    return at < 0 ? [d, ''] : [d.slice(0, at), d.slice(at + 2)];
  };
  const flow = discussion.length ? split(discussion[0].description)[1] : '';
  if (flow) out.push('### Every discussion socket', '', flow, '');
  for (const s of SOCKETS) {
    const [lead, rest] = split(s.description);
    out.push(`### ${s.title}`, '', `Paths: ${s.paths.map((p) => `\`${p}\``).join(', ')}`, '');
    out.push(s.first.length && rest === flow ? lead : s.description, '');
    out.push('| direction | frames |', '|---|---|');
    if (s.first.length) out.push(`| client, first | ${s.first.map((f) => `\`${f.name}\`: ${f.summary}`).join('; ')} |`);
    out.push(`| client, then | ${list(s.client.options.map(typeOf))} |`);
    out.push(`| server | ${list(s.server.options.map(typeOf))} |`, '');
  }
  return out.join('\n').trimEnd();
}
