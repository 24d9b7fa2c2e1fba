import type { Intake, KeyScope, PaymentsAccountStatus } from './index';

/**
 * `GET /__sandbox/world` of the sandbox's control routes (docs/sandbox.md; never part of the
 * researcher API): the seeded accounts with their keys, and the programs. One declaration for
 * the sandbox that answers it and for main and the tests that read it.
 */
export interface WorldKey {
  id: string;
  scope: KeyScope;
  key: string;
}

export interface WorldAccount {
  uid: string;
  email: string | null;
  email_verified: boolean;
  payments_status: PaymentsAccountStatus;
  /** Stands for a website sign-in (routes an API key may not use). */
  session_token: string;
  keys: WorldKey[];
}

export interface WorldProgram {
  id: string;
  intake: Intake;
  pool_paused: boolean;
  private: boolean;
  published: boolean;
  invited: string[];
}

export interface World {
  accounts: WorldAccount[];
  programs: WorldProgram[];
}
