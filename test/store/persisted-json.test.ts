/**
 * Every JSON column the mirror writes, and the text columns beside them, round-trip what real
 * reports hold (test/fixtures/real/reports): bearer tokens before JSON bodies, escaped quotes,
 * backslashes, Windows paths, tool output. Written, closed, opened again: every row reads back.
 */
import { describe, expect, it } from 'vitest';
import { recordSent } from '../../src/engine/outbox/reconcile';
import { REDACTED, redactKeys } from '../../src/shared/api/redact';
import { reportTexts } from '../support/report-texts';
import { openStore } from '../../src/engine/store';
import { makeMe, makeMessage, makeProgram, makeReport, useTempStore } from './fixtures';

const t = useTempStore();
const texts = reportTexts();
/** A short piece of a text: its first line with something on it (a title, a file name). */
const firstLine = (text: string): string =>
  (text.split('\n').find((line) => line.trim() !== '') ?? 'x').slice(0, 150);
const content = (text: string) => ({
  title: firstLine(text),
  asset: 'https://*.example.com/api',
  description: text,
  cvss_vector: '',
});

describe('persisted JSON columns with real report texts', () => {
  it(`reports (report_json), programs (summary_json, program_json) and messages (attachments_json): ${texts.length} texts`, () => {
    t.store.db.transaction(() => {
      t.store.reports.upsertReports(
        texts.map(({ text }, i) =>
          makeReport({ id: `R${i}`, title: firstLine(text), description: text }),
        ),
      );
      texts.forEach(({ text }, i) => {
        t.store.programs.upsertProgram(
          makeProgram({ id: `p${i}`, summary: firstLine(text), description: text, scope: text }),
        );
        t.store.messages.replaceThread(`R${i}`, [
          makeMessage({
            id: `m${i}`,
            body: text,
            attachments: [
              { id: `f${i}`, name: firstLine(text), size: 1, content_type: 'text/plain' },
            ],
          }),
        ]);
      });
    });
    const store = t.reopen();
    texts.forEach(({ name, text }, i) => {
      expect(store.reports.getReport(`R${i}`)?.description, name).toBe(text);
      const program = store.programs.getProgram(`p${i}`);
      expect([program?.description, program?.scope, program?.summary], name).toEqual([
        text,
        text,
        firstLine(text),
      ]);
      const [message] = store.messages.listThread(`R${i}`);
      expect([message?.body, message?.attachments[0]?.name], name).toEqual([text, firstLine(text)]);
    });
  });

  it('drafts (base_json, conflict_json) and templates', () => {
    t.store.db.transaction(() =>
      texts.forEach(({ text }, i) => {
        t.store.drafts.setContent(`D${i}`, 'acme-web', content(text));
        t.store.drafts.acknowledge(`D${i}`, content(text), 3);
        t.store.drafts.setConflict(`D${i}`, {
          description: { base: text, ours: `${text}\nmine`, theirs: `theirs\n${text}` },
        });
        t.store.templates.put({ id: `t${i}`, name: `template ${i}`, body: text });
      }),
    );
    const store = t.reopen();
    texts.forEach(({ name, text }, i) => {
      const draft = store.drafts.get(`D${i}`);
      expect(draft?.description, name).toBe(text);
      expect(draft?.base, name).toEqual(content(text));
      expect(draft?.conflict?.description, name).toEqual({
        base: text,
        ours: `${text}\nmine`,
        theirs: `theirs\n${text}`,
      });
      expect(store.templates.get(`t${i}`)?.body, name).toBe(text);
    });
  });

  it('outbox (payload_json, last_error_json): a parked entry and a retried one read back', () => {
    t.store.db.transaction(() =>
      texts.forEach(({ text }, i) => {
        const entry = t.store.outbox.enqueue({
          reportId: `O${i}`,
          kind: 'post_message',
          payload: { body: text, files: [] },
        });
        t.store.outbox.park(entry.id, { status: 422, code: 'validation_error', detail: text });
        const upload = t.store.outbox.enqueue({
          reportId: `O${i}`,
          kind: 'upload_file',
          payload: {
            file_id: `f${i}`,
            name: firstLine(text),
            content_type: 'text/plain',
            size: 1,
            sha256: 'a'.repeat(64),
          },
        });
        t.store.outbox.retryLater(upload.id, 0, { status: 0, code: 'network_error', detail: text });
      }),
    );
    const store = t.reopen();
    const entries = store.outbox.list();
    texts.forEach(({ name, text }, i) => {
      const [message, upload] = entries.filter((e) => e.reportId === `O${i}`);
      expect(message?.payload, name).toEqual({ body: text, files: [] });
      expect(message?.lastError, name).toEqual({
        status: 422,
        code: 'validation_error',
        detail: redactKeys(text),
      });
      expect((upload?.payload as { name: string }).name, name).toBe(firstLine(text));
      expect((upload?.lastError as { detail: string }).detail, name).toBe(redactKeys(text));
    });
    // Retry of a parked entry (json_remove over its last error) still works on every row.
    for (const entry of entries.filter((e) => e.state === 'parked')) store.outbox.unpark(entry.id);
    expect(store.outbox.list().filter((e) => e.state === 'parked')).toEqual([]);
  });

  it('sync state (value_json): a sent save keeps the text as written, other values are redacted', () => {
    t.store.db.transaction(() =>
      texts.forEach(({ text }, i) => {
        recordSent(t.store, `S${i}`, content(text), i);
        t.store.syncState.set(`note.${i}`, { text });
      }),
    );
    const store = t.reopen();
    texts.forEach(({ name, text }, i) => {
      expect(store.syncState.get(`outbox.sent.S${i}`), name).toEqual([
        { revision: i, content: content(text) },
      ]);
      expect(store.syncState.get(`note.${i}`), name).toEqual({ text: redactKeys(text) });
    });
  });

  it('the account (me_json, payments_json)', () => {
    const withBearer = texts.find((r) => /Authorization: Bearer \S{8}/.test(r.text));
    expect(withBearer).toBeDefined();
    const me = makeMe({ email: null }, { detail: withBearer?.text ?? '' });
    t.store.account.setMe(me);
    expect(t.reopen().account.get().payments?.detail).toBe(withBearer?.text);
  });
});

