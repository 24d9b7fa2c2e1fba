/** A draft opened in the spare editor and in a new one (`spare.ts`, `spare-editor.test.ts`). */
/** What a screen sees of a draft just opened. */
export interface Opened {
  markdown: string;
  /** The text the editor shows. */
  shown: string;
  undoDepth: number;
  /** The screen's `onChange` calls during the open. */
  changes: number;
  label: string | null;
  editable: string | null;
  error?: string;
}

export interface OpenCase {
  markdown: string;
  editable: boolean;
  reportId: string;
}
