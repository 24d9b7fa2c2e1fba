import { describe, expect, it } from 'vitest';
import type { Program } from '../support/sandbox-client';
import { draftInput, expectError, freshAccount, freshDraft, ok, useSandbox, uuid } from './helpers';

const fx = useSandbox();

const FINAL = ['accepted', 'rejected', 'duplicate', 'insufficient_info'] as const;

describe('3. States and transitions — report statuses', () => {
  it('draft → triaging → needs_info → reply → triaging → withdrawn', async () => {
    const { me, draft } = await freshDraft(fx);
    expect(draft.status).toBe('draft');
    const submitted = ok(await me.w.submit(draft.id, draft.revision));
    expect(submitted.status).toBe('triaging');
    await fx.sb.act(draft.id, { actor: 'agent', status: 'needs_info', message: 'Which account?' });
    expect(ok(await me.w.get(draft.id)).status).toBe('needs_info');
    const replied = ok(await me.w.post(draft.id, { body: 'A free-tier account.' }));
    expect(replied.status).toBe('triaging');
    const withdrawn = ok(await me.w.withdraw(draft.id));
    expect(withdrawn.status).toBe('withdrawn');
  });

  it('withdraw works from needs_info, paused and human_review', async () => {
    const me = await freshAccount(fx.sb);
    for (const status of ['needs_info', 'paused', 'human_review']) {
      const report = await me.w.submitted(fx.open);
      await fx.sb.act(report.id, { actor: 'founder', status });
      expect(ok(await me.w.withdraw(report.id)).status, status).toBe('withdrawn');
    }
  });

  it('withdraw after a final decision gives 409 invalid_state and leaves the status', async () => {
    const me = await freshAccount(fx.sb);
    for (const outcome of FINAL) {
      const report = await me.w.submitted(fx.open);
      await fx.sb.act(report.id, {
        actor: 'founder',
        status: outcome,
        message: `Decision: ${outcome}`,
      });
      const decided = ok(await me.w.get(report.id));
      expect(decided.decision?.outcome).toBe(outcome);
      expectError(await me.w.withdraw(report.id), 409, 'invalid_state');
      expect(ok(await me.w.get(report.id))).toEqual(decided);
    }
  });

  it('withdrawing a withdrawn report again changes nothing', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const first = ok(await me.w.withdraw(report.id));
    expect(ok(await me.w.withdraw(report.id))).toEqual(first);
  });

  it('only a draft can be edited: triaging, needs_info, withdrawn and accepted give 409 invalid_state', async () => {
    const me = await freshAccount(fx.sb);
    const triaging = await me.w.submitted(fx.open);
    const needsInfo = await me.w.submitted(fx.open);
    await fx.sb.act(needsInfo.id, { actor: 'agent', status: 'needs_info', message: 'More?' });
    const withdrawn = await me.w.submitted(fx.open);
    ok(await me.w.withdraw(withdrawn.id));
    const accepted = await me.w.submitted(fx.open);
    await fx.sb.act(accepted.id, { actor: 'founder', status: 'accepted' });
    for (const report of [triaging, needsInfo, withdrawn, accepted]) {
      const current = ok(await me.w.get(report.id));
      expectError(
        await me.w.save(
          report.id,
          draftInput(fx.open, { title: 'edited', revision: current.revision }),
        ),
        409,
        'invalid_state',
      );
      expect(ok(await me.w.get(report.id)).title).toBe(report.title);
    }
  });

  it('a message in a non-final status other than needs_info leaves the status unchanged', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    for (const status of ['paused', 'human_review', 'triaging']) {
      await fx.sb.act(report.id, { actor: 'founder', status });
      expect(ok(await me.w.post(report.id, { body: `note in ${status}` })).status).toBe(status);
    }
  });

  it('active statuses (triaging, needs_info, paused) hold a slot; human_review, final and withdrawn do not', async () => {
    const me = await freshAccount(fx.sb);
    const a = await me.w.submitted(fx.open);
    const b = await me.w.submitted(fx.open);
    const c = await me.w.submitted(fx.open);
    const d = await me.w.submitted(fx.open);
    const e = await me.w.submitted(fx.open);
    await fx.sb.act(b.id, { actor: 'agent', status: 'needs_info', message: 'details?' });
    await fx.sb.act(c.id, { actor: 'founder', status: 'paused' });
    expect(ok(await me.w.me()).active_reports).toBe(5);
    await fx.sb.act(d.id, { actor: 'founder', status: 'human_review' });
    expect(ok(await me.w.me()).active_reports).toBe(4);
    await fx.sb.act(e.id, { actor: 'founder', status: 'accepted' });
    expect(ok(await me.w.me()).active_reports).toBe(3);
    ok(await me.w.withdraw(a.id));
    expect(ok(await me.w.me()).active_reports).toBe(2);
  });

  it('an already submitted report: submit with the same revision returns it unchanged, no second triage', async () => {
    const { me, draft } = await freshDraft(fx);
    ok(await me.w.submit(draft.id, draft.revision));
    await fx.sb.act(draft.id, { actor: 'agent', status: 'needs_info', message: 'Question' });
    const before = ok(await me.w.get(draft.id));
    const thread = ok(await me.w.messages(draft.id)).messages.length;
    const again = ok(await me.w.submit(draft.id, draft.revision));
    expect(again).toEqual(before);
    expect(again.status).toBe('needs_info');
    expect(ok(await me.w.messages(draft.id)).messages).toHaveLength(thread);
    await fx.sb.act(draft.id, { actor: 'founder', status: 'duplicate' });
    const decided = ok(await me.w.get(draft.id));
    expect(ok(await me.w.submit(draft.id, draft.revision))).toEqual(decided);
  });

  it('a program accepts new reports only when intake is open and pool_paused is false', async () => {
    const me = await freshAccount(fx.sb);
    const id = fx.programs.open.id;
    try {
      await fx.sb.patchProgram(id, { intake: 'paused' });
      const r1 = await me.w.draft(id);
      expectError(await me.w.submit(r1.id, r1.revision), 409, 'program_closed');
      await fx.sb.patchProgram(id, { intake: 'open', pool_paused: true });
      expectError(await me.w.submit(r1.id, r1.revision), 409, 'pool_low');
      await fx.sb.patchProgram(id, { pool_paused: false });
      expect(ok(await me.w.submit(r1.id, r1.revision)).status).toBe('triaging');
    } finally {
      await fx.sb.patchProgram(id, { intake: 'open', pool_paused: false });
    }
  });

  it('program_id is fixed from creation', async () => {
    const { me, draft } = await freshDraft(fx);
    const other = fx.programs.closed.id;
    const res = await me.w.save(draft.id, draftInput(other, { revision: draft.revision }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(ok(await me.w.get(draft.id)).program_id).toBe(fx.open);
  });
});

