/**
 * Autosave of one open draft, without React: the fields as typed, a save 300 ms after the last
 * keystroke, saves that never overlap or reorder, the `basedOn` content each save carries (so the
 * engine merges an edit made before the editor saw a merge), and adopting what the engine changed
 * (a merge, a file link, a resolution) while the researcher is idle. `useDraftAutosave` binds it
 * to the draft editor; the unit tests drive it directly.
 */
import { sameContent } from '@shared/bridge/draft-content';
import { isDiskFull } from '../../../lib/errors';
import type { DraftContent, DraftField, DraftView } from '@shared/bridge/views';

/** `waiting`: refused by a full disk; the text stays here and is saved again by itself. */
export type SaveState = 'saved' | 'pending' | 'saving' | 'error' | 'waiting';
/** The draft's one-line fields, typed here; the description has its own editor. */
export type LineField = Exclude<DraftField, 'description'>;

export interface AutosaveSnapshot {
  fields: Pick<DraftContent, LineField>;
  descriptionLength: number;
  issues: DraftView['issues'];
  saveState: SaveState;
  /**
   * Whether the engine still holds a change of this draft for the server, as its last answer
   * said (a save's, or the engine's view read since): "Saved and sent." only once it is not.
   */
  unsent: boolean;
  /** Nothing queued, and the server does not have this content (its sending was discarded). */
  notOnServer: boolean;
  /**
   * How many saves found the text back at what was saved (an Undo before the change was sent):
   * no check runs for those, and its last answer holds for the text again.
   */
  backToSaved: number;
}

/** What the autosave reads of the engine's view of the draft. */
type EngineDraft = Pick<DraftView, 'content' | 'issues' | 'unsent' | 'notOnServer'>;

export interface AutosaveDeps {
  /** The engine's saveDraft. */
  save(content: DraftContent, basedOn: DraftContent): Promise<DraftView>;
  /** The description as the editor holds it now (null before the editor is ready). */
  readDescription(): string | null;
  /** Shows the engine's description in the editor. */
  replaceDescription(description: string): void;
  readOnly(): boolean;
  onError(error: unknown): void;
  delayMs?: number;
  /** The first wait before a save refused by a full disk is tried again (doubles up to 10 s). */
  retryMs?: number;
}

/** What the editor's view provides once it is mounted (see `connect`). */
export type EditorPort = Pick<AutosaveDeps, 'readDescription' | 'replaceDescription' | 'readOnly'>;

export const SAVE_DELAY_MS = 300;
/** Own saves remembered so the engine echoing one back is not taken for news. */
const OWN_SAVES_KEPT = 20;

export class DraftAutosave {
  #deps: AutosaveDeps;
  #content: DraftContent;
  #lastSaved: DraftContent;
  /** The engine's content the editor's text derives from: sent with each save as `basedOn`. */
  #basis: DraftContent;
  #ownSaves: DraftContent[];
  #saving = 0;
  #dirty = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #chain: Promise<void> = Promise.resolve();
  /** Set while the engine's description is put into the editor: its change event is not an edit. */
  #replacing = false;
  #snapshot: AutosaveSnapshot;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retries = 0;
  #listeners = new Set<(s: AutosaveSnapshot) => void>();
  /** When the last save's answer came (`performance.now()`): reads started before are older. */
  #answeredAt = -Infinity;

