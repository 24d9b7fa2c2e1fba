import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DraftContent, DraftView } from '../../src/shared/bridge/views';
import {
  DraftAutosave,
  SAVE_DELAY_MS,
  type AutosaveDeps,
} from '../../src/renderer/src/screens/report/draft/autosave';

const BASE: DraftContent = {
  title: 'Open redirect',
  asset: 'https://app.example.com',
  description: '## Steps to reproduce\n\nOpen it.\n',
  cvss_vector: '',
};

function view(content: DraftContent, issues: DraftView['issues'] = []): DraftView {
  return {
    reportId: 'r',
    programId: 'acme',
    content,
    baseRevision: 1,
    conflicts: [],
    unsent: true,
    notOnServer: false,
    issues,
    policyVersionAtStart: null,
  };
}

/** An editor and an engine in memory: the description text, the saves it received. */
function setup(options: { readOnly?: boolean; save?: AutosaveDeps['save'] } = {}) {
  const editor = { text: BASE.description as string | null, replaced: [] as string[] };
  const saves: { content: DraftContent; basedOn: DraftContent }[] = [];
  const errors: unknown[] = [];
  const autosave = new DraftAutosave(view(BASE), {
    save:
      options.save ??
      (async (content, basedOn) => {
        saves.push({ content, basedOn });
        return view(content);
      }),
    readDescription: () => editor.text,
    replaceDescription: (markdown) => {
      editor.replaced.push(markdown);
      editor.text = markdown;
    },
    readOnly: () => options.readOnly ?? false,
    onError: (e) => errors.push(e),
  });
  return { autosave, editor, saves, errors };
}

