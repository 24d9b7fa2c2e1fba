import type { ScanOptions, SecretFinding } from './scan';

export type FileFormat = 'har' | 'burp' | 'text' | 'binary';

export interface FileFinding extends SecretFinding {
  /** Where in the file: "line 12", "entry 3, request cookie “SID”", "item 2, request, line 9". */
  where: string;
}

export interface FileScan {
  format: FileFormat;
  findings: FileFinding[];
  /** The file with every finding whose fingerprint is given replaced by `[REDACTED:<kind>]`. */
  redact(fingerprints: ReadonlySet<string>): Promise<Buffer>;
  /** The same, written to `outPath` piece by piece: a file read in a streaming pass. */
  redactToFile?(fingerprints: ReadonlySet<string>, outPath: string): Promise<void>;
}

export interface FileScanOptions extends ScanOptions {
  /** Called after each part is scanned: bytes (or parts) done, of total. */
  onProgress?: (done: number, total: number) => void;
}
