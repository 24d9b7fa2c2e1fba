import { createHash, randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentOf } from '@shared/bridge/draft-content';
import type { SecretFindingView, SecretScanView } from '@shared/bridge/evidence-views';
import type { ChecklistItemView, DraftContent } from '@shared/bridge/views';
import { scanFileAt, type FileScan } from '../evidence/secret-scan/file-scan';
import { redact, scanText, type SecretFinding } from '../evidence/secret-scan/scan';
import { messageFingerprint, type EvidenceFile, type OutboxEntry } from '../store';
import { EngineInputError } from './errors';
import { credentialsItem, imageMetadataItem } from './evidence-checklist';
import { adoptDraft, queueSave, serverDraft } from './local-drafts';
import {
  fieldPlaces,
  messagePlace,
  placeName,
  type Place,
  type PlacedFinding,
  type TextField,
} from './secret-places';
import { reportWritten, requireWritable, type SessionContext } from './session-context';

/**
 * Thrown by the guarded API instead of sending: the outbox parks the write with this code until
 * the researcher redacts or keeps each finding. Its text names places and counts, never a value.
 */
export class SecretsHeldError extends Error {
  readonly code = 'secrets_found';
  readonly status = 0;
  readonly detail: string;

  constructor(detail: string) {
    super(detail);
    this.name = 'SecretsHeldError';
    this.detail = detail;
  }
}

const KEEPS = (reportId: string): string => `secret-keeps:${reportId}`;
const CACHE_SIZE = 300;
/** Files from this size show the scan's progress. */
const PROGRESS_FROM_BYTES = 4 * 1024 * 1024;
const PROGRESS_EVERY_MS = 200;

/**
 * The credential scan as the session runs it: over a draft's title, asset and
 * description, its text evidence files and its queued messages; the researcher's decisions
 * (redact, keep); the check the API runs before a save, an upload or a message leaves; and the
 * submit checklist's items. Decisions are kept as `<place>#<fingerprint>` in the mirror: a hash
 * of a value the draft itself holds, never the value.
 */
export class SecretCommands {
  readonly #ctx: SessionContext;
  readonly #ownKeys: string[];
  readonly #cache = new Map<string, Promise<SecretFinding[]>>();
  /** File scans by content hash: a stored blob never changes under its hash. */
  readonly #files = new Map<string, Promise<FileScan | null>>();

  constructor(ctx: SessionContext, ownKeys: string[]) {
    this.#ctx = ctx;
    this.#ownKeys = ownKeys.filter((k) => k.length > 0);
  }

  /** Scans are pure functions of the text: cached by its hash (the latest few hundred). */
  #findings(text: string, ext: string): Promise<SecretFinding[]> {
    const key = createHash('sha256').update(ext).update('\0').update(text).digest('hex');
    let found = this.#cache.get(key);
    if (!found) {
      found = scanText(text, { ownKeys: this.#ownKeys, ext }).catch(() => []);
      this.#cache.set(key, found);
      if (this.#cache.size > CACHE_SIZE) {
        const oldest = this.#cache.keys().next().value;
        if (oldest !== undefined) this.#cache.delete(oldest);
      }
    } else {
      // Refresh its place in the insertion order (least recently used goes first).
      this.#cache.delete(key);
      this.#cache.set(key, found);
    }
    return found;
  }

  /**
   * `text` with every credential the scan finds replaced by `[REDACTED:<kind>]`, and what was
   * replaced (templates: a text that is reused and shared keeps no live value).
   */
  async withoutCredentials(
    text: string,
  ): Promise<{ text: string; found: Pick<SecretFinding, 'kind' | 'label' | 'line'>[] }> {
    const found = await this.#findings(text, '.md');
    if (found.length === 0) return { text, found: [] };
    return {
      text: redact(text, found),
      found: found.map(({ kind, label, line }) => ({ kind, label, line })),
    };
  }

  #keeps(reportId: string): Set<string> {
    return new Set(this.#ctx.store.syncState.get<string[]>(KEEPS(reportId)) ?? []);
  }

  #openMessages(reportId: string): OutboxEntry<'post_message'>[] {
    return this.#ctx.store.outbox
      .list({ reportId })
      .filter((e): e is OutboxEntry<'post_message'> => e.kind === 'post_message')
      .filter((e) => e.state !== 'done');
  }

