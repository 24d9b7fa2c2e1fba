import { describe, expect, it } from 'vitest';
import { useTempStore } from './fixtures';

const t = useTempStore();

const content = (title: string) => ({
  title,
  asset: 'https://acme.example',
  description: '## Steps to reproduce\n\n1. open',
  cvss_vector: '',
});

describe('drafts', () => {
  it('saves content offline as local-only, then keeps the acknowledged base apart', () => {
    const { drafts } = t.store;
    const saved = drafts.setContent('R1', 'acme-web', content('v1'), '2025-01-01T00:00:00.000Z');
    expect(saved).toMatchObject({ title: 'v1', localOnly: true, base: null, baseRevision: null });

    drafts.acknowledge('R1', content('v1'), 1);
    drafts.setContent('R1', 'acme-web', content('v2 typing'));
    expect(drafts.get('R1')).toMatchObject({
      title: 'v2 typing',
      base: content('v1'),
      baseRevision: 1,
      localOnly: false,
    });
  });

  it('keeps the program fixed once created, like the server', () => {
    t.store.drafts.setContent('R1', 'acme-web', content('v1'));
    t.store.drafts.setContent('R1', 'other', content('v2'));
    expect(t.store.drafts.get('R1')?.programId).toBe('acme-web');
  });

  it('records and clears a conflict', () => {
    const { drafts } = t.store;
    drafts.setContent('R1', 'acme-web', content('mine'));
    drafts.setConflict('R1', { title: { base: 'v1', ours: 'mine', theirs: 'theirs' } });
    expect(drafts.get('R1')?.conflict).toEqual({
      title: { base: 'v1', ours: 'mine', theirs: 'theirs' },
    });
    drafts.setConflict('R1', null);
    expect(drafts.get('R1')?.conflict).toBeNull();
  });

  it('survives a re-open, lists newest first and deletes', () => {
    t.store.drafts.setContent('old', 'p', content('a'), '2025-01-01T00:00:00.000Z');
    t.store.drafts.setContent('new', 'p', content('b'), '2025-01-02T00:00:00.000Z');
    t.reopen();
    expect(t.store.drafts.list().map((d) => d.reportId)).toEqual(['new', 'old']);
    t.store.drafts.delete('old');
    expect(t.store.drafts.get('old')).toBeNull();
  });
});
