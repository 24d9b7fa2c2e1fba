import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DECLARATIONS_PATH,
  generateBridgeValidators,
  VALIDATORS_PATH,
} from '../../scripts/generate-bridge-validators';
import { filesUnder } from '../support/source-files';
import { BRIDGE_CALLS, CALLS } from '../../src/shared/bridge/calls';
import { BRIDGE_EVENTS, ENGINE_EVENTS, EVENTS } from '../../src/shared/bridge/events';

/**
 * Each bridge call is defined once, in src/shared/bridge/calls.ts; everything else derives from
 * that table. These tests fail when a second list of calls appears, and when the
 * validators compiled ahead from the table are stale.
 */

const ROOT = join(import.meta.dirname, '../..');
const TABLE = 'src/shared/bridge/calls.ts';

/** Comments name calls in prose; only code can define one. */
const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');

/**
 * The same words naming other things: the API's operationIds (the client's request names),
 * outbox entry kinds, an HTML button type, a command line's words, a socket's events, and
 * `Pick<…>` naming a call of a type (a use, not a definition).
 */
const OTHER_MEANINGS: RegExp[] = [
  /#(json|send)\('\w+'/,
  /kind (===|!==) '\w+'|kind: '\w+'|Handler<'\w+'>/,
  /path: \[('\w+'(, )?)+\]/,
  /\.on\('\w+'/,
  /.*'save_report' \| 'upload_file'.*/,
  /type="submit"/,
  /Pick<\w+, '\w+'( \| '\w+')*>/,
];
/** Generated from the API document or holding its SQL; neither can define a bridge call. */
const NOT_SCANNED = new Set([
  TABLE,
  'src/shared/api/schema.d.ts',
  'src/main/generated/bridge-validators.js',
  'src/main/generated/bridge-validators.d.ts',
]);
const NOT_SCANNED_FOLDERS = ['src/engine/store/migrations/'];

describe('the bridge table', () => {
  it('every call name appears in one definition: no string of a call name outside the table', () => {
    const names = new RegExp(`(['"\`])(${BRIDGE_CALLS.join('|')})\\1`, 'g');
    const found: string[] = [];
    for (const file of filesUnder('src', /\.(ts|tsx|js|mjs)$/)) {
      if (NOT_SCANNED.has(file) || NOT_SCANNED_FOLDERS.some((folder) => file.startsWith(folder))) {
        continue;
      }
      const lines = withoutComments(readFileSync(join(ROOT, file), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        const rest = OTHER_MEANINGS.reduce((text, meaning) => text.replace(meaning, ''), line);
        for (const match of rest.matchAll(names)) found.push(`${file}:${i + 1}: ${match[2]}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the scan sees a second list of calls (the one this table replaced)', () => {
    const names = new RegExp(`(['"\`])(${BRIDGE_CALLS.join('|')})\\1`, 'g');
    const old =
      "export const MAIN_CALLS = ['connectSandbox', 'openExternal', 'pickFiles'] as const;";
    expect([...old.matchAll(names)].map((m) => m[2])).toEqual([
      'connectSandbox',
      'openExternal',
      'pickFiles',
    ]);
  });

  it('each call says who answers it, and main answers only what needs Electron or a token', () => {
    const byMain = BRIDGE_CALLS.filter((name) => CALLS[name].by === 'main').sort();
    expect(byMain).toEqual([
      'attachFiles',
      'connect',
      'connectSandbox',
      'downloadFile',
      'exportPayouts',
      'exportReports',
      'exportTemplates',
      'importReports',
      'importTemplates',
      'openExternal',
      'openWebsite',
      'pickFiles',
      'postMessage',
      'saveReportPdf',
    ]);
    for (const name of BRIDGE_CALLS) {
      if (CALLS[name].by === 'engine') expect(CALLS[name].group, name).not.toBeNull();
    }
  });

  it('events are listed once: the engine’s are the table’s events the engine emits', () => {
    expect(BRIDGE_EVENTS).toEqual(Object.keys(EVENTS));
    expect(ENGINE_EVENTS).toEqual(BRIDGE_EVENTS.filter((e) => EVENTS[e].from === 'engine'));
    expect(ENGINE_EVENTS).not.toContain('open-report');
    expect(ENGINE_EVENTS).toContain('report-changed');
  });

  it('the validators compiled ahead are up to date (run `npm run generate:bridge`)', () => {
    const { js, dts } = generateBridgeValidators();
    expect(readFileSync(VALIDATORS_PATH, 'utf8')).toBe(js);
    expect(readFileSync(DECLARATIONS_PATH, 'utf8')).toBe(dts);
    const expected = BRIDGE_CALLS.flatMap((name) =>
      CALLS[name].args.map((_arg, i) => `export const ${name}_${i} = `),
    );
    for (const line of expected) expect(js).toContain(line);
  });

  it('main compiles no schema at run time: it imports no Ajv constructor', () => {
    const compiling = filesUnder('src/main', /\.(ts|tsx|js|mjs)$/)
      .filter((file) => !NOT_SCANNED.has(file))
      .filter((file) =>
        /^import (?!type)[^;]*from 'ajv/m.test(readFileSync(join(ROOT, file), 'utf8')),
      )
      .map((file) => relative(ROOT, join(ROOT, file)));
    expect(compiling).toEqual([]);
  });
});