/** What versions before this one wrote: the bearer pattern run over the JSON text. */
const earlierRedactedJson = (value: unknown): string =>
  JSON.stringify(value).replace(/\b(Bearer)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`);

describe('rows an earlier version left unreadable', () => {
  it('are repaired or dropped when the mirror opens, each with a log line (found/total)', () => {
    const broken = texts.filter(({ text }) => {
      try {
        JSON.parse(earlierRedactedJson({ description: text }));
        return false;
      } catch {
        return true;
      }
    });
    console.log(
      `earlier redaction left ${broken.length}/${texts.length} real report texts unreadable`,
    );
    expect(broken.length).toBeGreaterThan(0);
    const sqlite = t.store.db.sqlite;
    const put = sqlite.prepare(
      "INSERT INTO sync_state (name, value_json, updated_at) VALUES (?, ?, '2025-01-01')",
    );
    broken.forEach(({ text }, i) => {
      put.run(`outbox.sent.B${i}`, earlierRedactedJson([{ revision: 1, content: content(text) }]));
      const save = t.store.outbox.enqueue({ reportId: `B${i}`, kind: 'save_report', payload: {} });
      const message = t.store.outbox.enqueue({
        reportId: `B${i}`,
        kind: 'post_message',
        payload: { body: 'x', files: [] },
      });
      sqlite
        .prepare('UPDATE outbox SET last_error_json = ? WHERE id = ?')
        .run(earlierRedactedJson({ status: 0, code: 'client_error', detail: text }), save.id);
      sqlite
        .prepare('UPDATE outbox SET payload_json = ? WHERE id = ?')
        .run(earlierRedactedJson({ body: text, files: [] }), message.id);
      sqlite.prepare("UPDATE outbox SET payload_json = '{\"oops' WHERE id = ?").run(save.id);
    });
    const lines: string[] = [];
    const log = (level: string) => (scope: string, event: string, fields?: object) =>
      void lines.push(`${level} ${scope} ${event} ${JSON.stringify(fields)}`);
    // A second connection to the same file, as the next start of the app opens it.
    const store = openStore({
      file: t.file,
      dataDir: t.dir,
      log: { info: log('info'), warn: log('warn'), error: log('error') },
    });
    try {
      broken.forEach((_, i) => {
        expect(store.syncState.get(`outbox.sent.B${i}`)).toBeNull();
        const entries = store.outbox.list({ reportId: `B${i}` });
        // The save is rebuilt ({} is all it carries) and tried again; the message is gone.
        expect(entries.map((e) => [e.kind, e.payload, e.lastError])).toEqual([
          ['save_report', {}, null],
        ]);
      });
      expect(lines.filter((l) => l.includes('unreadable-row-dropped'))).toHaveLength(
        broken.length * 2,
      );
      expect(lines.filter((l) => l.includes('unreadable-row-repaired'))).toHaveLength(
        broken.length * 2,
      );
      // No line repeats what the rows held.
      for (const line of lines) expect(line).not.toMatch(/Bearer|HTTP\/1/);
    } finally {
      store.close();
    }
  });

  it('a sync-state row that cannot be read is dropped when read, not thrown', () => {
    t.store.db.sqlite
      .prepare("INSERT INTO sync_state (name, value_json, updated_at) VALUES ('x', '{', 'now')")
      .run();
    expect(t.store.syncState.get('x')).toBeNull();
    expect(
      t.store.db.sqlite.prepare("SELECT count(*) AS n FROM sync_state WHERE name = 'x'").get(),
    ).toEqual({ n: 0 });
  });
});