  /**
   * Evidence not uploaded yet: every file is read, whatever its name says. With `all`, the
   * uploaded ones too (each was checked before it left): what the checklist counts.
   */
  #pendingFiles(reportId: string, all = false): EvidenceFile[] {
    return this.#ctx.store.evidence
      .listForReport(reportId)
      .filter((f) => all || f.state !== 'uploaded');
  }

  /**
   * For a large file, the scan's progress as events the UI shows (a 200 MB log takes a while):
   * a few a second at most, and the last one always.
   */
  #progress(file: EvidenceFile): ((done: number, total: number) => void) | undefined {
    if (file.size < PROGRESS_FROM_BYTES) return undefined;
    let last = 0;
    return (done, total) => {
      const now = Date.now();
      if (done < total && now - last < PROGRESS_EVERY_MS) return;
      last = now;
      // A whole read counts parts of the file, a streaming one bytes: shown as bytes of the file.
      const doneBytes = Math.round((done / Math.max(1, total)) * file.size);
      const { reportId, fileId, name, size } = file;
      this.#ctx.events.emit('scan-progress', { reportId, fileId, name, doneBytes, size });
    };
  }

  #scanOf(file: EvidenceFile): Promise<FileScan | null> {
    let scan = this.#files.get(file.sha256);
    if (!scan) {
      scan = scanFileAt(this.#ctx.store.evidence.blobPath(file.sha256), {
        ownKeys: this.#ownKeys,
        onProgress: this.#progress(file),
      }).catch(() => null);
      this.#files.set(file.sha256, scan);
      if (this.#files.size > CACHE_SIZE) {
        const oldest = this.#files.keys().next().value;
        if (oldest !== undefined) this.#files.delete(oldest);
      }
    }
    return scan;
  }

  async #filePlace(file: EvidenceFile): Promise<Place | null> {
    const scan = await this.#scanOf(file);
    if (!scan || scan.format === 'binary') return null;
    return {
      key: `file:${file.fileId}`,
      place: { kind: 'file', fileId: file.fileId, name: file.name },
      label: file.name,
      text: '',
      ext: '',
      file: scan,
    };
  }

  /** The pending files read as text, and those that are not text (images aside). */
  async #evidenceFiles(
    reportId: string,
    all = false,
  ): Promise<{ places: Place[]; notText: EvidenceFile[] }> {
    const places: Place[] = [];
    const notText: EvidenceFile[] = [];
    for (const file of this.#pendingFiles(reportId, all)) {
      const place = await this.#filePlace(file);
      if (place) places.push(place);
      else if (!file.contentType.startsWith('image/')) notText.push(file);
    }
    return { places, notText };
  }

  async #places(reportId: string): Promise<Place[]> {
    const { store } = this.#ctx;
    const draft = store.drafts.get(reportId) ?? serverDraft(store, reportId);
    const places = draft ? fieldPlaces(draft) : [];
    places.push(...this.#openMessages(reportId).map((e) => messagePlace(e)));
    places.push(...(await this.#evidenceFiles(reportId)).places);
    return places;
  }

  async #placeFindings(place: Place): Promise<PlacedFinding[]> {
    if (place.file) return place.file.findings;
    return (await this.#findings(place.text, place.ext)).map((f) => ({
      ...f,
      where: `line ${f.line}`,
    }));
  }

  /** Findings of some places as views: one per (place, value), with the decision. */
  async #views(reportId: string, places: Place[]): Promise<SecretFindingView[]> {
    const keeps = this.#keeps(reportId);
    const views: SecretFindingView[] = [];
    for (const place of places) {
      const byValue = new Map<string, SecretFindingView>();
      for (const f of await this.#placeFindings(place)) {
        const id = `${place.key}#${f.fingerprint}`;
        const seen = byValue.get(id);
        if (seen) {
          seen.occurrences += 1;
          continue;
        }
        byValue.set(id, {
          id,
          place: place.place,
          where: `${place.label}, ${f.where}`,
          kind: f.kind,
          label: f.label,
          line: f.line,
          column: f.column,
          length: f.end - f.start,
          occurrences: 1,
          fingerprint: f.fingerprint,
          preview: f.preview,
          kept: keeps.has(id),
        });
      }
      views.push(...byValue.values());
    }
    return views;
  }

  async scanEvidence(reportId: string): Promise<SecretScanView> {
    const findings = await this.#views(reportId, await this.#places(reportId));
    const { places, notText } = await this.#evidenceFiles(reportId, true);
    return {
      reportId,
      findings,
      open: findings.filter((f) => !f.kept).length,
      scannedFiles: places.length,
      notScanned: notText.map((f) => ({ fileId: f.fileId, name: f.name, size: f.size })),
    };
  }

  /** The researcher keeps a finding on purpose (or takes that back); remembered per report. */
  async keepFinding(reportId: string, findingId: string, keep: boolean): Promise<SecretScanView> {
    requireWritable(this.#ctx);
    const keeps = this.#keeps(reportId);
    if (keep) keeps.add(findingId);
    else keeps.delete(findingId);
    this.#ctx.store.syncState.set(KEEPS(reportId), [...keeps]);
    this.#release(reportId);
    return this.scanEvidence(reportId);
  }

  /**
   * Replaces each chosen finding with `[REDACTED:<kind>]`: in the draft (a save is queued), in
   * a queued message (queued again with the redacted body), or in a redacted copy of a file (the
   * copy is what will be uploaded; the original bytes are left to the store's collection).
   */
  async redactFindings(reportId: string, findingIds: string[]): Promise<SecretScanView> {
    requireWritable(this.#ctx);
    const wanted = new Set(findingIds);
    const byPlace = new Map<string, Set<string>>();
    for (const id of wanted) {
      const hash = id.lastIndexOf('#');
      if (hash <= 0) throw new EngineInputError('finding', 'not a finding of this report');
      const place = id.slice(0, hash);
      byPlace.set(place, (byPlace.get(place) ?? new Set()).add(id.slice(hash + 1)));
    }
    for (const place of await this.#places(reportId)) {
      const fingerprints = byPlace.get(place.key);
      if (!fingerprints) continue;
      if (place.file && place.place.kind === 'file') {
        const { file } = place;
        const fileId = place.place.fileId;
        if (file.redactToFile)
          await this.#redactFile(fileId, (out) => file.redactToFile?.(fingerprints, out));
        else await this.#redactFile(fileId, await file.redact(fingerprints));
        continue;
      }
      const hits = (await this.#findings(place.text, place.ext)).filter((f) =>
        fingerprints.has(f.fingerprint),
      );
      if (hits.length === 0) continue;
      const redacted = redact(place.text, hits);
      if (place.place.kind === 'field') this.#redactField(reportId, place.place.field, redacted);
      else if (place.place.kind === 'message')
        this.#redactMessage(reportId, place.place.entryId, redacted);
      else await this.#redactFile(place.place.fileId, redacted);
    }
    this.#release(reportId);
    return this.scanEvidence(reportId);
  }

  #redactField(reportId: string, field: TextField, text: string): void {
    const { store } = this.#ctx;
    store.db.transaction(() => {
      const draft = adoptDraft(store, reportId);
      if (!draft) return;
      store.drafts.setContent(reportId, draft.programId, { ...contentOf(draft), [field]: text });
      queueSave(store, reportId);
    });
  }

  /**
   * A held message never reached the server (the check refuses before sending), so its entry
   * can be replaced: the redacted body is queued with a new fingerprint for the resend check.
   */
  #redactMessage(reportId: string, entryId: number, body: string): void {
    const { store } = this.#ctx;
    store.db.transaction(() => {
      const entry = store.outbox.get(entryId);
      if (!entry || entry.kind !== 'post_message' || entry.state === 'done') return;
      const { files } = entry.payload as { files: string[] };
      store.outbox.cancel(entryId);
      store.outbox.enqueue({
        reportId,
        kind: 'post_message',
        payload: { body, files },
        localId: randomUUID(),
        bodyHash: messageFingerprint(body, files),
      });
    });
  }

  /** Bytes, or a writer that streams them to a path (a large file is never held whole). */
  async #redactFile(
    fileId: string,
    bytes: Buffer | string | ((path: string) => Promise<void> | undefined),
  ): Promise<void> {
    const { store } = this.#ctx;
    const tmp = join(tmpdir(), `bounty-desk-redacted-${randomUUID()}`);
    if (typeof bytes === 'function') await bytes(tmp);
    else await writeFile(tmp, bytes, { mode: 0o600 });
    try {
      const blob = await store.evidence.importFile(tmp);
      store.evidence.replaceBlob(fileId, blob);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Writes held for credentials go back to the queue; the check runs again before each. */
  #release(reportId: string): void {
    const { store } = this.#ctx;
    for (const entry of store.outbox.list({ reportId })) {
      const code = (entry.lastError as { code?: unknown } | null)?.code;
      if (entry.state === 'parked' && code === 'secrets_found') store.outbox.unpark(entry.id);
    }
    reportWritten(this.#ctx, reportId);
    this.#ctx.kick();
  }

  async #hold(reportId: string, places: Place[]): Promise<void> {
    const open = (await this.#views(reportId, places)).filter((f) => !f.kept);
    if (open.length === 0) return;
    const where = [...new Set(open.map((f) => placeName(f)))];
    throw new SecretsHeldError(
      `${open.length} possible credential${open.length === 1 ? '' : 's'} in ${where.join(', ')}.`,
    );
  }

  // ---- the outbox's OutgoingCheck: run before anything leaves ---------------------------

  async checkDraft(reportId: string, content: Pick<DraftContent, TextField>): Promise<void> {
    await this.#hold(reportId, fieldPlaces(content));
  }

  async checkFile(reportId: string, fileId: string): Promise<void> {
    const file = this.#ctx.store.evidence.get(fileId);
    if (!file) return;
    const place = await this.#filePlace(file);
    if (place) await this.#hold(reportId, [place]);
  }

  async checkMessage(reportId: string, body: string): Promise<void> {
    const entry =
      this.#openMessages(reportId).find(
        (e) => e.state === 'in_flight' && e.payload.body === body,
      ) ?? this.#openMessages(reportId).find((e) => e.payload.body === body);
    const place: Place = entry
      ? { ...messagePlace(entry), text: body }
      : {
          key: 'message',
          place: { kind: 'message', entryId: 0 },
          label: 'Reply',
          text: body,
          ext: '.md',
        };
    await this.#hold(reportId, [place]);
  }

  // ---- the submit checklist ---------------------------------------------------------------

  async checklistItems(reportId: string): Promise<ChecklistItemView[]> {
    const scan = await this.scanEvidence(reportId);
    return [credentialsItem(scan), await imageMetadataItem(this.#ctx.store, reportId)];
  }
}