describe('3. States and transitions — revision rules', () => {
  it('rule 1: revision increases on save, upload, removal, submit and withdraw', async () => {
    const me = await freshAccount(fx.sb);
    const created = await me.w.draft(fx.open);
    const saved = ok(
      await me.w.save(created.id, draftInput(fx.open, { title: 't2', revision: created.revision })),
    );
    expect(saved.revision).toBeGreaterThan(created.revision);
    const fileId = uuid();
    const uploaded = await me.w.attach(saved, fileId);
    expect(uploaded.revision).toBeGreaterThan(saved.revision);
    const removed = ok(await me.w.removeFile(created.id, fileId, uploaded.revision));
    expect(removed.revision).toBeGreaterThan(uploaded.revision);
    const submitted = ok(await me.w.submit(created.id, removed.revision));
    expect(submitted.revision).toBeGreaterThan(removed.revision);
    const withdrawn = ok(await me.w.withdraw(created.id));
    expect(withdrawn.revision).toBeGreaterThan(submitted.revision);
  });

  it('rule 1: a message does not change revision (reply or note)', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const note = ok(await me.w.post(report.id, { body: 'note' }));
    expect(note.revision).toBe(report.revision);
    await fx.sb.act(report.id, { actor: 'agent', status: 'needs_info', message: 'Q?' });
    const asked = ok(await me.w.get(report.id));
    const reply = ok(await me.w.post(report.id, { body: 'A.' }));
    expect(reply.status).toBe('triaging');
    expect(reply.revision).toBe(asked.revision);
  });

  it('rule 2: a new draft is created with revision 0; later changes send the last revision', async () => {
    const me = await freshAccount(fx.sb);
    const id = uuid();
    const created = ok(await me.w.save(id, draftInput(fx.open, { revision: 0 })));
    const next = ok(
      await me.w.save(id, draftInput(fx.open, { title: 'x', revision: created.revision })),
    );
    const third = ok(
      await me.w.save(id, draftInput(fx.open, { title: 'y', revision: next.revision })),
    );
    expect(third.title).toBe('y');
    const body = expectError(
      await me.w.save(id, draftInput(fx.open, { title: 'z', revision: 0 })),
      409,
      'revision_conflict',
    );
    expect(body.current).toEqual(third);
  });

  it('rule 3: a stale revision gives 409 revision_conflict whose current is the stored report', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const stored = await me.w.attach(draft, fileId);
    const stale = draft.revision;
    const attempts = [
      await me.w.save(draft.id, draftInput(fx.open, { revision: stale })),
      await me.w.upload(draft.id, uuid(), { revision: stale }),
      await me.w.removeFile(draft.id, fileId, stale),
      await me.w.submit(draft.id, stale),
    ];
    for (const res of attempts) {
      const body = expectError(res, 409, 'revision_conflict');
      expect(body.current).toEqual(stored);
    }
    expect(ok(await me.w.get(draft.id))).toEqual(stored);
  });
});

