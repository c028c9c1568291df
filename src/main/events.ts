import { EventEmitter } from 'node:events';
import { events, type EventName, type EventPayload } from '../shared/contract';

/** Typed main -> renderer event bus; the shell and the web mode forward it to their transports. */
export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.emitter.emit(event, events[event].parse(payload));
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  /** Every event, for transports that forward all of them. */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void {
    const offs = (Object.keys(events) as EventName[]).map((name) =>
      this.on(name, (payload) => listener(name, payload)),
    );
    return () => offs.forEach((off) => off());
  }
}
