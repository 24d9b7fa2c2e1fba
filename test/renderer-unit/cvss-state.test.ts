import { describe, expect, it } from 'vitest';
import {
  choicesFromVector,
  describeVector,
  scoreOfChoices,
  scoreText,
  vectorFromChoices,
} from '../../src/renderer/src/lib/cvss-state';

const FULL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';

describe('CVSS calculator state', () => {
  it('reads every choice from a vector, in any order', () => {
    expect(choicesFromVector('CVSS:3.1/C:H/AV:N/AC:L/PR:N/UI:N/S:U/I:H/A:H')).toEqual({
      AV: 'N',
      AC: 'L',
      PR: 'N',
      UI: 'N',
      S: 'U',
      C: 'H',
      I: 'H',
      A: 'H',
    });
  });

  it('keeps what it can from a half-typed or wrong vector', () => {
    expect(choicesFromVector('CVSS:3.1/AV:X/AC:H/PR')).toEqual({ AC: 'H' });
    expect(choicesFromVector('')).toEqual({});
  });

  it('writes a vector only when every metric is chosen, in the preferred order', () => {
    const choices = choicesFromVector(FULL);
    expect(vectorFromChoices(choices)).toBe(FULL);
    expect(vectorFromChoices({ ...choices, A: undefined })).toBeNull();
  });

  it('scores like the specification (9.8 critical, 6.1 medium, 0 none)', () => {
    expect(scoreOfChoices(choicesFromVector(FULL))).toEqual({
      score: 9.8,
      severity: 'critical',
      vector: FULL,
    });
    const xss = scoreOfChoices(choicesFromVector('CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N'));
    expect(xss?.score).toBe(6.1);
    expect(xss?.severity).toBe('medium');
    const none = scoreOfChoices(choicesFromVector('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N'));
    expect(none?.score).toBe(0);
    expect(scoreOfChoices({ AV: 'N' })).toBeNull();
  });

  it('changing one choice changes the score', () => {
    const choices = choicesFromVector(FULL);
    const lower = scoreOfChoices({ ...choices, AV: 'P' });
    expect(lower?.score).toBeLessThan(9.8);
    expect(lower?.vector).toContain('AV:P');
  });

  it('describes the vector field: empty, a score, or why it is wrong', () => {
    expect(describeVector('  ')).toEqual({ kind: 'empty' });
    expect(describeVector(FULL)).toEqual({ kind: 'ok', score: 9.8, severity: 'critical' });
    const bad = describeVector('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:F');
    expect(bad.kind).toBe('error');
    expect(bad.kind === 'error' && bad.message).toMatch(/E is not allowed/);
    expect(scoreText(9.8, 'critical')).toBe('Score 9.8 (Critical)');
    expect(scoreText(0, 'none')).toBe('Score 0.0 (None)');
  });
});
