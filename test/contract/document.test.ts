import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/shared/api';
import { deref, doc, operation, operations, parameters, response } from './support';

/** Every route of part 4: method, path, success status, public or not, request body types. */
const ROUTES: {
  method: string;
  path: string;
  success: number;
  public?: true;
  body?: string[];
  successType: string;
}[] = [
  {
    method: 'get',
    path: '/api/programs',
    success: 200,
    public: true,
    successType: 'application/json',
  },
  {
    method: 'get',
    path: '/api/programs/{program_id}',
    success: 200,
    public: true,
    successType: 'application/json',
  },
  { method: 'get', path: '/api/reports', success: 200, successType: 'application/json' },
  {
    method: 'get',
    path: '/api/reports/{report_id}',
    success: 200,
    successType: 'application/json',
  },
  {
    method: 'put',
    path: '/api/reports/{report_id}',
    success: 200,
    body: ['application/json'],
    successType: 'application/json',
  },
  {
    method: 'post',
    path: '/api/reports/{report_id}/submit',
    success: 200,
    body: ['application/json'],
    successType: 'application/json',
  },
  {
    method: 'post',
    path: '/api/reports/{report_id}/withdraw',
    success: 200,
    successType: 'application/json',
  },
  {
    method: 'put',
    path: '/api/reports/{report_id}/files/{file_id}',
    success: 200,
    body: ['application/octet-stream', '*/*'],
    successType: 'application/json',
  },
  {
    method: 'get',
    path: '/api/reports/{report_id}/files/{file_id}',
    success: 200,
    successType: 'application/octet-stream',
  },
  {
    method: 'delete',
    path: '/api/reports/{report_id}/files/{file_id}',
    success: 200,
    successType: 'application/json',
  },
  {
    method: 'get',
    path: '/api/reports/{report_id}/messages',
    success: 200,
    successType: 'application/json',
  },
  {
    method: 'post',
    path: '/api/reports/{report_id}/messages',
    success: 200,
    body: ['application/json'],
    successType: 'application/json',
  },
  { method: 'get', path: '/api/me', success: 200, successType: 'application/json' },
  { method: 'get', path: '/api/payments/status', success: 200, successType: 'application/json' },
  {
    method: 'post',
    path: '/api/payments/onboarding',
    success: 200,
    successType: 'application/json',
  },
  {
    method: 'post',
    path: '/api/auth/verification-email',
    success: 200,
    successType: 'application/json',
  },
  {
    method: 'post',
    path: '/api/auth/password-reset',
    success: 200,
    public: true,
    body: ['application/json'],
    successType: 'application/json',
  },
  { method: 'get', path: '/api/keys', success: 200, successType: 'application/json' },
  {
    method: 'post',
    path: '/api/keys',
    success: 201,
    body: ['application/json'],
    successType: 'application/json',
  },
  { method: 'delete', path: '/api/keys/{key_id}', success: 200, successType: 'application/json' },
  { method: 'get', path: '/api/openapi.json', success: 200, successType: 'application/json' },
];

const SUCCESS_SCHEMAS: Record<string, string> = {
  'get /api/programs': 'ProgramPage',
  'get /api/programs/{program_id}': 'Program',
  'get /api/reports': 'ReportPage',
  'get /api/reports/{report_id}': 'Report',
  'put /api/reports/{report_id}': 'Report',
  'post /api/reports/{report_id}/submit': 'Report',
  'post /api/reports/{report_id}/withdraw': 'Report',
  'put /api/reports/{report_id}/files/{file_id}': 'Report',
  'delete /api/reports/{report_id}/files/{file_id}': 'Report',
  'get /api/reports/{report_id}/messages': 'MessageList',
  'post /api/reports/{report_id}/messages': 'Report',
  'get /api/me': 'Me',
  'get /api/payments/status': 'PaymentsStatus',
  'post /api/payments/onboarding': 'OnboardingLink',
  'post /api/auth/verification-email': 'VerificationEmailResult',
  'post /api/auth/password-reset': 'PasswordResetResult',
  'get /api/keys': 'ApiKeyList',
  'post /api/keys': 'NewApiKey',
  'delete /api/keys/{key_id}': 'ApiKeyList',
};

const REQUEST_SCHEMAS: Record<string, string> = {
  'put /api/reports/{report_id}': 'ReportInput',
  'post /api/reports/{report_id}/submit': 'SubmitInput',
  'post /api/reports/{report_id}/messages': 'MessageInput',
  'post /api/auth/password-reset': 'ResetInput',
  'post /api/keys': 'KeyInput',
};

type Json = Record<string, unknown>;

