import type * as DBusLibrary from '@jellybrick/dbus-next';
import type { MessageBus } from '@jellybrick/dbus-next';

type DBus = typeof DBusLibrary;

/**
 * The keys an earlier version stored through keytar, which is no longer shipped. Only Linux needs
 * this reader: keytar's libsecret backend filed each key as a Secret Service item with the attributes
 * `service` and `account`, while @napi-rs/keyring files and finds it by `service` and `username`,
 * so the new binding does not see the old item. (Windows: keytar-credentials.ts; on macOS both use
 * the same generic-password item.)
 */
export interface KeytarItems {
  /** The value keytar stored for this account, or null when there is none or it is locked. */
  read(service: string, account: string): Promise<string | null>;
  /** Deletes what keytar stored for this account; false when there was nothing. */
  remove(service: string, account: string): Promise<boolean>;
}

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const SERVICE_IFACE = 'org.freedesktop.Secret.Service';
/** A Secret Service "no prompt needed" answer. */
const NO_PROMPT = '/';
/** A session-bus connection and the library that opened it. */
export interface Connection {
  bus: MessageBus;
  dbus: DBus;
}

/** keytar's items, found over the D-Bus session bus with the Secret Service API. */
export class SecretServiceKeytarItems implements KeytarItems {
  async read(service: string, account: string): Promise<string | null> {
    return withBus(async (connection) => {
      const [unlocked] = await searchItems(connection, service, account);
      const item = unlocked[0];
      // A locked item would need the user to answer an unlock prompt; the next start tries again.
      if (item === undefined) return null;
      const [, session] = (await call(
        connection,
        SERVICE_PATH,
        SERVICE_IFACE,
        'OpenSession',
        'sv',
        ['plain', new connection.dbus.Variant('s', '')],
      )) as [unknown, string];
      try {
        const [secrets] = (await call(
          connection,
          SERVICE_PATH,
          SERVICE_IFACE,
          'GetSecrets',
          'aoo',
          [[item], session],
        )) as [Record<string, [string, Buffer, Buffer, string]>];
        const secret = secrets[item];
        return secret === undefined ? null : Buffer.from(secret[2]).toString('utf8');
      } finally {
        await call(connection, session, 'org.freedesktop.Secret.Session', 'Close', '', []);
      }
    });
  }

  async remove(service: string, account: string): Promise<boolean> {
    return withBus(async (connection) => {
      const [unlocked, locked] = await searchItems(connection, service, account);
      let removed = false;
      for (const item of [...unlocked, ...locked]) {
        const [prompt] = (await call(
          connection,
          item,
          'org.freedesktop.Secret.Item',
          'Delete',
          '',
          [],
        )) as [string];
        if (prompt !== NO_PROMPT) throw new Error('the keychain asked to confirm a deletion');
        removed = true;
      }
      return removed;
    });
  }
}

/** The D-Bus library is loaded when an old item is looked for, not with the engine. */
async function withBus<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('no D-Bus session bus');
  const dbus = await import('@jellybrick/dbus-next');
  const bus = dbus.sessionBus();
  // A connection failure arrives as an event, not as a rejected call; the listener stays so that
  // a late one after disconnecting is not an unhandled 'error' event.
  const failed = new Promise<never>((_, reject) =>
    (bus as unknown as NodeJS.EventEmitter).on('error', reject),
  );
  try {
    return await Promise.race([work({ bus, dbus }), failed]);
  } finally {
    bus.disconnect();
  }
}

/** keytar's schema: both attributes, exactly (libsecret adds `xdg:schema`, which is not needed). */
async function searchItems(
  connection: Connection,
  service: string,
  account: string,
): Promise<[string[], string[]]> {
  return (await call(connection, SERVICE_PATH, SERVICE_IFACE, 'SearchItems', 'a{ss}', [
    { service, account },
  ])) as [string[], string[]];
}

function call(
  connection: Connection,
  path: string,
  iface: string,
  member: string,
  signature: string,
  body: unknown[],
): Promise<unknown[]> {
  return callSecretService(connection, { path, interface: iface, member, signature, body });
}

/** One Secret Service method call on `connection`; its body, or [] for none. */
export async function callSecretService(
  { bus, dbus }: Connection,
  message: { path: string; interface: string; member: string; signature: string; body: unknown[] },
): Promise<unknown[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const reply = await bus.call(new dbus.Message({ destination: SECRETS, ...message }));
      return reply?.body ?? [];
    } catch (error) {
      if (attempt >= RACE_ATTEMPTS || !isClientRace(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
}

/**
 * gnome-keyring answers a new connection's call before it has set up that caller (its handler
 * finds no session for the sender and gives up), which GDBus words as "Method … is not
 * implemented": about one call in 300 when several processes use the keychain at once. The
 * same call a moment later is answered.
 */
const RACE_ATTEMPTS = 4;
function isClientRace(error: unknown): boolean {
  const type = (error as { type?: unknown }).type;
  const text = error instanceof Error ? error.message : '';
  return type === 'org.freedesktop.DBus.Error.UnknownMethod' && /is not implemented/.test(text);
}
