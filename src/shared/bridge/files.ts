/**
 * A file the user handed to the app (dropped on the window or picked in main's open dialog), as
 * main knows it. The page never sees or names a path: it passes the token back.
 */
export type FileToken = string;

export interface PickedFile {
  token: FileToken;
  name: string;
  size: number;
}
