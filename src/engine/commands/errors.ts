import { ENGINE_CODES } from '@shared/errors/error-data';
import { newerDataSentence } from '@shared/errors/newer-data';

/**
 * A call's input is wrong: `field` names it, the message says what to do. The field stays a
 * property (it crosses to the renderer and the CLI as data), never a prefix of the message.
 */
export class EngineInputError extends Error {
  override readonly name = 'EngineInputError';
  readonly code: string = ENGINE_CODES.invalidInput;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export class ReadOnlyError extends Error {
  override readonly name = 'ReadOnlyError';
  readonly code = 'read_only_key';
  constructor() {
    super('This API key can only read: sign in with a key of scope "write" to make changes.');
  }
}

export class NotSignedInError extends Error {
  override readonly name = 'NotSignedInError';
  readonly code = ENGINE_CODES.notSignedIn;
  constructor() {
    super('Not signed in: connect to a server first.');
  }
}

export class SignInError extends Error {
  override readonly name = 'SignInError';
  readonly code = ENGINE_CODES.signInFailed;
  constructor(
    readonly field: 'serverUrl' | 'apiKey',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The account's data was written by a newer version of the app. Nothing of it was opened or
 * changed; the researcher updates the app or starts with a fresh copy (the old one is kept).
 */
export class NewerDataError extends Error {
  readonly code = ENGINE_CODES.newerData;
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(newerDataSentence(found, supported));
    this.name = 'NewerDataError';
  }
}
