import type { Db } from './database';

/** A researcher's own description template, kept only in this mirror. */
export interface Template {
  id: string;
  name: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface TemplatesRepository {
  /** By name (case-insensitive), then id. */
  list(): Template[];
  get(id: string): Template | null;
  getByName(name: string): Template | null;
  /** Creates or replaces the template with this id. */
  put(template: { id: string; name: string; body: string }, at?: string): Template;
  delete(id: string): boolean;
}

interface Row {
  id: string;
  name: string;
  body: string;
  created_at: string;
  updated_at: string;
}

const toTemplate = (r: Row): Template => ({
  id: r.id,
  name: r.name,
  body: r.body,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function createTemplatesRepository(db: Db): TemplatesRepository {
  const sqlite = db.sqlite;
  const all = sqlite.prepare<[], Row>('SELECT * FROM templates ORDER BY name COLLATE NOCASE, id');
  const one = sqlite.prepare<[string], Row>('SELECT * FROM templates WHERE id = ?');
  const byName = sqlite.prepare<[string], Row>(
    'SELECT * FROM templates WHERE name = ? COLLATE NOCASE',
  );
  const upsert = sqlite.prepare<[string, string, string, string, string]>(
    `INSERT INTO templates (id, name, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, body = excluded.body,
       updated_at = excluded.updated_at`,
  );
  const remove = sqlite.prepare<[string]>('DELETE FROM templates WHERE id = ?');
  return {
    list: () => all.all().map(toTemplate),
    get: (id) => {
      const row = one.get(id);
      return row ? toTemplate(row) : null;
    },
    getByName: (name) => {
      const row = byName.get(name);
      return row ? toTemplate(row) : null;
    },
    put(template, at = new Date().toISOString()) {
      upsert.run(template.id, template.name, template.body, at, at);
      const row = one.get(template.id);
      if (!row) throw new Error('template not written');
      return toTemplate(row);
    },
    delete: (id) => remove.run(id).changes > 0,
  };
}
