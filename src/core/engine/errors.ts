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
