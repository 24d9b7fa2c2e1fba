/** Options of `startSandbox` and their defaults. */
export interface SandboxOptions {
  /** 0 = any free port. Default 0 for the library (the CLI defaults to 4010). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** 'auto': the triage agent acts on its own; 'manual': only control routes move reports. */
  agent?: 'auto' | 'manual';
  /** 'spec': the limits of part 8; 'off': no rate limits. */
  rateLimits?: 'spec' | 'off';
  /** Omit to keep everything in memory; with it, state and file bytes survive restarts. */
  dataDir?: string;
  /** Sandbox-clock seconds before the automatic agent acts (default 20). */
  agentDelaySeconds?: number;
  /** Real-time tick of the automatic agent (default 250 ms). */
  agentTickMs?: number;
  /** Fixed response time of the password reset (default 300 ms). */
  passwordResetPadMs?: number;
  /** Time allowed to send a JSON body (default 15 s, part 8). */
  jsonBodyTimeoutMs?: number;
  /** Time allowed to send a file body (default 120 s, part 8). */
  fileBodyTimeoutMs?: number;
}

export type ResolvedOptions = Required<Omit<SandboxOptions, 'dataDir'>> & { dataDir?: string };

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    agent: options.agent ?? 'auto',
    rateLimits: options.rateLimits ?? 'spec',
    dataDir: options.dataDir,
    agentDelaySeconds: options.agentDelaySeconds ?? 20,
    agentTickMs: options.agentTickMs ?? 250,
    passwordResetPadMs: options.passwordResetPadMs ?? 300,
    jsonBodyTimeoutMs: options.jsonBodyTimeoutMs ?? 15_000,
    fileBodyTimeoutMs: options.fileBodyTimeoutMs ?? 120_000,
  };
}
