/**
 * The files a curl command reads (`-d @file`, `-T file`, `-b jar`, `--netrc-file`…). The app never
 * reads the user's files for a pasted command: a caller may hand their contents in (the tests do,
 * with curl's own test files); otherwise each read leaves a note on the request saying what the
 * paste does not hold, and the request keeps a placeholder or goes without what the file gives.
 */
export interface CurlFiles {
  /** The file's contents, or `[contents of <name>]` (and a note) when not given. */
  contents(name: string): string;
  /** The file's contents, or null (and a note) when not given. */
  read(name: string): string | null;
  /** Notes a fact of the command the paste cannot show (a file's time, a password prompt). */
  note(text: string): void;
  /** What the paste does not hold, each said once. */
  readonly notes: readonly string[];
}

export const fileNote = (name: string): string =>
  `The command reads ${name === '-' ? 'standard input' : name}: its contents are not part of the paste.`;

export function curlFiles(
  readFile?: (name: string) => string | null,
  stdin: string | null = null,
): CurlFiles {
  const notes = new Set<string>();
  const read = (name: string): string | null => {
    const text = name === '-' ? stdin : (readFile?.(name) ?? null);
    if (text === null) notes.add(fileNote(name));
    return text;
  };
  return {
    read,
    contents: (name) => read(name) ?? `[contents of ${name === '-' ? 'standard input' : name}]`,
    note: (text) => void notes.add(text),
    get notes() {
      return [...notes];
    },
  };
}
