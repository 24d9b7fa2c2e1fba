export { Engine, type EngineCalls, type EngineOptions } from './engine';
export { EngineInputError, NotSignedInError, ReadOnlyError, SignInError } from './errors';
export { AccountSession } from './session';
export { EngineEvents } from '../events/engine-events';
export { describeError, DESCRIBED_CODES } from '@shared/errors/describe-error';
