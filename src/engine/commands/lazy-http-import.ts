import type { HttpImportInput, HttpImportResult } from '@shared/bridge/evidence-views';
import type { HttpImportCommands } from './http-import-commands';

type Make = () => Promise<HttpImportCommands>;

/**
 * The HTTP evidence import as the session offers it, its code (HAR, Burp XML, curl and PowerShell
 * readers, fast-xml-parser) loaded by the first import instead of with the engine: most runs of
 * the engine, a command's above all, import none.
 */
export class LazyHttpImportCommands {
  readonly #make: Make;
  #commands: Promise<HttpImportCommands> | undefined;

  constructor(make: Make) {
    this.#make = make;
  }

  async importHttpEvidence(
    reportId: string,
    input: HttpImportInput,
  ): Promise<HttpImportResult & { insertedChars: number }> {
    this.#commands ??= this.#make();
    // A failed load is tried again by the next import.
    this.#commands.catch(() => (this.#commands = undefined));
    return (await this.#commands).importHttpEvidence(reportId, input);
  }
}
