import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  json(): any;
}

/** A real HTTP server on a free loopback port, standing in for Ollama, an OpenAI-compatible server or a research API
 * (server tests, the fake model servers and the end-to-end suite share it). */
export async function startLoopback(handler: (req: Recorded, res: ServerResponse, raw: IncomingMessage) => unknown) {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const rec: Recorded = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
      json: () => JSON.parse(body.toString('utf8')),
    };
    requests.push(rec);
    try {
      await handler(rec, res, req);
    } catch (e) {
      if (!res.headersSent) res.writeHead(599);
      res.end(String(e));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<string> {
  const lb = await startLoopback(() => undefined);
  await lb.close();
  return lb.url;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
