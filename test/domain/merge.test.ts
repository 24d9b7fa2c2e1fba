import { describe, expect, it } from 'vitest';
import {
  applyChoices,
  conflictOf,
  mergeDraft,
  mergeLines,
  splitLines,
} from '../../src/engine/domain';
import { contentOf } from '../../src/shared/bridge/draft-content';
import type { DraftContent } from '../../src/shared/bridge/views';

const base: DraftContent = {
  title: 'XSS in search',
  asset: 'https://app.example.com',
  description:
    '## Steps to reproduce\n\n1. Open search\n2. Type payload\n\n## Security impact\n\nSession theft\n',
  cvss_vector: '',
};
const withChanges = (c: Partial<DraftContent>): DraftContent => ({ ...base, ...c });

describe('splitLines', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['a\n', ['a\n']],
    ['a\nb', ['a\n', 'b']],
    ['a\r\nb\r\n', ['a\r\n', 'b\r\n']],
    ['\n\n', ['\n', '\n']],
  ])('%j', (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
    expect(splitLines(text).join('')).toBe(text);
  });
});

describe('mergeDraft: per field', () => {
  it('nothing changed', () => {
    expect(mergeDraft(base, base, base)).toEqual({ merged: base, conflicts: [] });
  });

  it('only ours changed → ours', () => {
    const ours = withChanges({ title: 'Stored XSS in search' });
    expect(mergeDraft(base, ours, base)).toEqual({ merged: ours, conflicts: [] });
  });

  it('only theirs changed → theirs', () => {
    const theirs = withChanges({ asset: 'https://api.example.com' });
    expect(mergeDraft(base, base, theirs)).toEqual({ merged: theirs, conflicts: [] });
  });

  it('different fields changed on each side → both kept', () => {
    const ours = withChanges({ title: 'T2' });
    const theirs = withChanges({ cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N' });
    expect(mergeDraft(base, ours, theirs).merged).toEqual({
      ...base,
      title: 'T2',
      cvss_vector: theirs.cvss_vector,
    });
  });

  it('both changed the same way → that value, no conflict', () => {
    const both = withChanges({ title: 'Same' });
    expect(mergeDraft(base, both, both)).toEqual({ merged: both, conflicts: [] });
  });

  it('both changed a single-line field differently → conflict, merged keeps ours', () => {
    const result = mergeDraft(
      base,
      withChanges({ title: 'Ours' }),
      withChanges({ title: 'Theirs' }),
    );
    expect(result.conflicts).toEqual([
      { field: 'title', base: base.title, ours: 'Ours', theirs: 'Theirs' },
    ]);
    expect(result.merged.title).toBe('Ours');
  });

  it.each(['asset', 'cvss_vector'] as const)('%s conflicts are never line-merged', (field) => {
    const result = mergeDraft(
      withChanges({ [field]: 'a\nb\nc\n' }),
      withChanges({ [field]: 'A\nb\nc\n' }),
      withChanges({ [field]: 'a\nb\nC\n' }),
    );
    expect(result.conflicts.map((c) => c.field)).toEqual([field]);
  });

  it('conflicts come in field order', () => {
    const ours = { title: '1', asset: '1', description: '1', cvss_vector: '1' };
    const theirs = { title: '2', asset: '2', description: '2', cvss_vector: '2' };
    expect(mergeDraft(base, ours, theirs).conflicts.map((c) => c.field)).toEqual([
      'title',
      'asset',
      'description',
      'cvss_vector',
    ]);
  });

  it('an emptied field is a change', () => {
    expect(mergeDraft(base, withChanges({ asset: '' }), base).merged.asset).toBe('');
    expect(
      mergeDraft(base, withChanges({ asset: '' }), withChanges({ asset: 'x' })).conflicts,
    ).toHaveLength(1);
  });

  it('without a base, every difference is a conflict', () => {
    const result = mergeDraft(null, withChanges({ title: 'A' }), base);
    expect(result.conflicts).toEqual([{ field: 'title', base: '', ours: 'A', theirs: base.title }]);
    expect(mergeDraft(null, base, base).conflicts).toEqual([]);
  });
});

describe('mergeDraft: description', () => {
  it('merges edits to distant lines', () => {
    const ours = withChanges({
      description: base.description.replace('1. Open search', '1. Open /search'),
    });
    const theirs = withChanges({
      description: base.description.replace('Session theft', 'Account takeover'),
    });
    const result = mergeDraft(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect(result.merged.description).toBe(
      base.description
        .replace('1. Open search', '1. Open /search')
        .replace('Session theft', 'Account takeover'),
    );
  });

  it('merges an append with an edit at the top', () => {
    const ours = withChanges({ description: `${base.description}\nMore notes.\n` });
    const theirs = withChanges({ description: base.description.replace('## Steps', '## steps') });
    expect(mergeDraft(base, ours, theirs).merged.description).toBe(
      `${base.description.replace('## Steps', '## steps')}\nMore notes.\n`,
    );
  });

  it('keeps CRLF line endings', () => {
    const crlf = base.description.replaceAll('\n', '\r\n');
    const b = withChanges({ description: crlf });
    const ours = withChanges({ description: crlf.replace('Open search', 'Open the search') });
    const theirs = withChanges({ description: crlf.replace('Session theft', 'Theft') });
    expect(mergeDraft(b, ours, theirs).merged.description).toBe(
      crlf.replace('Open search', 'Open the search').replace('Session theft', 'Theft'),
    );
  });

  it('a conflict when both sides edit the same line', () => {
    const ours = withChanges({ description: base.description.replace('Session theft', 'A') });
    const theirs = withChanges({ description: base.description.replace('Session theft', 'B') });
    const result = mergeDraft(base, ours, theirs);
    expect(result.conflicts).toEqual([
      {
        field: 'description',
        base: base.description,
        ours: ours.description,
        theirs: theirs.description,
      },
    ]);
    expect(result.merged.description).toBe(ours.description);
  });

  it('a conflict when both sides edit adjacent lines', () => {
    const ours = withChanges({ description: base.description.replace('1. Open search', '1. X') });
    const theirs = withChanges({
      description: base.description.replace('2. Type payload', '2. Y'),
    });
    expect(mergeDraft(base, ours, theirs).conflicts).toHaveLength(1);
  });

  it('a conflict when both insert different text at the same place', () => {
    expect(mergeLines('a\n', 'x\na\n', 'y\na\n')).toBeNull();
  });

  it('the same insertion on both sides is no conflict', () => {
    expect(mergeLines('a\nb\n', 'a\nx\nb\n', 'a\nx\nb\nc\n')).toBe('a\nx\nb\nc\n');
  });

  it('merges from an empty base when only one side adds', () => {
    expect(mergeLines('', '', 'text\n')).toBe('text\n');
  });

  it('handles a last line without a newline', () => {
    expect(mergeLines('a\nb\nc\nd', 'A\nb\nc\nd', 'a\nb\nc\nD')).toBe('A\nb\nc\nD');
  });
});

describe('applyChoices', () => {
  const conflicted = mergeDraft(
    base,
    { title: 'T-ours', asset: 'A-ours', description: 'D-ours', cvss_vector: '' },
    { title: 'T-theirs', asset: 'A-theirs', description: 'D-theirs', cvss_vector: '' },
  );
  const recorded = conflictOf(conflicted.conflicts);

  it('applies ours, theirs and custom choices', () => {
    const result = applyChoices(conflicted.merged, recorded, {
      title: 'theirs',
      asset: 'ours',
      description: { custom: 'D-both' },
    });
    expect(result).toEqual({
      content: { title: 'T-theirs', asset: 'A-ours', description: 'D-both', cvss_vector: '' },
      remaining: {},
    });
  });

  it('keeps conflicts without a choice', () => {
    const result = applyChoices(conflicted.merged, recorded, { title: 'theirs' });
    expect(Object.keys(result.remaining)).toEqual(['asset', 'description']);
    expect(result.remaining.asset).toEqual({
      base: base.asset,
      ours: 'A-ours',
      theirs: 'A-theirs',
    });
    expect(result.content.title).toBe('T-theirs');
    expect(result.content.asset).toBe('A-ours');
  });

  it('ignores choices for fields that are not in conflict', () => {
    const clean = mergeDraft(base, withChanges({ title: 'mine' }), base);
    expect(
      applyChoices(clean.merged, conflictOf(clean.conflicts), {
        title: 'theirs',
        asset: { custom: 'x' },
      }),
    ).toEqual({ content: clean.merged, remaining: {} });
  });

  it('does not change its input', () => {
    const before = JSON.stringify([conflicted, recorded]);
    applyChoices(conflicted.merged, recorded, {
      title: 'theirs',
      asset: 'theirs',
      description: 'theirs',
    });
    expect(JSON.stringify([conflicted, recorded])).toBe(before);
  });

  it('an empty custom value is allowed', () => {
    expect(applyChoices(conflicted.merged, recorded, { title: { custom: '' } }).content.title).toBe(
      '',
    );
  });
});

describe('contentOf', () => {
  it('picks the content fields only', () => {
    const report = { ...base, id: 'x', revision: 3 } as DraftContent;
    expect(contentOf(report)).toEqual(base);
  });
});
