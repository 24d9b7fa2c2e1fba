import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/shared/api';
import type {
  KeyInput,
  MessageInput,
  ReportInput,
  ResetInput,
  SubmitInput,
} from '../../src/shared/api';
import { checkSchema, createContractAjv, schemaRef } from '../../src/shared/api/validate';

const REPORT: ReportInput = {
  program_id: 'acme-web',
  title: 'Stored XSS in profile name',
  asset: 'https://app.example.com',
  description: '## Steps to reproduce\n\n1. Open the profile.',
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N',
  revision: 0,
};
const UUID = '2f1c6f9e-3b0a-4c5d-9e7f-0a1b2c3d4e5f';

/** Pointers named by the errors of one check (`/title`, `/extra`, ...). */
function pointers(name: Parameters<typeof checkSchema>[0], value: unknown): string[] {
  const result = checkSchema(name, value);
  return result.messages.map((m) => m.slice(0, m.indexOf(':')));
}

describe('input schemas compiled with Ajv (draft 2020-12, ajv-formats)', () => {
  it('compile on a plain Ajv2020 instance from the published JSON', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: openapiDocument.components });
    const validate = ajv.getSchema('doc#/components/schemas/ReportInput');
    expect(validate?.({ ...REPORT, title: 'x'.repeat(181) })).toBe(false);
    expect(validate?.errors?.map((e) => e.instancePath)).toEqual(['/title']);
    expect(validate?.(REPORT)).toBe(true);
  });

  it('compile in strict mode through the shared validator', () => {
    const ajv = createContractAjv();
    for (const name of Object.keys(openapiDocument.components.schemas)) {
      expect(() => ajv.getSchema(schemaRef(name as never)), name).not.toThrow();
    }
  });

  describe('ReportInput', () => {
    it('accepts a full body, the bounds themselves, and no cvss_vector', () => {
      expect(checkSchema('ReportInput', REPORT).ok).toBe(true);
      const { cvss_vector: _omitted, ...withoutCvss } = REPORT;
      expect(checkSchema('ReportInput', withoutCvss).ok).toBe(true);
      expect(
        checkSchema('ReportInput', {
          ...REPORT,
          program_id: 'a'.repeat(80),
          title: 't'.repeat(180),
          asset: 'a'.repeat(1000),
          description: ' '.repeat(30000),
          cvss_vector: 'c'.repeat(100),
        }).ok,
      ).toBe(true);
    });

    it('rejects a 181-character title and names /title', () => {
      const result = checkSchema('ReportInput', { ...REPORT, title: 'x'.repeat(181) });
      expect(result.ok).toBe(false);
      expect(result.errors.map((e) => e.instancePath)).toEqual(['/title']);
      expect(result.messages[0]).toMatch(/^\/title: /);
    });

    it.each([
      ['asset', { asset: 'a'.repeat(1001) }, '/asset'],
      ['description', { description: 'd'.repeat(30001) }, '/description'],
      ['cvss_vector', { cvss_vector: 'c'.repeat(101) }, '/cvss_vector'],
      ['program_id upper case', { program_id: 'Acme' }, '/program_id'],
      ['program_id empty', { program_id: '' }, '/program_id'],
      ['program_id 81 characters', { program_id: 'a'.repeat(81) }, '/program_id'],
      ['negative revision', { revision: -1 }, '/revision'],
      ['fractional revision', { revision: 1.5 }, '/revision'],
      ['string revision', { revision: '1' }, '/revision'],
      ['extra field', { status: 'draft' }, '/status'],
    ])('rejects %s', (_label, patch, pointer) => {
      expect(pointers('ReportInput', { ...REPORT, ...patch })).toEqual([pointer]);
    });

    it('requires program_id, title, asset, description, revision', () => {
      expect(pointers('ReportInput', {}).sort()).toEqual(
        ['/asset', '/description', '/program_id', '/revision', '/title'].sort(),
      );
    });
  });

  describe('SubmitInput', () => {
    it('accepts a revision and nothing else', () => {
      const ok: SubmitInput = { revision: 3 };
      expect(checkSchema('SubmitInput', ok).ok).toBe(true);
      expect(pointers('SubmitInput', { revision: 3, title: 'x' })).toEqual(['/title']);
      expect(pointers('SubmitInput', { revision: -1 })).toEqual(['/revision']);
      expect(pointers('SubmitInput', {})).toEqual(['/revision']);
    });
  });

  describe('MessageInput', () => {
    it('accepts a body, files, or both within bounds', () => {
      const full: MessageInput = { body: 'b'.repeat(12000), files: Array(10).fill(UUID) };
      expect(checkSchema('MessageInput', full).ok).toBe(true);
      expect(checkSchema('MessageInput', { body: 'reply' }).ok).toBe(true);
      expect(checkSchema('MessageInput', { files: [UUID] }).ok).toBe(true);
    });

    it.each([
      ['a 12001-character body', { body: 'b'.repeat(12001) }, ['/body']],
      ['11 files', { files: Array(11).fill(UUID) }, ['/files']],
      ['a file id that is not a UUID', { files: ['f1'] }, ['/files/0', '/files/0']],
      [
        'a UUID of another version',
        { files: ['2f1c6f9e-3b0a-1c5d-9e7f-0a1b2c3d4e5f'] },
        ['/files/0'],
      ],
      ['an extra field', { body: 'x', author: 'founder' }, ['/author']],
    ])('rejects %s', (_label, value, expected) => {
      expect(pointers('MessageInput', value)).toEqual(expected);
    });
  });

  describe('KeyInput', () => {
    it('accepts a name alone, a scope, a number of days or null', () => {
      const ok: KeyInput[] = [
        { name: 'ci' },
        { name: 'n'.repeat(80), scope: 'read', expires_in_days: 365 },
        { name: 'x', scope: 'write', expires_in_days: 1 },
        { name: 'forever', expires_in_days: null },
      ];
      for (const value of ok) expect(checkSchema('KeyInput', value).messages).toEqual([]);
    });

    it.each([
      ['an empty name', { name: '' }, ['/name']],
      ['an 81-character name', { name: 'n'.repeat(81) }, ['/name']],
      ['an unknown scope', { name: 'k', scope: 'admin' }, ['/scope']],
      ['0 days', { name: 'k', expires_in_days: 0 }, ['/expires_in_days']],
      ['366 days', { name: 'k', expires_in_days: 366 }, ['/expires_in_days']],
      ['fractional days', { name: 'k', expires_in_days: 1.5 }, ['/expires_in_days']],
      ['no name', {}, ['/name']],
      ['an extra field', { name: 'k', key: 'secret' }, ['/key']],
    ])('rejects %s', (_label, value, expected) => {
      expect(pointers('KeyInput', value)).toEqual(expected);
    });
  });

  describe('ResetInput', () => {
    it('accepts an address shaped like an e-mail address, up to 254 characters', () => {
      const ok: ResetInput = { email: 'researcher@example.com' };
      expect(checkSchema('ResetInput', ok).ok).toBe(true);
      const long = `${'l'.repeat(64)}@${'d'.repeat(185)}.com`;
      expect(long).toHaveLength(254);
      expect(checkSchema('ResetInput', { email: long }).ok).toBe(true);
    });

    it.each([
      ['255 characters', `${'l'.repeat(64)}@${'d'.repeat(186)}.com`],
      ['whitespace in the local part', 'a b@example.com'],
      ['no @', 'example.com'],
      ['two @', 'a@b@example.com'],
      ['no dot in the domain', 'a@localhost'],
      ['an empty local part', '@example.com'],
    ])('rejects %s', (_label, email) => {
      expect(pointers('ResetInput', { email })).toContain('/email');
    });

    it('rejects extra fields and a missing address', () => {
      expect(pointers('ResetInput', { email: 'a@b.co', password: 'x' })).toEqual(['/password']);
      expect(pointers('ResetInput', {})).toEqual(['/email']);
    });
  });
});
