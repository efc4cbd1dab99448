// Feature flags REPORTING_ENABLED and REPORT_EXPORTS_ENABLED (account spec, "What the service
// does" 4): environment variables read on every call, so an operator's change applies to the
// next request; compose may pin them (tests). On unless set to 0, false, off or no.
export interface ReportFlags {
  reportingEnabled(): boolean;
  exportsEnabled(): boolean;
}

export interface FlagOverrides {
  reporting?: boolean;
  exports?: boolean;
}

function envFlag(name: string, env: NodeJS.ProcessEnv): boolean {
  const v = env[name];
  if (v === undefined || v.trim() === '') return true;
  return !['0', 'false', 'off', 'no'].includes(v.trim().toLowerCase());
}

/** The flags, plus pinning at run time (tests; an admin switch later). */
export interface ReportFlagSwitch extends ReportFlags {
  set(o: FlagOverrides): void;
}

export function createReportFlags(overrides: FlagOverrides = {}, env: NodeJS.ProcessEnv = process.env): ReportFlagSwitch {
  const pinned: FlagOverrides = { ...overrides };
  return {
    reportingEnabled: () => pinned.reporting ?? envFlag('REPORTING_ENABLED', env),
    // Exports are reports: with reporting off there is nothing to export.
    exportsEnabled: () => (pinned.reporting ?? envFlag('REPORTING_ENABLED', env)) && (pinned.exports ?? envFlag('REPORT_EXPORTS_ENABLED', env)),
    set(o: FlagOverrides) {
      Object.assign(pinned, o);
    },
  };
}
