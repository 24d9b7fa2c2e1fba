import { describe, expect, it } from 'vitest';
import {
  makeMarker,
  offsetFromMarked,
  snapOutOfWord,
} from '../../src/renderer/src/lib/editor-offset';
import { insertFileLink, insertFileLinkAt } from '../../src/shared/rules/file-link-insertion';

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
    // Never glued to the sentence: a space between.
    expect(out).toContain('Phishing. [poc.txt](/reports/r/files/f)\n');
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

  it('places several dropped files one after another, in order, separated', () => {
    let text = 'abc def';
    let at = 4;
    for (const [i, name] of ['a.txt', 'b.png'].entries()) {
      const next = insertFileLinkAt(text, at, {
        name,
        reportId: 'r',
        fileId: `f${i}`,
        image: name.endsWith('.png'),
      });
      text = next.markdown;
      at = next.end;
    }
    expect(text).toBe('abc [a.txt](/reports/r/files/f0) ![b.png](/reports/r/files/f1) def');
  });
});
