import type { Bridge, BridgeFiles } from '@shared/bridge/contract';

declare global {
  interface Window {
    /** The one typed contract with the rest of the app (see src/shared/bridge). */
    bountyDesk: Bridge;
    /** Turns a dropped File into a token from main (the preload alone can read its path). */
    bountyDeskFiles?: BridgeFiles;
  }
}

export {};
