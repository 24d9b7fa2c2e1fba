import { sqlStep } from './migration';

/**
 * `messages_by_fingerprint` (report, message fingerprint) was never read: the outbox compares
 * fingerprints of the thread it has just fetched (outbox/thread-mark.ts), not of stored rows. It
 * cost 240 bytes a report on disk (a third of the messages' own), so it goes; the rows stay.
 */
const sql = `
DROP INDEX messages_by_fingerprint;
`;

export const unusedFingerprintIndex = sqlStep(15, 'unused message fingerprint index dropped', sql);
