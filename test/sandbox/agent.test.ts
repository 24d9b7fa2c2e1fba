import { describe, expect, it } from 'vitest';
import type { ReportBody } from './helpers';
import { createDraft, Sbx, submit, upload } from './helpers';

async function read(sbx: Sbx, token: string, id: string): Promise<ReportBody> {
  return (await sbx.call<ReportBody>('GET', `/api/reports/${id}`, { token })).body;
}

describe('sandbox contract: automatic triage agent', () => {
  const sbx = Sbx.perFile({ agent: 'auto' });

  it('asks for more information when a report has no evidence file, after a clock delay', async () => {
    const { write } = await sbx.newAccount();
    const r = (await submit(sbx, write, await createDraft(sbx, write))).body;
    expect(r.status).toBe('triaging');
    await sbx.call('GET', '/api/me', { token: write });
    expect((await read(sbx, write, r.id)).status).toBe('triaging');
    await sbx.advance(25);
    expect((await read(sbx, write, r.id)).status).toBe('needs_info');
    const thread = await sbx.call<{ messages: { author: string }[] }>(
      'GET',
      `/api/reports/${r.id}/messages`,
      { token: write },
    );
    expect(thread.body.messages.at(-1)?.author).toBe('agent');
  });

  it('moves a report with evidence on: review, decision, payout', async () => {
    const { write } = await sbx.newAccount();
    let r = await createDraft(sbx, write, {
      title: 'Account takeover through the password form',
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    });
    r = (await upload(sbx, write, r, 'proof')).body;
    r = (await submit(sbx, write, r)).body;
    await sbx.advance(25);
    expect((await read(sbx, write, r.id)).status).toBe('human_review');
    await sbx.advance(25);
    const decided = await read(sbx, write, r.id);
    expect(decided.status).toBe('accepted');
    expect(decided.payout?.status).toBe('approving');
    await sbx.advance(25);
    await sbx.advance(25);
    const paid = await read(sbx, write, r.id);
    expect(paid.payout?.status).toBe('received');
    expect(paid.updated_at).toBe(decided.updated_at);
  });

  it('acts on a real-time tick without any request', async () => {
    const { write } = await sbx.newAccount();
    const r = (await submit(sbx, write, await createDraft(sbx, write))).body;
    sbx.handle.env.clock.advance(25);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sbx.handle.env.world.reports.get(r.id)?.status).toBe('needs_info');
  });

  it('a reply to needs_info starts a new turn: triaging, then review', async () => {
    const { write } = await sbx.newAccount();
    const r = (await submit(sbx, write, await createDraft(sbx, write))).body;
    await sbx.advance(25);
    const replied = await sbx.call<ReportBody>('POST', `/api/reports/${r.id}/messages`, {
      token: write,
      body: { body: 'Here is more detail.' },
    });
    expect(replied.body.status).toBe('triaging');
    await sbx.advance(25);
    expect((await read(sbx, write, r.id)).status).toBe('human_review');
  });

  it('withdraw stops a queued turn', async () => {
    const { write } = await sbx.newAccount();
    const r = (await submit(sbx, write, await createDraft(sbx, write))).body;
    await sbx.call('POST', `/api/reports/${r.id}/withdraw`, { token: write });
    await sbx.advance(25);
    expect((await read(sbx, write, r.id)).status).toBe('withdrawn');
  });
});

describe('sandbox contract: manual agent', () => {
  it('moves nothing unless a control route says so', async () => {
    const sbx = await Sbx.start({ agent: 'manual' });
    try {
      const { write } = await sbx.newAccount();
      const r = (await submit(sbx, write, await createDraft(sbx, write))).body;
      await sbx.advance(3600);
      expect((await read(sbx, write, r.id)).status).toBe('triaging');
    } finally {
      await sbx.close();
    }
  });
});
