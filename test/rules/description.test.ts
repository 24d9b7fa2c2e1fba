import { describe, expect, it } from 'vitest';
import {
  TEMPLATE_HEADINGS,
  checkDescription,
  descriptionTemplate,
  templateHeadingOf,
} from '../../src/shared/rules/index';

const filled = (parts: Partial<Record<(typeof TEMPLATE_HEADINGS)[number], string>>) =>
  TEMPLATE_HEADINGS.map((h) => `## ${h}\n\n${parts[h] ?? ''}\n`).join('\n');

const all = (body: string) => filled(Object.fromEntries(TEMPLATE_HEADINGS.map((h) => [h, body])));

describe('descriptionTemplate', () => {
  it('has the four headings as ## with an empty line under each', () => {
    expect(descriptionTemplate()).toBe(
      '## Steps to reproduce\n\n## Expected behavior\n\n## Actual behavior\n\n## Security impact\n\n',
    );
  });
  it('is present but incomplete', () => {
    const check = checkDescription(descriptionTemplate());
    expect(check.complete).toBe(false);
    expect(check.sections.map((s) => [s.heading, s.present, s.hasText])).toEqual(
      TEMPLATE_HEADINGS.map((h) => [h, true, false]),
    );
  });
});

describe('checkDescription', () => {
  it('is complete when every section has text', () => {
    expect(checkDescription(all('Some words.')).complete).toBe(true);
  });

  it('reports sections in template order whatever the document order', () => {
    const md = [...TEMPLATE_HEADINGS]
      .reverse()
      .map((h) => `# ${h}\ntext\n`)
      .join('\n');
    const check = checkDescription(md);
    expect(check.complete).toBe(true);
    expect(check.sections.map((s) => s.heading)).toEqual([...TEMPLATE_HEADINGS]);
  });

  it('flags one empty section', () => {
    const check = checkDescription(
      filled({
        'Steps to reproduce': '1. go',
        'Expected behavior': 'x',
        'Actual behavior': '',
        'Security impact': 'y',
      }),
    );
    expect(check.complete).toBe(false);
    expect(check.sections.find((s) => s.heading === 'Actual behavior')).toEqual({
      heading: 'Actual behavior',
      present: true,
      hasText: false,
    });
    expect(check.sections.filter((s) => s.hasText)).toHaveLength(3);
  });

  it('flags a missing heading', () => {
    const md = all('text').replace('## Security impact', 'Security impact');
    const check = checkDescription(md);
    expect(check.complete).toBe(false);
    expect(check.sections[3]).toEqual({
      heading: 'Security impact',
      present: false,
      hasText: false,
    });
  });

  it('the empty string has nothing', () => {
    expect(checkDescription('')).toEqual({
      complete: false,
      sections: TEMPLATE_HEADINGS.map((heading) => ({ heading, present: false, hasText: false })),
    });
  });

  it('matches headings case-insensitively, at any level, trimmed, setext too', () => {
    const md =
      '# steps TO reproduce   \nA\n\n###### Expected   behavior\nB\n\nActual Behavior\n===\nC\n\n' +
      'SECURITY IMPACT\n---\nD\n';
    expect(checkDescription(md).complete).toBe(true);
    expect(templateHeadingOf('  Security\timpact ')).toBe('Security impact');
  });

  it('a closing ATX sequence is not part of the heading', () => {
    expect(checkDescription(all('x').replaceAll('\n\nx', ' ##\n\nx')).complete).toBe(true);
  });

  it('does not accept a heading with extra words or punctuation', () => {
    const md = all('x').replace('## Security impact', '## Security impact:');
    expect(checkDescription(md).sections[3]?.present).toBe(false);
  });

  it.each([
    ['a list', '- item'],
    ['an ordered list', '1. first'],
    ['a fenced code block', '```\ncurl x\n```'],
    ['an indented code block', '    curl x'],
    ['an image', '![shot](/reports/r/files/f)'],
    ['a link', '[poc](https://example.com)'],
    ['a table', '| a | b |\n|---|---|\n| 1 | 2 |'],
    ['a block quote', '> quoted'],
    ['inline code', '`x`'],
    ['emphasis', '*bold claim*'],
    ['a task list', '- [ ] step'],
    ['HTML with text', '<details>more</details>'],
    ['a heading inside a list', '- ## heading in list'],
  ])('%s counts as text', (_name, body) => {
    expect(checkDescription(all(body)).complete).toBe(true);
  });

  it.each([
    ['whitespace only', '   \n\n   '],
    ['an HTML comment', '<!-- describe the steps -->'],
    ['a thematic break', '***'],
    ['an empty fenced code block', '```\n```'],
    ['a link reference definition', '[x]: https://example.com'],
    ['an empty block quote', '>'],
    ['an empty list item', '-'],
    ['an editor line break', '<br />'],
    ['two editor line breaks', '<br />\n\n<br>'],
  ])('%s does not count as text', (_name, body) => {
    const check = checkDescription(all(body));
    expect(check.complete).toBe(false);
    expect(check.sections.every((s) => s.present && !s.hasText)).toBe(true);
  });

  it('text under a sub-heading counts for its section', () => {
    const md = all('x').replace(
      '## Steps to reproduce\n\nx',
      '## Steps to reproduce\n\n### Setup\n\nInstall it.',
    );
    expect(checkDescription(md).complete).toBe(true);
  });

  it('a sub-heading alone is not text', () => {
    const md = all('x').replace('## Steps to reproduce\n\nx', '## Steps to reproduce\n\n### Setup');
    expect(checkDescription(md).sections[0]?.hasText).toBe(false);
  });

  it('a section ends at the next heading of the same or a higher level', () => {
    const md = all('x').replace(
      '## Steps to reproduce\n\nx',
      '## Steps to reproduce\n\n# Other\n\nx',
    );
    expect(checkDescription(md).sections[0]?.hasText).toBe(false);
  });

  it('a template heading nested deeper still ends the section above it', () => {
    const md =
      '## Steps to reproduce\n### Expected behavior\nexp\n## Actual behavior\nact\n## Security impact\nimp\n';
    const check = checkDescription(md);
    expect(check.sections.map((s) => s.hasText)).toEqual([false, true, true, true]);
  });

  it('headings inside code are not headings', () => {
    const md =
      '```\n## Steps to reproduce\n## Expected behavior\n## Actual behavior\n## Security impact\n```\n';
    expect(checkDescription(md).sections.every((s) => !s.present)).toBe(true);
  });

  it('a heading inside a block quote is content, not a template heading', () => {
    const md = all('x').replace('## Security impact', '> ## Security impact');
    expect(checkDescription(md).sections[3]?.present).toBe(false);
  });

  it('a heading given twice has text when one occurrence has', () => {
    const md = `${all('x')}\n## Security impact\n`;
    expect(checkDescription(md).complete).toBe(true);
    const md2 = `## Security impact\n\n${all('x')}`;
    expect(checkDescription(md2).complete).toBe(true);
  });

  it('heading text with formatting is matched on its plain text', () => {
    const md = all('x').replace('## Security impact', '## **Security** _impact_');
    expect(checkDescription(md).complete).toBe(true);
  });

  it('handles CRLF line endings', () => {
    expect(checkDescription(all('x').replaceAll('\n', '\r\n')).complete).toBe(true);
  });
});
