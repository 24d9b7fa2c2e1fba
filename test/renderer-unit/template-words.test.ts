import { describe, expect, it } from 'vitest';
import {
  importedTemplatesText,
  savedTemplateText,
} from '../../src/renderer/src/lib/template-words';

const saved = {
  id: 't1',
  name: 'InfluxDB JWT bypass',
  body: 'Authorization: Bearer [REDACTED:jwt]',
  updatedAt: '2026-11-29T02:00:00.000Z',
};

/** What the researcher reads after saving or importing templates. */
describe('template words', () => {
  it('a plain save says only that it saved', () => {
    expect(savedTemplateText(saved)).toBe('Saved template “InfluxDB JWT bypass”.');
  });

  it('names each credential taken out by what it was and its line, never its value', () => {
    expect(
      savedTemplateText({
        ...saved,
        redacted: [{ kind: 'jwt', label: 'JSON Web Token', line: 9 }],
      }),
    ).toBe(
      'Saved template “InfluxDB JWT bypass”. It holds [REDACTED:jwt] for the JSON Web Token on line 9: a template is reused and shared, so no live credential stays in it.',
    );
  });

  it('says both the files left out and the credentials replaced', () => {
    const text = savedTemplateText({
      ...saved,
      leftOut: ['C:\\Users\\me\\poc.har'],
      redacted: [
        { kind: 'jwt', label: 'JSON Web Token', line: 9 },
        { kind: 'cookie', label: 'Cookie header: Cookie', line: 10 },
      ],
    });
    expect(text).toBe(
      'Saved template “InfluxDB JWT bypass” without the link to “C:\\Users\\me\\poc.har”: a template keeps text, not files. Attach the file to each new report. It holds [REDACTED:jwt] for the JSON Web Token on line 9 and [REDACTED:cookie] for the Cookie header: Cookie on line 10: a template is reused and shared, so no live credential stays in it.',
    );
  });

  it('an import names the files whose credentials were replaced', () => {
    expect(
      importedTemplatesText([
        { templateId: 'a', name: 'A', file: 'a.md' },
        {
          templateId: 'b',
          name: 'B',
          file: 'shared.md',
          redacted: [{ kind: 'jwt', label: 'JSON Web Token', line: 12 }],
        },
      ]),
    ).toBe(
      'Imported 2 templates. Credentials were replaced: shared.md: [REDACTED:jwt] for the JSON Web Token on line 12.',
    );
    expect(importedTemplatesText([{ templateId: 'a', name: 'A', file: 'a.md' }])).toBe(
      'Imported 1 template.',
    );
  });
});
