import { afterEach, describe, expect, it } from 'vitest';
import { checkUrl, judgeAddress, judgeHost, useResolver } from '../../../server/models/addressRule';
import { blockedCause, guardedFetch } from '../../../server/models/guardedFetch';
import { resolveModel } from '../../../server/models/service';
import { startFakeOllama } from '../../support/fakeModelServers';
import { startTestServer } from '../harness';

// One address rule for model connections and downloads, judged where the socket is opened.

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe('the address rule', () => {
  it('always refuses link-local and cloud metadata addresses, in IPv4 and every IPv6 form, whatever the setting', () => {
    const never = [
      '169.254.169.254',
      '169.254.170.2',
      'fe80::1',
      'fd00:ec2::254',
      '100.100.100.200',
      '192.0.0.192',
      '168.63.129.16',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '64:ff9b:1::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
      '2001:0:4136:e378:8000:63bf:5601:5601',
      '::ffff:100.100.100.200',
      '224.0.0.1',
      'ff02::1',
    ];
    for (const a of never) {
      expect({ a, ok: judgeAddress(a, true).ok }).toEqual({ a, ok: false });
      expect({ a, ok: judgeAddress(a, true, 'BUILTIN_DOWNLOAD_ALLOW_PRIVATE').ok }).toEqual({ a, ok: false });
    }
  });

  it('opens loopback and private ranges (in IPv4-embedded forms too) only when allowed', () => {
    for (const a of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '192.168.1.1',
      'fd12::1',
      '::7f00:1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '198.18.0.1',
    ]) {
      expect({ a, ok: judgeAddress(a, true).ok }).toEqual({ a, ok: true });
      expect({ a, ok: judgeAddress(a, false).ok }).toEqual({ a, ok: false });
    }
    for (const a of ['8.8.8.8', '2606:4700::1111', '64:ff9b::808:808', '2002:808:808::1'])
      expect({ a, ok: judgeAddress(a, false).ok }).toEqual({ a, ok: true });
    expect(judgeAddress('10.0.0.1', false, 'BUILTIN_DOWNLOAD_ALLOW_PRIVATE')).toMatchObject({
      detail: expect.stringContaining('BUILTIN_DOWNLOAD_ALLOW_PRIVATE=1'),
    });
  });

  it('refuses metadata names, however they are written', async () => {
    for (const h of [
      'metadata.google.internal',
      'METADATA.GOOGLE.INTERNAL.',
      'metadata.goog',
      'instance-data.ec2.internal',
      'metadata',
    ]) {
      expect({ h, ok: judgeHost(h, true).ok }).toEqual({ h, ok: false });
    }
    expect(await checkUrl('http://metadata.google.internal/computeMetadata/v1/', true)).toMatchObject({ ok: false });
  });
});

describe('judged at the address connected to', () => {
  it('refuses a name that resolves to a private address at connect time, and one that does not resolve', async () => {
    const ollama = await startFakeOllama();
    const port = new URL(ollama.url).port;
    try {
      const strict = guardedFetch({ allowPrivate: false, setting: 'MODEL_CONNECTIONS_ALLOW_PRIVATE' });
      restore = useResolver(async () => [{ address: '127.0.0.1', family: 4 }]);
      const err = await strict(`http://rebind.test:${port}/api/tags`).catch((e) => e);
      expect(blockedCause(err)?.message).toMatch(/rebind.test resolves to 127.0.0.1 is a loopback or private address/);
      restore();
      restore = useResolver(async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })));
      await expect(strict(`http://gone.test:${port}/api/tags`)).rejects.toThrow();
      expect(ollama.seen).toHaveLength(0);
      // Literal addresses in any spelling never reach the lookup: judged before connecting.
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::1]']) {
        expect(blockedCause(await strict(`http://${host}:${port}/api/tags`).catch((e) => e))).not.toBeNull();
      }
      expect(ollama.seen).toHaveLength(0);
    } finally {
      await ollama.close();
    }
  });

  it('DNS rebinding: a connection saved while its name was public cannot reach loopback later', {
    timeout: 120_000,
  }, async () => {
    const ollama = await startFakeOllama({ models: ['llama3.2:1b'] });
    const port = new URL(ollama.url).port;
    const t = await startTestServer({ modelConnectionsAllowPrivate: false });
    try {
      const { token, userId } = await t.register();
      // First answer public (Save's check passes), every later one loopback.
      let asked = 0;
      restore = useResolver(async () =>
        asked++ === 0 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }],
      );
      const saved = await t.api('POST', '/model-connections', {
        token,
        body: { kind: 'ollama', name: 'Rebinder', base_url: `http://rebind.test:${port}` },
      });
      expect(saved.status).toBe(201);
      expect(saved.body.status).toMatchObject({ state: 'unreachable', reason: 'blocked' });
      const resolved = await resolveModel(t.server.ctx, userId, `@${saved.body.id}/llama3.2:1b`);
      await expect(
        resolved!.provider.chat({ model: resolved!.model, messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toThrow(/may not be used: rebind.test resolves to 127.0.0.1/);
      const pull = await t.api('POST', `/model-connections/${saved.body.id}/pull`, {
        token,
        body: { model: 'qwen2.5:0.5b' },
      });
      expect(pull.status).toBe(202);
      await expect.poll(async () => (await t.api('GET', '/model-jobs', { token })).body.jobs[0]?.status).toBe('failed');
      expect((await t.api('GET', '/model-jobs', { token })).body.jobs[0].error).toMatch(/may not be used/);
      expect(ollama.seen).toHaveLength(0);
    } finally {
      await Promise.all([t.close(), ollama.close()]);
    }
  });
});
