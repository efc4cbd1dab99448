// The whole IPC surface between the console and the shell: four named channels, no generic
// invoke. The preload and the main-side handlers both import these names so they cannot drift.
export const SHELL_CHANNELS = {
  takeLoginToken: 'shell:take-login-token',
  saveFile: 'shell:save-file',
  openExternal: 'shell:open-external',
  appVersion: 'shell:app-version',
} as const;

export type ShellChannel = (typeof SHELL_CHANNELS)[keyof typeof SHELL_CHANNELS];

/**
 * The service URL reaches the preload as a command-line switch (webPreferences.additionalArguments)
 * because a sandboxed preload cannot read files or env, and a synchronous IPC call at startup would
 * be one more channel to guard.
 */
export const SERVICE_URL_ARG = '--service-url=';
