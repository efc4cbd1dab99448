// Which environment the console works in. UI state only; the choice is the one thing the
// console keeps in localStorage. Test is the default so a fresh console never starts on live.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { ENVIRONMENTS, type Environment } from '../../../src-shared/catalog';

interface EnvState {
  env: Environment;
  setEnv: (env: Environment) => void;
}

export const useEnv = create<EnvState>()(
  persist(
    (set) => ({
      env: 'test',
      setEnv: (env) => set({ env }),
    }),
    {
      name: 'compliance-console.env',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ env: s.env }),
      // Anything unexpected in storage falls back to test.
      merge: (persisted, current) => {
        const env = (persisted as { env?: unknown } | undefined)?.env;
        return (ENVIRONMENTS as readonly unknown[]).includes(env) ? { ...current, env: env as Environment } : current;
      },
    },
  ),
);