  constructor(draft: EngineDraft, deps: AutosaveDeps) {
    this.#deps = deps;
    this.#content = draft.content;
    this.#lastSaved = draft.content;
    this.#basis = draft.content;
    this.#ownSaves = [draft.content];
    this.#snapshot = {
      fields: fieldsOf(draft.content),
      descriptionLength: draft.content.description.length,
      issues: draft.issues,
      saveState: 'saved',
      unsent: draft.unsent,
      notOnServer: draft.notOnServer,
      backToSaved: 0,
    };
  }

  /** Binds the mounted editor (its description, whether the session may write). */
  connect(port: EditorPort): void {
    this.#deps = { ...this.#deps, ...port };
  }

  get snapshot(): AutosaveSnapshot {
    return this.#snapshot;
  }

  /** The content as the researcher sees it now (fields as typed, description as last read). */
  get content(): DraftContent {
    return this.#content;
  }

  /** True while what the researcher typed is not on disk yet (a window closing must ask first). */
  get unsaved(): boolean {
    return this.#dirty || this.#saving > 0;
  }

  subscribe(listener: (s: AutosaveSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A field typed: saved shortly. */
  setField(name: LineField, value: string): void {
    this.#content = { ...this.#content, [name]: value };
    this.#set({ fields: fieldsOf(this.#content) });
    this.schedule();
  }

  /** The description changed in the editor: saved shortly. */
  schedule(): void {
    if (this.#deps.readOnly() || this.#replacing) return;
    this.#dirty = true;
    this.#set({ saveState: 'pending' });
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), this.#deps.delayMs ?? SAVE_DELAY_MS);
  }

  /**
   * The description an offset refers to (a drop, the caret for a picked file) is stored first,
   * exactly as the editor showed it, so the engine inserts at the right place.
   */
  useDescription(description: string): void {
    this.#content = { ...this.#content, description };
    this.#dirty = true;
  }

  /**
   * Reads what was typed in the editor now, for a save that runs after the editor is gone (the
   * screen closing): `flush` reads it only once the saves before it are done.
   */
  keepTyped(): void {
    if (!this.#dirty) return;
    const description = this.#deps.readDescription();
    if (description != null) this.#content = { ...this.#content, description };
  }

  /** Saves now, after any save already running (saves never overlap or reorder). */
  flush(): Promise<void> {
    const once = (): Promise<void> => this.#saveOnce();
    this.#chain = this.#chain.then(once, once);
    return this.#chain;
  }

  /**
   * What a read of the report says of the queue, unless a save answered since it started (that
   * answer is newer). A read the same as the report shown reaches the editor only this way.
   */
  sendState(draft: Pick<DraftView, 'unsent' | 'notOnServer'>, readStartedAt: number): void {
    if (readStartedAt < this.#answeredAt) return;
    this.#set({ unsent: draft.unsent, notOnServer: draft.notOnServer });
  }

  /** The engine's view of the draft changed: adopt it unless the researcher's edit is newer. */
  incoming(draft: EngineDraft): void {
    const incoming = draft.content;
    const echo = this.#ownSaves.some((c) => sameContent(c, incoming));
    if (!(this.#dirty || this.#saving > 0 || echo || sameContent(incoming, this.#lastSaved))) {
      this.#adopt(incoming);
    }
    this.#set({ issues: draft.issues, unsent: draft.unsent, notOnServer: draft.notOnServer });
  }

  async #saveOnce(): Promise<void> {
    clearTimeout(this.#timer);
    if (!this.#dirty) return;
    this.#dirty = false;
    const description = this.#deps.readDescription();
    const content = { ...this.#content, ...(description != null ? { description } : {}) };
    this.#content = content;
    this.#set({ descriptionLength: content.description.length });
    if (sameContent(content, this.#lastSaved)) {
      this.#set({ saveState: 'saved', backToSaved: this.#snapshot.backToSaved + 1 });
      return;
    }
    this.#set({ saveState: 'saving' });
    this.#saving++;
    this.#ownSaves = [...this.#ownSaves.slice(-(OWN_SAVES_KEPT - 1)), content];
    try {
      const view = await this.#deps.save(content, this.#basis);
      this.#answeredAt = performance.now();
      clearTimeout(this.#retryTimer);
      this.#retries = 0;
      this.#lastSaved = content;
      this.#basis = content;
      this.#set({
        issues: view.issues,
        unsent: view.unsent,
        notOnServer: view.notOnServer,
        saveState: this.#dirty ? 'pending' : 'saved',
      });
      // The engine merged changes made elsewhere into this edit: show them unless the user has
      // typed on since (then the next save carries `basedOn` and is merged the same way).
      if (!sameContent(view.content, content) && !this.#dirty) this.#adopt(view.content);
    } catch (error) {
      this.#dirty = true;
      if (isDiskFull(error)) {
        // Said once; then tried again by itself (1 s, 2 s, … 10 s) until the disk takes it, not
        // only on the next keystroke: the text lives in this window meanwhile.
        if (this.#retries === 0) this.#deps.onError(error);
        const wait = Math.min(10_000, (this.#deps.retryMs ?? 1_000) * 2 ** this.#retries);
        this.#retries++;
        clearTimeout(this.#retryTimer);
        this.#retryTimer = setTimeout(() => void this.flush(), wait);
        this.#set({ saveState: 'waiting' });
      } else {
        this.#deps.onError(error);
        this.#set({ saveState: 'error' });
      }
    } finally {
      this.#saving--;
    }
  }

  /** Shows the engine's content in every field; later saves build on it. */
  #adopt(incoming: DraftContent): void {
    this.#lastSaved = incoming;
    this.#basis = incoming;
    this.#ownSaves = [incoming];
    this.#content = incoming;
    this.#set({ fields: fieldsOf(incoming), descriptionLength: incoming.description.length });
    if (this.#deps.readDescription() !== incoming.description) {
      // Otherwise the editor's change event would mark the draft dirty, and the engine's next
      // change (the second of two dropped files) would be held back as if the user were typing.
      this.#replacing = true;
      try {
        this.#deps.replaceDescription(incoming.description);
      } finally {
        this.#replacing = false;
      }
    }
  }

  #set(change: Partial<AutosaveSnapshot>): void {
    // Nothing new (every keystroke in the description says 'pending' again): the same snapshot,
    // so the draft editor does not render again for each keystroke.
    const current = this.#snapshot as unknown as Record<string, unknown>;
    if (Object.entries(change).every(([key, value]) => Object.is(current[key], value))) return;
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener(this.#snapshot);
  }
}

function fieldsOf(content: DraftContent): Pick<DraftContent, LineField> {
  return { title: content.title, asset: content.asset, cvss_vector: content.cvss_vector };
}
