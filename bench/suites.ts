/**
 * Every benchmark suite of the project (`bench/<name>.ts`), in the order `npm run bench` runs
 * them. Each module runs its suite only when started as a script: importing it runs nothing.
 */
export const SUITES = [
  'sandbox',
  'store',
  'engine',
  'ui',
  'renderer',
  'mirror',
  'scan',
  'editor',
  'cli',
] as const;
