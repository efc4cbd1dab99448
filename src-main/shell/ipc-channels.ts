// The whole IPC surface between the console and the shell: five named channels, no generic
// invoke. The preload and the main-side handlers both import these names so they cannot drift.
export const SHELL_CHANNELS = {
  takeLoginToken: 'shell:take-login-token',
  saveFile: 'shell:save-file',
  openExternal: 'shell:open-external',
  appVersion: 'shell:app-version',
  chooseServer: 'shell:choose-server',
} as const;

export type ShellChannel = (typeof SHELL_CHANNELS)[keyof typeof SHELL_CHANNELS];

/**
 * The service URL reaches the preload as a command-line switch (webPreferences.additionalArguments)
 * because a sandboxed preload cannot read files or env, and a synchronous IPC call at startup would
 * be one more channel to guard.
 */
export const SERVICE_URL_ARG = '--service-url=';

/** How the console's preload learns whether it shows this computer's service or a team server (a ShellConnection as JSON). */
export const CONNECTION_ARG = '--connection=';

/**
 * The "Run on this computer or connect to my team's server" page: its own origin (a privileged
 * scheme the shell serves from out/renderer), its own preload and these four channels, which
 * answer that origin only. It is shown before any service runs, so it cannot come from one.
 */
export const CONNECT_SCHEME = 'console-app';
export const CONNECT_ORIGIN = `${CONNECT_SCHEME}://connect`;
export const CONNECT_CHANNELS = {
  state: 'connect:state',
  probe: 'connect:probe',
  connect: 'connect:connect',
  runLocally: 'connect:run-locally',
} as const;
