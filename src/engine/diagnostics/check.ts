import { redact, scanText } from '../evidence/secret-scan/scan';
import { holdsRedactionMark } from '@shared/evidence/redaction-mark';
import { removeCredentials, type CheckedText, type CredentialCount } from './credentials';

/**
 * The full credential check of a diagnostics bundle, in the engine process: first the signed-in
 * key exactly and this app's own credential shapes (`removeCredentials`: cheap and certain), then
 * the evidence scanner (`src/engine/evidence/secret-scan`: secretlint's recommended rules and the
 * app's own), so a vendor key, a private key or a password in a URL that reached a log is removed
 * as well. Every removal becomes `[REDACTED:<kind>]` and is counted by kind.
 */
export async function checkForCredentials(
  text: string,
  ownKeys: readonly string[],
): Promise<CheckedText> {
  const first = removeCredentials(text, ownKeys);
  const findings = (await scanText(first.text, { ownKeys: [...ownKeys], ext: '.log' })).filter(
    (f) => !holdsRedactionMark(first.text.slice(f.start, f.end)),
  );
  const counts = new Map<string, number>(first.removed.map((r) => [r.kind, r.count]));
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const removed: CredentialCount[] = [...counts]
    .map(([kind, count]) => ({ kind, count }))
    .sort((a, b) => a.kind.localeCompare(b.kind));
  return { text: redact(first.text, findings), removed };
}
