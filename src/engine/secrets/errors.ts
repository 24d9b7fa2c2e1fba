import { redactKeys } from '@shared/api/redact';
import { ENGINE_CODES } from '@shared/errors/error-data';

/** The key entered does not have the documented shape. The message never contains the key. */
export class InvalidApiKeyError extends Error {
  override readonly name = 'InvalidApiKeyError';
  readonly code = ENGINE_CODES.signInFailed;
  readonly field = 'apiKey';
  constructor(length: number) {
    super(
      `This does not look like an API key: expected the key's prefix, an underscore and 43 more ` +
        `characters, without spaces (the text entered has ${length} characters). Copy the key again from the website.`,
    );
  }
}

/**
 * No OS keychain can be used. The app then refuses to keep the key at all: it is never written
 * anywhere else, so the message tells the person what to install instead.
 */
export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
  readonly code = ENGINE_CODES.keychainUnavailable;
  /** What the keychain library said, with anything key-shaped removed. */
  readonly reason: string;

  constructor(reason: string, platform: NodeJS.Platform = process.platform, secret?: string) {
    const safeReason = redactKeys(reason, secret);
    super(`${keychainAdvice(platform)} (keychain said: ${safeReason})`);
    this.reason = safeReason;
  }
}

export function keychainAdvice(platform: NodeJS.Platform): string {
  const lead =
    'No OS keychain is available, so the API key cannot be stored; it is never written to disk in plain text.';
  switch (platform) {
    case 'darwin':
      return `${lead} Unlock the login keychain in Keychain Access and allow Bounty Desk to use it.`;
    case 'win32':
      return `${lead} Make sure the Windows Credential Manager service is running.`;
    default:
      return (
        `${lead} Install and start a Secret Service provider: on Debian/Ubuntu ` +
        '"apt-get install gnome-keyring" (or use KeePassXC\'s Secret Service), and run ' +
        'the app inside a desktop session whose keyring is unlocked.'
      );
  }
}
