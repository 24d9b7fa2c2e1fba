import { describe, expect, it } from 'vitest';
import {
  makeMarker,
  offsetFromMarked,
  snapOutOfWord,
  successiveOffsets,
} from '../../src/renderer/src/lib/editor-offset';
import { fileLinkMarkdown, insertFileLink } from '../../src/shared/rules/file-links';

describe('drop point → Markdown offset', () => {
  const md = '## Steps to reproduce\n\nOpen the page.\n\n## Security impact\n\nPhishing.\n';

  it('finds the marker inside a paragraph', () => {
    const marker = 'BDDROPabcX';
    const marked = md.replace('Open the', `Open ${marker}the`);
    const offset = offsetFromMarked(marked, marker, md);
    expect(md.slice(0, offset)).toBe('## Steps to reproduce\n\nOpen ');
  });

  it('clamps to the shared prefix when the marker became its own paragraph', () => {
    const marker = 'BDDROPabcX';
    const marked = md.replace('\n\n## Security', `\n\n${marker}\n\n## Security`);
    const offset = offsetFromMarked(marked, marker, md);
    expect(md.slice(0, offset)).toBe('## Steps to reproduce\n\nOpen the page.\n\n');
  });

  it('ignores escapes the marker made the serializer add', () => {
    const marker = 'BDDROPabcX';
    const text = 'Phishing pages can borrow the trusted login flow.\n';
    const marked = `Phishing pages can borrow the trusted login flow\\.${marker}\n`;
    expect(offsetFromMarked(marked, marker, text)).toBe(text.length - 1);
  });

  it('falls back to the end when the marker is missing', () => {
    expect(offsetFromMarked(md, 'BDDROPnopeX', md)).toBe(md.length);
  });

  it('makes markers that Markdown leaves alone', () => {
    const marker = makeMarker(() => 0.123456);
    expect(marker).toMatch(/^BDDROP[0-9a-z]+X$/);
  });

  it('inserting the file link at the offset puts it at the drop point', () => {
    const marker = makeMarker();
    const marked = md.replace('Phishing.', `Phishing.${marker}`);
    const offset = offsetFromMarked(marked, marker, md);
    const out = insertFileLink(md, offset, { name: 'poc.txt', reportId: 'r', fileId: 'f' });
    expect(out).toContain('Phishing.[poc.txt](/reports/r/files/f)\n');
  });

  it('moves a drop inside a word to the end of that word', () => {
    const text = 'Phishing pages';
    expect(snapOutOfWord(text, 3)).toBe(8);
    expect(snapOutOfWord(text, 8)).toBe(8);
    expect(snapOutOfWord(text, 0)).toBe(0);
    expect(snapOutOfWord(text, text.length)).toBe(text.length);
    expect(snapOutOfWord('flow.', 4)).toBe(4);
    expect(snapOutOfWord('Grüße Welt', 2)).toBe(5);
  });

  it('places several dropped files one after another, in order', () => {
    const links = ['a.txt', 'b.png'].map((name, i) =>
      fileLinkMarkdown({ name, reportId: 'r', fileId: `f${i}`, image: name.endsWith('.png') }),
    );
    const offsets = successiveOffsets(
      4,
      links.map((l) => l.length),
    );
    let text = 'abc def';
    text = insertFileLink(text, offsets[0] ?? 0, { name: 'a.txt', reportId: 'r', fileId: 'f0' });
    text = insertFileLink(text, offsets[1] ?? 0, {
      name: 'b.png',
      reportId: 'r',
      fileId: 'f1',
      image: true,
    });
    expect(text).toBe('abc [a.txt](/reports/r/files/f0)![b.png](/reports/r/files/f1)def');
  });
});