describe('draft autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keystrokes in the description tell the editor once that a save is pending, not each time', async () => {
    const { autosave, editor, saves } = setup();
    const seen: unknown[] = [];
    autosave.subscribe((snapshot) => seen.push(snapshot));
    for (const text of ['a', 'ab', 'abc', 'abcd']) {
      editor.text = `${BASE.description}${text}`;
      autosave.schedule();
    }
    expect(seen).toHaveLength(1);
    expect(autosave.snapshot.saveState).toBe('pending');
    const pending = autosave.snapshot;
    autosave.schedule();
    expect(autosave.snapshot).toBe(pending);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(saves.map((s) => s.content.description)).toEqual([`${BASE.description}abcd`]);
    expect(autosave.snapshot.saveState).toBe('saved');
    expect(autosave.snapshot.descriptionLength).toBe(`${BASE.description}abcd`.length);
  });

  it('a save the full disk refused is tried again by itself, said once, until it lands', async () => {
    let refusals = 3;
    const landed: DraftContent[] = [];
    const { autosave, errors } = setup({
      save: async (content) => {
        if (refusals-- > 0) {
          throw Object.assign(new Error('Your disk is full: This change could not be saved yet.'), {
            code: 'disk_full',
          });
        }
        landed.push(content);
        return view(content);
      },
    });
    autosave.setField('title', 'Open redirect on login (typed while the disk was full)');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(autosave.snapshot.saveState).toBe('waiting');
    expect(autosave.unsaved).toBe(true);
    // No keystroke: the retries (1 s, 2 s, 4 s) carry it.
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(landed.map((c) => c.title)).toEqual([
      'Open redirect on login (typed while the disk was full)',
    ]);
    expect(autosave.snapshot.saveState).toBe('saved');
    expect(autosave.unsaved).toBe(false);
    expect(errors).toHaveLength(1);
  });

  it('any other refusal waits for the next edit, as before', async () => {
    let calls = 0;
    const { autosave } = setup({
      save: async () => {
        calls++;
        throw Object.assign(new Error('title: too long'), { field: 'title' });
      },
    });
    autosave.setField('title', 'x'.repeat(200));
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS + 30_000);
    expect(calls).toBe(1);
    expect(autosave.snapshot.saveState).toBe('error');
  });

  it('saves once, the latest content, a moment after the last keystroke', async () => {
    const { autosave, editor, saves } = setup();
    autosave.setField('title', 'Open redirect on login');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS / 2);
    editor.text = '## Steps to reproduce\n\nOpen it, then sign in.\n';
    autosave.schedule();
    expect(autosave.snapshot.saveState).toBe('pending');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    expect(saves).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(saves.map((s) => s.content)).toEqual([
      { ...BASE, title: 'Open redirect on login', description: editor.text },
    ]);
    expect(autosave.snapshot).toMatchObject({
      saveState: 'saved',
      fields: { title: 'Open redirect on login' },
      descriptionLength: editor.text.length,
    });
  });

  it('never overlaps or reorders saves; each is based on the one before', async () => {
    const resolvers: (() => void)[] = [];
    const order: string[] = [];
    const { autosave } = setup({
      save: (content, basedOn) =>
        new Promise((resolve) => {
          order.push(`${basedOn.title}→${content.title}`);
          resolvers.push(() => resolve(view(content)));
        }),
    });
    autosave.setField('title', 'A');
    const first = autosave.flush();
    await vi.advanceTimersByTimeAsync(0);
    autosave.setField('title', 'B');
    const second = autosave.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['Open redirect→A']);
    resolvers.shift()?.();
    await first;
    await vi.advanceTimersByTimeAsync(0);
    resolvers.shift()?.();
    await second;
    expect(order).toEqual(['Open redirect→A', 'A→B']);
  });

  it('shows what the engine merged into a save, and later saves build on it', async () => {
    const merged = { ...BASE, title: 'Mine', asset: 'https://theirs.example.com' };
    const calls: DraftContent[] = [];
    const { autosave, editor } = setup({
      save: async (content, basedOn) => {
        calls.push(basedOn);
        return view(calls.length === 1 ? merged : content);
      },
    });
    autosave.setField('title', 'Mine');
    await autosave.flush();
    expect(autosave.snapshot.fields.asset).toBe('https://theirs.example.com');
    expect(editor.replaced).toEqual([]);
    autosave.setField('title', 'Mine again');
    await autosave.flush();
    expect(calls[1]).toEqual(merged);
  });

  it('adopts a change made by the engine while idle, but not its own save echoed back', async () => {
    const { autosave, editor } = setup();
    autosave.setField('title', 'Typed');
    await autosave.flush();
    autosave.incoming(view({ ...BASE, title: 'Typed', description: editor.text ?? '' }));
    expect(editor.replaced).toEqual([]);
    const linked = `${editor.text ?? ''}\n[poc.txt](/reports/r/files/f)\n`;
    autosave.incoming(view({ ...BASE, title: 'Typed', description: linked }));
    expect(editor.replaced).toEqual([linked]);
    expect(autosave.snapshot.descriptionLength).toBe(linked.length);
  });

  it('an adopted change is not an edit: the next change of the engine is adopted too', () => {
    let autosave: DraftAutosave | null = null;
    const shown: string[] = [];
    autosave = new DraftAutosave(view(BASE), {
      save: async (content) => view(content),
      readDescription: () => shown.at(-1) ?? BASE.description,
      // The editor reports its change synchronously, as Milkdown does.
      replaceDescription: (markdown) => {
        shown.push(markdown);
        autosave?.schedule();
      },
      readOnly: () => false,
      onError: () => undefined,
    });
    const one = `${BASE.description}\n[a.txt](/reports/r/files/1)\n`;
    const two = `${one}[b.txt](/reports/r/files/2)\n`;
    autosave.incoming(view({ ...BASE, description: one }));
    autosave.incoming(view({ ...BASE, description: two }));
    expect(shown).toEqual([one, two]);
    expect(autosave.snapshot.saveState).toBe('saved');
  });

  it("keeps the researcher's newer edit over an incoming change, and takes its issues", () => {
    const { autosave, editor } = setup();
    autosave.setField('title', 'Typing…');
    autosave.incoming(view({ ...BASE, title: 'Server' }, [{ field: 'asset', message: 'x' }]));
    expect(editor.replaced).toEqual([]);
    expect(autosave.snapshot.fields.title).toBe('Typing…');
    expect(autosave.snapshot.issues).toEqual([{ field: 'asset', message: 'x' }]);
  });

  it('takes what a read says of the queue, unless a save answered after the read started', async () => {
    const { autosave } = setup();
    // The fake clock: a read started, then time passed before the save's answer came.
    const before = performance.now();
    vi.advanceTimersByTime(5);
    autosave.setField('title', 'IDOR on /api/orders/{id} for every host under *.example.com');
    await autosave.flush();
    expect(autosave.snapshot.unsent).toBe(true);
    // A read that started before the answer is older than it: ignored.
    autosave.sendState({ unsent: false, notOnServer: false }, before);
    expect(autosave.snapshot.unsent).toBe(true);
    // One started after it says the queue is empty now (a save that sent nothing).
    vi.advanceTimersByTime(5);
    autosave.sendState({ unsent: false, notOnServer: false }, performance.now());
    expect(autosave.snapshot).toMatchObject({ unsent: false, notOnServer: false });
    autosave.sendState({ unsent: false, notOnServer: true }, performance.now());
    expect(autosave.snapshot.notOnServer).toBe(true);
  });

  it("says the change is unsent as the save's answer says, until the engine's view says it went", async () => {
    const { autosave } = setup();
    autosave.incoming({ ...view(BASE), unsent: false });
    expect(autosave.snapshot.unsent).toBe(false);
    autosave.setField('title', 'Open redirect on ?next=//evil.example');
    await autosave.flush();
    // The test's engine answers every save with its change queued (`view` is unsent).
    expect(autosave.snapshot).toMatchObject({ saveState: 'saved', unsent: true });
    autosave.incoming({ ...view(autosave.content), unsent: false });
    expect(autosave.snapshot.unsent).toBe(false);
  });

  it('a failed save reports the error and is tried again on the next flush', async () => {
    let fail = true;
    const { autosave, errors } = setup({
      save: async (content) => {
        if (fail) throw new Error('engine restarting');
        return view(content);
      },
    });
    autosave.setField('title', 'Kept');
    await autosave.flush();
    expect(autosave.snapshot.saveState).toBe('error');
    expect(errors).toHaveLength(1);
    fail = false;
    await autosave.flush();
    expect(autosave.snapshot.saveState).toBe('saved');
  });

  it('stores the description a drop offset refers to before the drop is sent', async () => {
    const { autosave, saves, editor } = setup();
    editor.text = null; // the editor is between documents
    autosave.useDescription('As shown at the drop.\n');
    await autosave.flush();
    expect(saves.at(-1)?.content.description).toBe('As shown at the drop.\n');
  });

  it('a read-only session schedules nothing', async () => {
    const { autosave, saves } = setup({ readOnly: true });
    autosave.schedule();
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(saves).toEqual([]);
    expect(autosave.snapshot.saveState).toBe('saved');
  });
});
