import { describe, expect, it } from 'vitest';
import type { Report } from '../support/sandbox-client';
import {
  DESCRIPTION,
  draftInput,
  expectError,
  freshAccount,
  freshDraft,
  ok,
  useSandbox,
  uuid,
} from './helpers';

const fx = useSandbox();

const KiB = 1024;
const MiB = 1024 * KiB;

/** A valid ReportInput as JSON, padded with whitespace to exactly `size` bytes. */
function paddedJson(input: object, size: number): string {
  const json = JSON.stringify(input);
  return json + ' '.repeat(size - Buffer.byteLength(json));
}

describe('8. Limits — sizes', () => {
  it('a JSON body of 256 KiB is accepted; one byte more gives 413 too_large', async () => {
    const me = await freshAccount(fx.sb);
    const id = uuid();
    const atLimit = await me.w.api<Report>('PUT', `/api/reports/${id}`, {
      rawBody: paddedJson(draftInput(fx.open), 256 * KiB),
      contentType: 'application/json',
    });
    const created = ok(atLimit);
    const over = await me.w.api('PUT', `/api/reports/${id}`, {
      rawBody: paddedJson(
        draftInput(fx.open, { title: 'over', revision: created.revision }),
        256 * KiB + 1,
      ),
      contentType: 'application/json',
    });
    expectError(over, 413, 'too_large');
    expect(ok(await me.w.get(id)).title).toBe(created.title);
  });

  it('an oversized JSON body gives 413 too_large before any field check', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    expectError(
      await me.w.api('PUT', `/api/reports/${uuid()}`, {
        body: { ...draftInput(fx.open), description: 'd'.repeat(300 * KiB) },
      }),
      413,
      'too_large',
    );
    expectError(
      await me.w.api('POST', `/api/reports/${report.id}/messages`, {
        body: { body: 'm'.repeat(300 * KiB) },
      }),
      413,
      'too_large',
    );
  });

  it('the JSON body limit holds on other routes too (keys, password reset)', async () => {
    const me = await freshAccount(fx.sb);
    expectError(
      await me.session.createKey({ name: 'k', pad: 'p'.repeat(300 * KiB) }),
      413,
      'too_large',
    );
    expectError(
      await fx.sb.api('POST', '/api/auth/password-reset', {
        body: { email: 'a@example.com', pad: 'p'.repeat(300 * KiB) },
      }),
      413,
      'too_large',
    );
  });

  it('a file of exactly 10 MiB is accepted; one byte more gives 413 too_large', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const big = ok(
      await me.w.upload(draft.id, fileId, {
        revision: draft.revision,
        name: 'ten.bin',
        data: Buffer.alloc(10 * MiB, 0x41),
        contentType: 'application/octet-stream',
      }),
    );
    expect(big.attachments[fileId]?.size).toBe(10 * MiB);
    expectError(
      await me.w.upload(draft.id, uuid(), {
        revision: big.revision,
        name: 'eleven.bin',
        data: Buffer.alloc(10 * MiB + 1, 0x41),
        contentType: 'application/octet-stream',
      }),
      413,
      'too_large',
    );
  });

  it('a file is not empty (422 empty_file)', async () => {
    const { me, draft } = await freshDraft(fx);
    expectError(
      await me.w.upload(draft.id, uuid(), { revision: draft.revision, data: '' }),
      422,
      'empty_file',
    );
  });
});

