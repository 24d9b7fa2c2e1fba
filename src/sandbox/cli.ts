/**
 * `npm run sandbox -- --port 0 --agent manual --rate-limits spec [--data-dir DIR]`: prints one
 * line `sandbox listening on http://127.0.0.1:<port>` once it accepts requests, and runs until
 * SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './index';

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    agent: { type: 'string', default: 'auto' },
    'rate-limits': { type: 'string', default: 'spec' },
    'data-dir': { type: 'string' },
  },
  strict: true,
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be 0 to 65535');
if (values.agent !== 'auto' && values.agent !== 'manual') fail('--agent must be auto or manual');
const rateLimits = values['rate-limits'];
if (rateLimits !== 'spec' && rateLimits !== 'off') fail('--rate-limits must be spec or off');

const sandbox = await startSandbox({
  port,
  host: values.host,
  agent: values.agent,
  rateLimits,
  dataDir: values['data-dir'],
});
process.stdout.write(`sandbox listening on ${sandbox.url}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
