import type { Bridge } from '../../shared/bridge/contract';

declare global {
  interface Window {
    /** The one typed contract with the rest of the app (see src/shared/bridge). */
    bountyDesk: Bridge;
    /** Maps a dropped or picked File to its path on disk (the preload alone can). */
    bountyDeskFiles?: { pathForFile(file: File): string };
  }
}

export {};
