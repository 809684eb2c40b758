import SwaggerParser from '@apidevtools/swagger-parser';
import { Parser } from '@asyncapi/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toJsonSchema } from '../../server/apiDocs/jsonSchema';
import { openApiPath, undocumentedRoutes } from '../../server/apiDocs/openapi';
import { CSP_DIRECTIVES } from '../../server/http/security';
import * as discussionFrames from '../../src/schemas/discussionFrames';
import * as hybridSocket from '../../src/schemas/hybridSocket';
import * as liveUpdates from '../../src/schemas/liveUpdates';
import * as standardSocket from '../../src/schemas/standardSocket';
import { startTestServer, type TestServer } from './harness';

// The API's own description: every registered route is in /openapi.json, both documents validate, every socket
// frame schema is in /asyncapi.json, and /docs is served from this server under the app's CSP.

let t: TestServer;
let openapi: any;
let asyncapi: any;

beforeAll(async () => {
  t = await startTestServer();
  openapi = (await t.api('GET', '/openapi.json')).body;
  asyncapi = (await t.api('GET', '/asyncapi.json')).body;
});
afterAll(() => t.close());

describe('/openapi.json', () => {
  it('describes every registered HTTP route', () => {
    // The server's route catalog is filled by an onRoute hook added before any route, so it holds them all.
    expect(t.server.routes.length).toBeGreaterThan(40);
    expect(undocumentedRoutes(t.server.routes)).toEqual([]);
    const missing: string[] = [];
    for (const r of t.server.routes) {
      if (r.websocket || r.autoHead || r.schema?.hide) continue;
      for (const m of r.methods)
        if (!openapi.paths[openApiPath(r.url)]?.[m.toLowerCase()]) missing.push(`${m} ${r.url}`);
    }
    expect(missing).toEqual([]);
  });

  it('leaves out only static files on purpose', () => {
    const hidden = t.server.routes.filter((r) => r.schema?.hide && !r.websocket).map((r) => r.url);
    expect(hidden.every((u) => u.startsWith('/docs/'))).toBe(true);
  });

  it('fails the check when a route has no description', () => {
    const withExtra = [
      ...t.server.routes,
      { methods: ['GET'], url: '/undocumented-example', schema: undefined, websocket: false, autoHead: false },
    ];
    expect(undocumentedRoutes(withExtra)).toEqual(['GET /undocumented-example']);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(openapi.openapi).toBe('3.1.0');
    const ids = Object.values<any>(openapi.paths).flatMap((ops) => Object.values<any>(ops).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    await expect(SwaggerParser.validate(structuredClone(openapi))).resolves.toBeTruthy();
  });

  it('documents a success response for every operation', () => {
    const without: string[] = [];
    const refusing: string[] = [];
    for (const [p, ops] of Object.entries<any>(openapi.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        const codes = Object.keys(op.responses ?? {});
        if (codes.some((code) => /^[23]\d\d$/.test(code))) continue;
        // A route that exists only to refuse its method (405 saying where to go instead) has no success.
        (codes.includes('405') ? refusing : without).push(`${method.toUpperCase()} ${p}`);
      }
    expect(without).toEqual([]);
    expect(refusing).toEqual(['POST /discussion', 'POST /discussion/']);
  });

  it('states auth, the {detail} error shape, request bodies and examples', () => {
    expect(openapi.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(openapi.components.schemas.Error.properties.detail).toBeTruthy();
    const create = openapi.paths['/agents'].post;
    expect(create.security).toEqual([{ bearer: [] }]);
    expect(create.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'role', 'prompt', 'model']),
    );
    expect(create.requestBody.content['application/json'].example).toMatchObject({ name: 'Ada' });
    expect(create.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(create.responses['422']).toBeTruthy();
    expect(openapi.paths['/auth/login'].post.security).toEqual([]);
    expect(openapi.paths['/agents/{id}'].get.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
    expect(
      openapi.paths['/agents/{id}/audio'].post.requestBody.content['multipart/form-data'].schema.properties.file,
    ).toBeTruthy();
  });

  it('every bearer route answers 401 {detail} without a token, and a public one does not', async () => {
    const wrong: string[] = [];
    for (const [p, ops] of Object.entries<any>(openapi.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (method === 'head') continue;
        const url = p.replace(/\{(\w+)\}/g, 'x');
        const res = await t.api(method.toUpperCase(), url);
        const bearerOnly = op.security.length === 1 && 'bearer' in op.security[0];
        if (bearerOnly && (res.status !== 401 || typeof res.body?.detail !== 'string'))
          wrong.push(`${method} ${p}: ${res.status}`);
        if (op.security.length === 0 && res.status === 401) wrong.push(`${method} ${p} is public but answered 401`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('validates requests with the same schemas it documents (422 with a detail)', async () => {
    const { token } = await t.register();
    const res = await t.api('POST', '/agents', { token, body: { name: 'A', role: 'r', prompt: 'p' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/model/);
    const bad = await t.api('POST', '/research/search', { token, body: { query: '' } });
    expect(bad.status).toBe(422);
  });
});

describe('/asyncapi.json', () => {
  it('is a valid AsyncAPI 3 document', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(asyncapi));
    const errors = diagnostics.filter((d) => d.severity === 0);
    expect(errors.map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('has every socket path the server serves', () => {
    const addresses = [...new Set(Object.values<any>(asyncapi.channels).map((c) => c.address))].sort();
    const sockets = [...new Set(t.server.routes.filter((r) => r.websocket).map((r) => r.url))].sort();
    expect(addresses).toEqual(sockets);
  });

  it('carries every socket frame schema in src/schemas', () => {
    const payloads = Object.values<any>(asyncapi.components.messages).map((m) => JSON.stringify(m.payload));
    // Unions are their options; the loose *ConfigFrame / *OutgoingFrame checks are the app's own guard on what it sends.
    const modules = { discussionFrames, hybridSocket, liveUpdates, standardSocket };
    const skip = /OutgoingFrame$|ConfigFrame$|^(legacyConfig)$/;
    const missing: string[] = [];
    let count = 0;
    for (const [mod, exports] of Object.entries(modules)) {
      for (const [name, value] of Object.entries(exports)) {
        if (!(value instanceof z.ZodType) || skip.test(name)) continue;
        const schemas = value instanceof z.ZodDiscriminatedUnion ? (value.options as z.ZodType[]) : [value];
        for (const s of schemas) {
          count++;
          if (!payloads.includes(JSON.stringify(toJsonSchema(s, 'draft-7')))) missing.push(`${mod}.${name}`);
        }
      }
    }
    expect(count).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it('tells the first frame, streaming, resume and close codes', () => {
    const discuss = Object.values<any>(asyncapi.channels).find((c) => c.address === '/ws/discuss');
    expect(discuss.messages.basic_config).toBeTruthy();
    expect(discuss.description).toMatch(/agent_message_delta/);
    expect(discuss.description).toMatch(/resume_from/);
    expect(discuss.description).toMatch(/1008/);
    expect(asyncapi.components.messages.agent_message_delta.payload.properties.delta).toBeTruthy();
  });
});

describe('/docs', () => {
  it('serves the reference page and Swagger UI from this server, under the strict CSP', async () => {
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(html).not.toMatch(/<script>(?!<)|https?:\/\/(?!www\.w3)/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src ${CSP_DIRECTIVES['script-src'].join(' ')}`);
    expect(csp).not.toContain('unsafe');
    for (const asset of [
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
      '/docs/page.js',
      '/docs/page.css',
    ]) {
      const res = await fetch(t.url + asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
    const hidden = await fetch(`${t.url}/docs/assets/package.json`);
    expect(hidden.status).toBe(404);
    await hidden.arrayBuffer();
  });
});
