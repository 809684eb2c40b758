import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../../server/context';
import { ClusterEngine } from '../../../server/engine/cluster';
import { createEngineState } from '../../../server/engine/hooks';

// A socket watching a discussion another process runs reads its frames from the database. When that read fails,
// the failure is logged with the discussion it was for (not swallowed), and the socket stays open for the next try.

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  sent: string[] = [];
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
}

describe('a socket watching a discussion from another process', () => {
  it('logs a failed read of its frames with the discussion id', async () => {
    const warnings: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    const log = {
      warn: (obj: object, msg: string) => void warnings.push({ obj: obj as Record<string, unknown>, msg }),
      error: () => {},
    };
    const ctx = {
      config: { discussionLeaseMs: 10_000 },
      db: { kind: 'postgres', query: async () => Promise.reject(new Error('connection reset')) },
      engine: createEngineState(),
      bus: null,
      instanceId: 'this-process',
    } as unknown as AppContext;
    const cluster = new ClusterEngine(ctx, log);
    const ws = new FakeSocket();
    cluster.watchRemote(ws as unknown as WebSocket, 'disc-42', 3);
    await expect.poll(() => warnings.find((w) => w.msg.includes('frames'))).toBeDefined();
    const read = warnings.find((w) => w.msg.includes('frames'))!;
    expect(read.obj.discussion).toBe('disc-42');
    expect((read.obj.err as Error).message).toBe('connection reset');
    expect(ws.sent).toEqual([]);
    expect(ws.readyState).toBe(ws.OPEN);
    await cluster.stop();
  });
});
