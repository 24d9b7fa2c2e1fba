import type { KeytarItems } from './keytar-items';

/** The part of @napi-rs/keyring's AsyncEntry this reader uses. */
export interface TargetEntry {
  getSecret(): Promise<Uint8Array | number[] | null>;
  deletePassword(): Promise<boolean>;
}

/** Opens the credential with this exact target name (the binding's `withTarget`). */
export type OpenTarget = (target: string, service: string, account: string) => TargetEntry;

async function importTarget(): Promise<OpenTarget> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  return (target, service, account) => AsyncEntry.withTarget(target, service, account);
}

/**
 * The keys an earlier version stored through keytar on Windows. keytar filed each as a generic
 * credential named `service/account` holding the key's UTF-8 bytes (src/keytar_win.cc), while
 * @napi-rs/keyring names its own `account.service` and stores UTF-16: so the old credential is
 * opened by its exact target name and its bytes are read as UTF-8.
 */
export class CredentialManagerKeytarItems implements KeytarItems {
  readonly #load: () => Promise<OpenTarget>;
  #open: Promise<OpenTarget> | undefined;

  constructor(load: () => Promise<OpenTarget> = importTarget) {
    this.#load = load;
  }

  async read(service: string, account: string): Promise<string | null> {
    const secret = await (await this.#entry(service, account)).getSecret();
    if (secret === null) return null;
    return Buffer.from(secret).toString('utf8');
  }

  async remove(service: string, account: string): Promise<boolean> {
    return (await this.#entry(service, account)).deletePassword();
  }

  async #entry(service: string, account: string): Promise<TargetEntry> {
    this.#open ??= this.#load();
    const open = await this.#open;
    // keytar's credential name on Windows.
    return open(`${service}/${account}`, service, account);
  }
}
