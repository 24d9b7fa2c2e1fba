import type { Db } from './database';
import type { KeyScope, Me, PaymentsStatus } from './api-types';
import { parseJson } from './sql-values';

export type { KeyScope };

/**
 * What the store knows about the signed-in account. The API key itself lives only in the OS
 * keychain (src/engine/secrets): there is deliberately no field for it here.
 */
export interface AccountInfo {
  serverUrl: string | null;
  keyScope: KeyScope | null;
  me: Me | null;
  meFetchedAt: string | null;
  payments: PaymentsStatus | null;
  paymentsFetchedAt: string | null;
}

export interface AccountRepository {
  get(): AccountInfo;
  setConnection(connection: { serverUrl: string; keyScope: KeyScope | null }): void;
  setMe(me: Me, fetchedAt?: string): void;
  setPayments(payments: PaymentsStatus, fetchedAt?: string): void;
  clear(): void;
}

interface AccountRow {
  server_url: string | null;
  key_scope: KeyScope | null;
  me_json: string | null;
  me_fetched_at: string | null;
  payments_json: string | null;
  payments_fetched_at: string | null;
}

export function createAccountRepository(db: Db): AccountRepository {
  const sqlite = db.sqlite;
  const ensureRow = sqlite.prepare('INSERT OR IGNORE INTO account (singleton) VALUES (1)');
  const select = sqlite.prepare<[], AccountRow>('SELECT * FROM account WHERE singleton = 1');
  const updateConnection = sqlite.prepare<[string, KeyScope | null]>(
    'UPDATE account SET server_url = ?, key_scope = ? WHERE singleton = 1',
  );
  const updateMe = sqlite.prepare<[string, string]>(
    'UPDATE account SET me_json = ?, me_fetched_at = ? WHERE singleton = 1',
  );
  const updatePayments = sqlite.prepare<[string, string]>(
    'UPDATE account SET payments_json = ?, payments_fetched_at = ? WHERE singleton = 1',
  );
  const deleteRow = sqlite.prepare('DELETE FROM account');

  function write(run: () => void): void {
    db.transaction(() => {
      ensureRow.run();
      run();
    });
  }

  return {
    get() {
      const row = select.get();
      return {
        serverUrl: row?.server_url ?? null,
        keyScope: row?.key_scope ?? null,
        me: parseJson<Me>(row?.me_json ?? null),
        meFetchedAt: row?.me_fetched_at ?? null,
        payments: parseJson<PaymentsStatus>(row?.payments_json ?? null),
        paymentsFetchedAt: row?.payments_fetched_at ?? null,
      };
    },
    setConnection({ serverUrl, keyScope }) {
      write(() => updateConnection.run(serverUrl, keyScope));
    },
    setMe(me, fetchedAt = new Date().toISOString()) {
      // Me embeds the last stored payments status: keep both views consistent.
      write(() => {
        updateMe.run(JSON.stringify(me), fetchedAt);
        const current = select.get();
        if (!current?.payments_fetched_at || current.payments_fetched_at <= fetchedAt) {
          updatePayments.run(JSON.stringify(me.payments), fetchedAt);
        }
      });
    },
    setPayments(payments, fetchedAt = new Date().toISOString()) {
      write(() => updatePayments.run(JSON.stringify(payments), fetchedAt));
    },
    clear() {
      deleteRow.run();
    },
  };
}
