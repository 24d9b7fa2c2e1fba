/**
 * With `dataDir`: the world is written as one JSON snapshot (debounced after changes, and on
 * close) and read back at start; file bytes live next to it (DiskBlobStore).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { World, WorldSnapshot } from './state/world';

const DEBOUNCE_MS = 200;

export class Persistence {
  private readonly file: string;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    private readonly world: World,
  ) {
    this.file = path.join(dataDir, 'state.json');
  }

  /** Loads the snapshot; false when there is none yet. */
  async load(): Promise<boolean> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return false;
    }
    const snapshot = JSON.parse(text) as WorldSnapshot;
    // An upload or removal cut short by the restart did not finish.
    for (const r of snapshot.reports) {
      for (const a of Object.values(r.attachments)) {
        if (a.state === 'uploading' || a.state === 'deleting') a.state = 'failed';
      }
    }
    this.world.loadSnapshot(snapshot);
    return true;
  }

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing
        .then(() => this.write())
        .catch((error: unknown) => {
          console.error('sandbox: could not write the snapshot', error);
        });
    }, DEBOUNCE_MS);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    const tmp = `${this.file}.tmp`;
    await writeFile(tmp, JSON.stringify(this.world.toSnapshot()));
    await rename(tmp, this.file);
  }

  /** Writes now (close): waits for a running write, then writes synchronously. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    mkdirSync(this.dataDir, { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.world.toSnapshot()));
    renameSync(tmp, this.file);
  }
}
