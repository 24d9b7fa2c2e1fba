import { ENGINE_CODES } from '@shared/errors/error-data';

export { RemoteError, toBridgeError } from '@engine/host/bridge-error';

/** A refusal by main itself: an untrusted sender or arguments of the wrong shape. */
export class BridgeInputError extends Error {
  override readonly name = 'BridgeInputError';
  readonly code = ENGINE_CODES.badCall;
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
