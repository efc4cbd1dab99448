// The console's display preferences, kept in this window's localStorage: how dates are shown and
// how many rows a ledger page holds. UI state only: nothing about subjects, nothing the service
// needs (each analyst's console keeps its own).
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export const DATE_FORMATS = ['local', 'iso'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

interface Preferences {
  /** `local`: the system's medium style ("15 Jan 2026, 12:00"); `iso`: 2026-01-15 12:00. */
  dateFormat: DateFormat;
  /** Rows per page of the verification ledger. */
  pageSize: PageSize;
}

interface PreferencesState extends Preferences {
  set: (p: Partial<Preferences>) => void;
}

export const DEFAULT_PREFERENCES: Preferences = { dateFormat: 'local', pageSize: 100 };

export const usePreferences = create<PreferencesState>()(
  persist(
    (set) => ({ ...DEFAULT_PREFERENCES, set: (p) => set(p) }),
    {
      name: 'compliance-console.preferences',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ dateFormat: s.dateFormat, pageSize: s.pageSize }),
      // Anything unexpected in storage falls back to the default, value by value.
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<Record<keyof Preferences, unknown>>;
        return {
          ...current,
          ...((DATE_FORMATS as readonly unknown[]).includes(p.dateFormat) ? { dateFormat: p.dateFormat as DateFormat } : {}),
          ...((PAGE_SIZES as readonly unknown[]).includes(p.pageSize) ? { pageSize: p.pageSize as PageSize } : {}),
        };
      },
    },
  ),
);
