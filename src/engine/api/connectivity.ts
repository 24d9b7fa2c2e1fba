import { EventEmitter } from 'node:events';
import type { ApiError } from './errors';

export type ConnectivityState = 'unknown' | 'online' | 'offline';

interface ConnectivityEvents {
  online: [];
  offline: [error: ApiError];
}

/**
 * Whether the server of one account answers. A network failure or timeout makes it `offline`;
 * the next response of any kind (an error status is still an answer) makes it `online`.
 * Events fire only on a change.
 */
export class Connectivity extends EventEmitter<ConnectivityEvents> {
  #state: ConnectivityState = 'unknown';

  get state(): ConnectivityState {
    return this.#state;
  }

  reportAnswer(): void {
    if (this.#state === 'online') return;
    this.#state = 'online';
    this.emit('online');
  }

  reportNoAnswer(error: ApiError): void {
    if (this.#state === 'offline') return;
    this.#state = 'offline';
    this.emit('offline', error);
  }
}
