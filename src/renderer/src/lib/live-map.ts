/** A map of live values keyed by id, readable with useSyncExternalStore (a new Map on every change). */
export class LiveMap<V> {
  private map = new Map<number, V>();
  private readonly listeners = new Set<() => void>();

  set(id: number, value: V): void {
    this.map = new Map(this.map).set(id, value);
    this.listeners.forEach((l) => l());
  }

  snapshot = (): Map<number, V> => this.map;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}