describe('3. States and transitions — the frozen submission', () => {
  it('policy_version and policy text stay as at submit after the program policy changes', async () => {
    const me = await freshAccount(fx.sb);
    const before = ok(await fx.sb.api<Program>('GET', `/api/programs/${fx.open}`));
    const report = await me.w.submitted(fx.open);
    expect(report.submission?.program).toMatchObject({
      policy_version: before.policy_version,
      name: before.name,
      scope: before.scope,
      exclusions: before.exclusions,
      rules: before.rules,
      eligibility: before.eligibility,
      disclosure: before.disclosure,
      rewards: before.rewards,
    });
    await fx.sb.patchProgram(fx.open, {
      policy: {
        scope: 'Only *.changed.example',
        rewards: { low: 1, medium: 2, high: 3, critical: 4 },
      },
    });
    const after = ok(await fx.sb.api<Program>('GET', `/api/programs/${fx.open}`));
    expect(after.policy_version).toBeGreaterThan(before.policy_version);
    expect(after.scope).toBe('Only *.changed.example');
    const frozen = ok(await me.w.get(report.id));
    expect(frozen.submission).toEqual(report.submission);
    const later = await me.w.submitted(fx.open);
    expect(later.submission?.program.policy_version).toBe(after.policy_version);
    expect(later.submission?.program.scope).toBe('Only *.changed.example');
  });

  it('the submission keeps the content as at submit', async () => {
    const { me, draft } = await freshDraft(fx, { title: 'Frozen title' });
    const submitted = ok(await me.w.submit(draft.id, draft.revision));
    await fx.sb.act(draft.id, { actor: 'agent', status: 'needs_info', message: 'x' });
    ok(await me.w.post(draft.id, { body: 'y' }));
    const now = ok(await me.w.get(draft.id));
    expect(now.submission).toEqual(submitted.submission);
    expect(now.submission?.content.title).toBe('Frozen title');
  });
});

describe('3. States and transitions — safe repeats', () => {
  it('draft save with the same id, upload with the same id and content, submit, withdraw', async () => {
    const me = await freshAccount(fx.sb);
    const id = uuid();
    const input = draftInput(fx.open);
    const created = ok(await me.w.save(id, input));
    const repeatCreate = await me.w.save(id, input);
    expect([200, 409]).toContain(repeatCreate.status);
    const current = ok(await me.w.get(id));
    const fileId = uuid();
    const up1 = ok(await me.w.upload(id, fileId, { revision: current.revision, data: 'same' }));
    const up2 = ok(await me.w.upload(id, fileId, { revision: up1.revision, data: 'same' }));
    expect(Object.keys(up2.attachments)).toEqual([fileId]);
    const sub1 = ok(await me.w.submit(id, up2.revision));
    const sub2 = ok(await me.w.submit(id, up2.revision));
    expect(sub2).toEqual(sub1);
    const w1 = ok(await me.w.withdraw(id));
    const w2 = ok(await me.w.withdraw(id));
    expect(w2).toEqual(w1);
    expect(ok(await me.w.submit(id, up2.revision))).toEqual(w1);
    expect(ok(await me.w.list()).reports.map((r) => r.id)).toEqual([created.id]);
  });
});