describe('openapi document', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser, on a deep copy)', async () => {
    const copy = structuredClone(openapiDocument) as unknown as Parameters<
      typeof SwaggerParser.validate
    >[0];
    await expect(SwaggerParser.validate(copy)).resolves.toBeDefined();
    // The shared object was not touched by the dereferencing validator.
    expect(JSON.stringify(openapiDocument)).toContain('"$ref"');
  });

  it('carries version "1", the {base_url} server and the bearer scheme', () => {
    expect((doc.info as Json).version).toBe('1');
    expect(doc.openapi).toBe('3.1.0');
    const [server] = doc.servers as Json[];
    expect(server?.url).toBe('{base_url}');
    expect((server?.variables as Json).base_url).toBeDefined();
    const schemes = (doc.components as Json).securitySchemes as Json;
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it('has every route of part 4, and nothing else', () => {
    const actual = operations()
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    const expected = ROUTES.map((r) => `${r.method} ${r.path}`).sort();
    expect(actual).toEqual(expected);
    expect(
      Object.keys(doc.paths as Json).every((p) => p.startsWith('/api/') && !p.endsWith('/')),
    ).toBe(true);
  });

  it.each(ROUTES)('$method $path: success status, security, bodies', (route) => {
    const op = operation(route.method, route.path);
    const responses = op.responses as Json;
    const successes = Object.keys(responses).filter((s) => s.startsWith('2'));
    expect(successes).toEqual([String(route.success)]);
    const ok = response(route.method, route.path, route.success) as Json;
    expect(Object.keys(ok.content as Json)).toEqual([route.successType]);
    expect((ok.headers as Json)['X-Request-ID']).toBeDefined();

    if (route.public) expect(op.security).toEqual([{}, { bearer: [] }]);
    else expect(op.security).toBeUndefined();

    const body = op.requestBody as Json | undefined;
    if (route.body === undefined) expect(body).toBeUndefined();
    else {
      expect(body?.required).toBe(true);
      expect(Object.keys(body?.content as Json)).toEqual(route.body);
    }

    const key = `${route.method} ${route.path}`;
    const okSchema = ((ok.content as Json)[route.successType] as Json).schema as Json;
    if (SUCCESS_SCHEMAS[key] !== undefined) {
      expect(okSchema.$ref).toBe(`#/components/schemas/${SUCCESS_SCHEMAS[key]}`);
    }
    if (REQUEST_SCHEMAS[key] !== undefined) {
      const schema = ((body?.content as Json)['application/json'] as Json).schema as Json;
      expect(schema.$ref).toBe(`#/components/schemas/${REQUEST_SCHEMAS[key]}`);
    }
    expect(typeof op.operationId).toBe('string');
  });

  it('declares every path parameter, UUIDv4 ids as format uuid', () => {
    for (const { method, path } of operations()) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = parameters(method, path).filter((p) => p.in === 'path');
      expect(params.map((p) => p.name).sort()).toEqual([...names].sort());
      for (const p of params) {
        expect(p.required).toBe(true);
        if (p.name === 'report_id' || p.name === 'file_id') {
          expect(deref(p.schema)).toMatchObject({ type: 'string', format: 'uuid' });
        }
      }
    }
  });

  it('declares the query parameters of part 4 with their bounds', () => {
    const q = (method: string, path: string) =>
      Object.fromEntries(
        parameters(method, path)
          .filter((p) => p.in === 'query')
          .map((p) => [
            p.name as string,
            { required: p.required ?? false, schema: deref(p.schema) },
          ]),
      );
    const programs = q('get', '/api/programs');
    expect(Object.keys(programs).sort()).toEqual([
      'asset',
      'intake',
      'limit',
      'page',
      'reward',
      'updated',
    ]);
    expect(programs.limit?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 50,
      default: 12,
    });
    expect(programs.page?.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });

    const reports = q('get', '/api/reports');
    expect(Object.keys(reports).sort()).toEqual(['cursor', 'limit', 'updated_since']);
    expect(reports.limit?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 50,
    });
    expect(reports.cursor?.schema).toMatchObject({ format: 'uuid' });
    expect(reports.updated_since?.schema).toMatchObject({ type: 'string', format: 'date-time' });

    const upload = q('put', '/api/reports/{report_id}/files/{file_id}');
    expect(upload.name).toMatchObject({ required: true, schema: { minLength: 1, maxLength: 180 } });
    expect(upload.revision).toMatchObject({
      required: true,
      schema: { type: 'integer', minimum: 0 },
    });

    const remove = q('delete', '/api/reports/{report_id}/files/{file_id}');
    expect(remove.revision).toMatchObject({
      required: true,
      schema: { type: 'integer', minimum: 0 },
    });
  });

  it('gives every operation the generic error responses with the Error schema', () => {
    for (const { method, path } of operations()) {
      for (const status of [401, 429, 500, 503]) {
        const r = response(method, path, status);
        expect(r, `${method} ${path} ${status}`).toBeDefined();
      }
      const retry = (response(method, path, 429)?.headers as Json)['Retry-After'];
      expect(deref(retry).required, `${method} ${path} 429 Retry-After`).toBe(true);
      expect((response(method, path, 503)?.headers as Json)['Retry-After']).toBeDefined();

      for (const [status, raw] of Object.entries(operation(method, path).responses as Json)) {
        const r = deref(raw);
        expect((r.headers as Json)['X-Request-ID'], `${method} ${path} ${status}`).toBeDefined();
        if (Number(status) < 400) continue;
        const schema = ((r.content as Json)['application/json'] as Json).schema as Json;
        const expected =
          path === '/api/auth/password-reset' && status === '422' ? 'ListValidationError' : 'Error';
        expect(schema.$ref, `${method} ${path} ${status}`).toBe(`#/components/schemas/${expected}`);
      }
    }
  });

  it('closes every input schema and leaves the "not shown" shapes open', () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    for (const name of ['ReportInput', 'SubmitInput', 'MessageInput', 'KeyInput', 'ResetInput']) {
      expect(schemas[name]?.additionalProperties, name).toBe(false);
    }
    for (const name of ['VerificationEmailResult', 'PasswordResetResult']) {
      expect(schemas[name]?.additionalProperties, name).toBe(true);
    }
    const report = schemas.Report as Json;
    expect((report.properties as Json).display_status).toMatchObject({ type: 'string' });
    expect(((report.properties as Json).display_status as Json).enum).toBeUndefined();
    expect(report.required).not.toContain('payout');
    const error = schemas.Error as Json;
    expect(error.required).toEqual(['detail', 'code']);
  });
});