describe('8. Limits — counts', () => {
  type Me = Awaited<ReturnType<typeof freshAccount>>;

  /** Attaches ten files (`${prefix}0.txt`…) one by one: the report after the last, and their ids. */
  async function attachTen(me: Me, report: Report, prefix: string) {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = uuid();
      ids.push(id);
      report = await me.w.attach(report, id, `${prefix}${i}`, `${prefix}${i}.txt`);
    }
    return { report, ids };
  }

  /** One more upload is refused: 409 file_limit. */
  async function expectFileLimit(me: Me, report: Report) {
    expectError(
      await me.w.upload(report.id, uuid(), { revision: report.revision }),
      409,
      'file_limit',
    );
  }

  it('files on a draft: 10; the eleventh gives 409 file_limit', async () => {
    const me = await freshAccount(fx.sb);
    const { report } = await attachTen(me, await me.w.draft(fx.open), 'f');
    await expectFileLimit(me, report);
    expect(Object.keys(ok(await me.w.get(report.id)).attachments)).toHaveLength(10);
  });

  it('pending message files: 10; the eleventh gives 409 file_limit', async () => {
    const me = await freshAccount(fx.sb);
    const { report } = await attachTen(me, await me.w.submitted(fx.open), 'm');
    await expectFileLimit(me, report);
  });

  it('files on a report in total: 40', async () => {
    const me = await freshAccount(fx.sb);
    let report = (await attachTen(me, await me.w.draft(fx.open), 'd')).report;
    report = ok(await me.w.submit(report.id, report.revision));
    for (let round = 0; round < 3; round++) {
      const attached = await attachTen(me, report, `r${round}-`);
      ok(await me.w.post(report.id, { body: `round ${round}`, files: attached.ids }));
      report = ok(await me.w.get(report.id));
    }
    await expectFileLimit(me, report);
  });

  it('files per message: 10 ids (11 give 422 validation_error)', async () => {
    const me = await freshAccount(fx.sb);
    const { report, ids } = await attachTen(me, await me.w.submitted(fx.open), 'p');
    expectError(await me.w.post(report.id, { files: [...ids, uuid()] }), 422, 'validation_error');
    ok(await me.w.post(report.id, { files: ids }));
  });
});

describe('8. Limits — lengths (422 validation_error whose detail names the field)', () => {
  const cases: { field: 'title' | 'asset' | 'description' | 'cvss_vector'; max: number }[] = [
    { field: 'title', max: 180 },
    { field: 'asset', max: 1000 },
    { field: 'description', max: 30000 },
  ];

  for (const { field, max } of cases) {
    it(`${field}: ${max} characters accepted, ${max + 1} rejected`, async () => {
      const me = await freshAccount(fx.sb);
      const fill = (n: number) =>
        field === 'description' ? DESCRIPTION + ' '.repeat(n - DESCRIPTION.length) : 'a'.repeat(n);
      const atMax = ok(await me.w.save(uuid(), draftInput(fx.open, { [field]: fill(max) })));
      expect(atMax[field]).toHaveLength(max);
      const body = expectError(
        await me.w.save(uuid(), draftInput(fx.open, { [field]: fill(max + 1) })),
        422,
        'validation_error',
      );
      expect(body.detail).toContain(field);
    });
  }

  it('description: whitespace counts', async () => {
    const me = await freshAccount(fx.sb);
    const body = expectError(
      await me.w.save(uuid(), draftInput(fx.open, { description: ' '.repeat(30001) })),
      422,
      'validation_error',
    );
    expect(body.detail).toContain('description');
  });

  it('cvss_vector: at most 100 characters and a valid CVSS 3.1 base vector', async () => {
    const me = await freshAccount(fx.sb);
    for (const vector of [
      'x'.repeat(101),
      'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L',
      'CVSS:3.1/AV:Z/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
      'CVSS:2.0/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    ]) {
      const body = expectError(
        await me.w.save(uuid(), draftInput(fx.open, { cvss_vector: vector })),
        422,
        'validation_error',
      );
      expect(body.detail, vector).toContain('cvss_vector');
    }
    ok(
      await me.w.save(
        uuid(),
        draftInput(fx.open, { cvss_vector: 'CVSS:3.1/AV:P/AC:H/PR:H/UI:N/S:U/C:N/I:N/A:H' }),
      ),
    );
  });

  it('message body: 12000 characters', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    ok(await me.w.post(report.id, { body: 'm'.repeat(12000) }));
    const body = expectError(
      await me.w.post(report.id, { body: 'm'.repeat(12001) }),
      422,
      'validation_error',
    );
    expect(body.detail).toContain('body');
  });

  it('file name: 1 to 180 characters', async () => {
    const { me, draft } = await freshDraft(fx);
    const withName = ok(
      await me.w.upload(draft.id, uuid(), {
        revision: draft.revision,
        name: `${'n'.repeat(176)}.txt`,
      }),
    );
    const res = await me.w.upload(draft.id, uuid(), {
      revision: withName.revision,
      name: `${'n'.repeat(177)}.txt`,
    });
    expect(res.status).toBe(422);
  });
});
