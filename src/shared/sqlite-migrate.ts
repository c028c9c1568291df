/**
 * Numbered-migration runner shared by the client and the service databases.
 * Structural types only, so src/shared stays free of node imports.
 */
export interface Migration {
  /** 1, 2, 3... contiguous; never edit a migration that has shipped. */
  version: number;
  name: string;
  up: string | ((db: MigratableDb) => void);
}

export interface MigratableDb {
  exec(sql: string): unknown;
  pragma(source: string, options: { simple: true }): unknown;
  transaction(fn: () => void): () => void;
}

export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `database schema version ${found} is newer than this build supports (${supported}); ` +
        'update Reelsync or use another data folder',
    );
    this.name = 'NewerSchemaError';
  }
}

export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
    }
  });
}

/** Applies pending migrations, each in its own transaction with its user_version bump. Returns versions applied. */
export function migrate(db: MigratableDb, migrations: readonly Migration[]): number[] {
  checkMigrations(migrations);
  const latest = migrations.length;
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > latest) throw new NewerSchemaError(current, latest);
  const applied: number[] = [];
  for (const m of migrations.slice(current)) {
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      db.exec(`PRAGMA user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
