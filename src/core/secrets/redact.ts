/** The one home of key redaction is `src/shared/api/redact.ts`; this path stays for its importers. */
export { redactKeys, REDACTED } from '../../shared/api/redact';
