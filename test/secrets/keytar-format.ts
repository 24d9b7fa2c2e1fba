/**
 * Keys as keytar 7 (the keychain binding of versions up to 0.1) stored them, written and read in
 * its format directly, so the test of the move from it needs neither keytar nor the libsecret
 * headers it builds against:
 *
 * - Linux (keytar_posix.cc, libsecret): a Secret Service item in the default collection, labelled
 *   with the service, with the attributes `service`, `account` and the `xdg:schema`
 *   `org.freedesktop.Secret.Generic` libsecret adds, holding the key as text/plain bytes.
 * - Windows (keytar_win.cc): a generic credential named `service/account` holding UTF-8 bytes.
 * - macOS (keytar_mac.cc): the generic password of (service, account), the binding's own item.
 */
import { AsyncEntry } from '@napi-rs/keyring';
import { callSecretService } from '../../src/engine/secrets/keytar-items';

export interface KeytarFormat {
  setPassword(service: string, account: string, password: string): Promise<void>;
  getPassword(service: string, account: string): Promise<string | null>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export function keytarFormat(platform: NodeJS.Platform = process.platform): KeytarFormat {
  if (platform === 'darwin') {
    const entry = (service: string, account: string) => new AsyncEntry(service, account);
    return {
      setPassword: (s, a, p) => entry(s, a).setPassword(p),
      getPassword: async (s, a) => (await entry(s, a).getPassword()) ?? null,
      deletePassword: (s, a) => entry(s, a).deletePassword(),
    };
  }
  if (platform === 'win32') {
    const entry = (service: string, account: string) =>
      AsyncEntry.withTarget(`${service}/${account}`, service, account);
    return {
      setPassword: (s, a, p) => entry(s, a).setSecret(Buffer.from(p, 'utf8')),
      getPassword: async (s, a) => {
        const secret = await entry(s, a).getSecret();
        return secret ? Buffer.from(secret).toString('utf8') : null;
      },
      deletePassword: (s, a) => entry(s, a).deletePassword(),
    };
  }
  return secretService;
}

const SERVICE_PATH = '/org/freedesktop/secrets';
const SERVICE = 'org.freedesktop.Secret.Service';
const DEFAULT_COLLECTION = '/org/freedesktop/secrets/aliases/default';
const SCHEMA = 'org.freedesktop.Secret.Generic';

type Call = (
  path: string,
  iface: string,
  member: string,
  signature: string,
  body: unknown[],
) => Promise<unknown[]>;

type Variant = new (signature: string, value: unknown) => unknown;

async function withSecretService<T>(
  work: (call: Call, variant: Variant) => Promise<T>,
): Promise<T> {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error(
      'No D-Bus session: run the keychain tests as `bash scripts/with-keyring.sh npx vitest run ' +
        'test/secrets` (Debian/Ubuntu: apt-get install gnome-keyring dbus-user-session dbus-x11).',
    );
  }
  const dbus = await import('@jellybrick/dbus-next');
  const bus = dbus.sessionBus();
  const call: Call = (path, iface, member, signature, body) =>
    callSecretService({ bus, dbus }, { path, interface: iface, member, signature, body });
  try {
    return await work(call, dbus.Variant as unknown as Variant);
  } finally {
    bus.disconnect();
  }
}

async function openSession(call: Call, variant: Variant): Promise<string> {
  const [, session] = (await call(SERVICE_PATH, SERVICE, 'OpenSession', 'sv', [
    'plain',
    new variant('s', ''),
  ])) as [unknown, string];
  return session;
}

/** libsecret's lookup: the schema's attributes and its name, exactly. */
async function findItems(call: Call, service: string, account: string): Promise<string[]> {
  const [unlocked, locked] = (await call(SERVICE_PATH, SERVICE, 'SearchItems', 'a{ss}', [
    { service, account, 'xdg:schema': SCHEMA },
  ])) as [string[], string[]];
  return [...unlocked, ...locked];
}

const secretService: KeytarFormat = {
  setPassword: (service, account, password) =>
    withSecretService(async (call, variant) => {
      const session = await openSession(call, variant);
      const properties = {
        'org.freedesktop.Secret.Item.Label': new variant('s', service),
        'org.freedesktop.Secret.Item.Attributes': new variant('a{ss}', {
          service,
          account,
          'xdg:schema': SCHEMA,
        }),
      };
      const secret = [session, Buffer.alloc(0), Buffer.from(password, 'utf8'), 'text/plain'];
      const [, prompt] = (await call(
        DEFAULT_COLLECTION,
        'org.freedesktop.Secret.Collection',
        'CreateItem',
        'a{sv}(oayays)b',
        [properties, secret, true],
      )) as [string, string];
      await call(session, 'org.freedesktop.Secret.Session', 'Close', '', []);
      if (prompt !== '/') throw new Error('the keychain asked to confirm storing a key');
    }),
  getPassword: (service, account) =>
    withSecretService(async (call, variant) => {
      const [item] = await findItems(call, service, account);
      if (item === undefined) return null;
      const session = await openSession(call, variant);
      const [secrets] = (await call(SERVICE_PATH, SERVICE, 'GetSecrets', 'aoo', [
        [item],
        session,
      ])) as [Record<string, [string, Buffer, Buffer, string]>];
      await call(session, 'org.freedesktop.Secret.Session', 'Close', '', []);
      const secret = secrets[item];
      return secret ? Buffer.from(secret[2]).toString('utf8') : null;
    }),
  deletePassword: (service, account) =>
    withSecretService(async (call) => {
      const items = await findItems(call, service, account);
      for (const item of items) await call(item, 'org.freedesktop.Secret.Item', 'Delete', '', []);
      return items.length > 0;
    }),
};
