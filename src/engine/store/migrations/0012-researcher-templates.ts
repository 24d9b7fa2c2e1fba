import { sqlStep } from './migration';

/** The researcher's own description templates (names unique, any case). */
const sql = `
CREATE TABLE templates (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  body       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX templates_by_name ON templates (name COLLATE NOCASE);
`;

export const researcherTemplates = sqlStep(12, 'researcher templates', sql);
