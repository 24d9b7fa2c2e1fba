/**
 * File bytes by storage path: in memory, or under `<dataDir>/blobs` so they survive a restart.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface BlobStore {
  put(storagePath: string, bytes: Buffer): Promise<void>;
  get(storagePath: string): Promise<Buffer | undefined>;
  delete(storagePath: string): Promise<void>;
  clear(): Promise<void>;
}

export class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, Buffer>();

  async put(storagePath: string, bytes: Buffer): Promise<void> {
    this.blobs.set(storagePath, bytes);
  }

  async get(storagePath: string): Promise<Buffer | undefined> {
    return this.blobs.get(storagePath);
  }

  async delete(storagePath: string): Promise<void> {
    this.blobs.delete(storagePath);
  }

  async clear(): Promise<void> {
    this.blobs.clear();
  }
}

export class DiskBlobStore implements BlobStore {
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'blobs');
  }

  /** Storage paths are built by the sandbox from UUIDs and digits only; still, stay inside root. */
  private fileOf(storagePath: string): string {
    const file = path.resolve(this.root, storagePath);
    if (!file.startsWith(this.root + path.sep)) throw new Error('storage path escapes the store');
    return file;
  }

  async put(storagePath: string, bytes: Buffer): Promise<void> {
    const file = this.fileOf(storagePath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
  }

  async get(storagePath: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.fileOf(storagePath));
    } catch {
      return undefined;
    }
  }

  async delete(storagePath: string): Promise<void> {
    await rm(this.fileOf(storagePath), { force: true });
  }

  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
