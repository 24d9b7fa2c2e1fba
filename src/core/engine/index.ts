export {
  Engine,
  NotSignedInError,
  SignInError,
  type EngineCalls,
  type EngineOptions,
} from './engine';
export { AccountSession, EngineInputError, ReadOnlyError } from './session';
export { EngineEvents } from './events';
export { describeError, DESCRIBED_CODES } from '../../shared/errors/describe-error';
