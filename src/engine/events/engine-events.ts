import { EventEmitter } from 'node:events';
import type { BridgeEventName, BridgeEvents } from '@shared/bridge/events';

/** The engine's events are exactly the bridge's events: main forwards them as they are. */
export class EngineEvents {
  private readonly emitter = new EventEmitter();

  emit<E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void {
    this.emitter.emit(event, payload);
  }

  on<E extends BridgeEventName>(
    event: E,
    listener: (payload: BridgeEvents[E]) => void,
  ): () => void {
    this.emitter.on(event, listener);
    return () => {
      this.emitter.off(event, listener);
    };
  }

  once<E extends BridgeEventName>(event: E): Promise<BridgeEvents[E]> {
    return new Promise((resolve) => this.emitter.once(event, resolve));
  }
}
