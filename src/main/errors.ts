export { RemoteError, toBridgeError } from '../engine/host/bridge-error';

/** A refusal by main itself: an untrusted sender or arguments of the wrong shape. */
export class BridgeInputError extends Error {
  override readonly name = 'BridgeInputError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
