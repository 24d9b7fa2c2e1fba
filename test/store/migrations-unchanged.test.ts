import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/engine/store';
import { replayMigrations, type StepSnapshot } from './migration-snapshot/replay';

/**
 * A user's file migrates exactly as it did when the steps lived in one migrations.ts (commit
 * 843b464, whose replay the fixture holds): each step hands SQLite the same text and leaves the
 * same schema and rows behind, so moving or sharing SQL cannot change a step.
 */
const expected = JSON.parse(
  readFileSync(new URL('./migration-snapshot/schema-843b464.json', import.meta.url), 'utf8'),
) as StepSnapshot[];

describe('migrations, one file each', () => {
  const actual = replayMigrations(migrations);

  it('are the same steps in the same order, later steps only added after them', () => {
    const released = actual.slice(0, expected.length);
    expect(released.map((step) => step.version)).toEqual(expected.map((step) => step.version));
    expect(actual.map((step) => step.version)).toEqual(actual.map((_, i) => i + 1));
    console.log(`migration steps compared: ${released.length}/${expected.length}`);
  });

  it.each(expected.map((step) => [step.version, step] as const))(
    'step %i runs the same SQL and leaves the same schema and rows',
    (version, before) => {
      const after = actual.find((step) => step.version === version);
      expect(after?.statements).toEqual(before.statements);
      expect(after?.schema).toEqual(before.schema);
      expect(after?.rows).toEqual(before.rows);
    },
  );
});
