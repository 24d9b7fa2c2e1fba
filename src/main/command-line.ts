import type { App, UtilityProcess } from 'electron';
import { runCli } from '../cli/main';
import type { EngineProcess } from '../cli/engine-link';

export const CLI_SWITCH = '--cli';

/** The words after `--cli` when the app was started as the command line, or null. */
export function commandLineArgs(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(CLI_SWITCH);
  return at < 0 ? null : argv.slice(at + 1);
}

/**
 * The installed app as the `bountydesk` command (resources/cli launches `<app> --cli …`): no
 * window, no single-instance lock (the app's engine may be running: the command talks to it over
 * its socket), and an engine of its own started as a utility process when it is not, which is
 * Node under Electron's ABI (the app's native modules) without the RunAsNode fuse.
 */
export function runCommandLine(
  app: Pick<App, 'whenReady' | 'exit' | 'getPath' | 'getVersion'> & { dock?: { hide(): void } },
  fork: (entry: string) => UtilityProcess,
  engineEntry: string,
  args: string[],
): void {
  app.dock?.hide();
  void app
    .whenReady()
    .then(() =>
      runCli(
        args,
        {
          stdout: process.stdout,
          stderr: process.stderr,
          stdin: process.stdin,
          env: process.env,
          cwd: process.cwd(),
        },
        {
          engine: () => fork(engineEntry) as unknown as EngineProcess,
          version: app.getVersion(),
          userData: app.getPath('userData'),
        },
      ),
    )
    .then(
      (code) => app.exit(code),
      () => app.exit(1),
    );
}
