import { newerDataSentence } from '../../shared/errors/newer-data';

/** A call's input is wrong: `field` names it, the message says what to do. */
export class EngineInputError extends Error {
  override readonly name = 'EngineInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export class ReadOnlyError extends Error {
  override readonly name = 'ReadOnlyError';
  constructor() {
    super('This API key can only read: sign in with a key of scope "write" to make changes.');
  }
}

export class NotSignedInError extends Error {
  override readonly name = 'NotSignedInError';
  constructor() {
    super('Not signed in: connect to a server first.');
  }
}

export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    readonly field: 'serverUrl' | 'apiKey',
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/**
 * The account's data was written by a newer version of the app. Nothing of it was opened or
 * changed; the researcher updates the app or starts with a fresh copy (the old one is kept).
 */
export class NewerDataError extends Error {
  readonly code = 'newer_data';
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(newerDataSentence(found, supported));
    this.name = 'NewerDataError';
  }
}
