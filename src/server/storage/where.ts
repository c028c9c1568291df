export type SqlValue = string | number | null;

/** Builds a WHERE clause and its arguments together, so they cannot drift apart. */
export class Where {
  private readonly clauses: string[] = [];
  readonly args: SqlValue[] = [];

  constructor(first: string, ...args: SqlValue[]) {
    this.add(first, ...args);
  }

  add(clause: string, ...args: SqlValue[]): this {
    this.clauses.push(clause);
    this.args.push(...args);
    return this;
  }

  /** Adds the clause only when the value is given (not undefined, not ''). */
  addIf(value: SqlValue | undefined, clause: string, ...args: SqlValue[]): this {
    return value === undefined || value === '' ? this : this.add(clause, ...args);
  }

  get sql(): string {
    return this.clauses.join(' AND ');
  }
}
