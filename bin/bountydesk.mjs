#!/usr/bin/env node
// The `bountydesk` command of a checkout or an npm link: the built command (npm run build).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('bountydesk: not built yet; run `npm run build` (or `npm run cli -- …`).\n');
  process.exit(1);
}
await import(built);
