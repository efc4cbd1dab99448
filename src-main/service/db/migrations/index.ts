// Ordered list of migrations; a migration's version is its position + 1.
import type Database from 'better-sqlite3';
import type { Q } from '../engine';
import * as m0001 from './0001-foundation';
import * as m0002 from './0002-webhooks';
import * as m0003 from './0003-review-audit';
import * as m0004 from './0004-hosted';
import * as m0005 from './0005-webhook-rotation';
import * as m0006 from './0006-age-gate';
import * as m0007 from './0007-published-flows';
import * as m0008 from './0008-team';
import * as m0009 from './0009-accounts';
import * as m0010 from './0010-reports';
import * as m0011 from './0011-report-exports';
import * as m0012 from './0012-hosted-attempts';
import * as m0013 from './0013-list-freshness';
import * as m0014 from './0014-clearance-override';
import * as m0015 from './0015-age-gate-selfie-checks';
import * as m0016 from './0016-app-schemes-onsite';
import * as m0017 from './0017-export-storage-failure';
import * as m0018 from './0018-public-url';
import * as m0019 from './0019-batch-expiry';
import * as m0020 from './0020-audit-complete';
import * as m0021 from './0021-approval-queue';
import * as m0022 from './0022-ledger-search';
import * as m0023 from './0023-name-only-contradictions';
import * as m0024 from './0024-liveness-evidence';
import * as m0025 from './0025-reports-without-demo';
import * as m0026 from './0026-team-server';
import * as m0027 from './0027-export-leases';
import * as m0028 from './0028-rate-buckets';
import * as m0029 from './0029-shared-lists';
import * as m0030 from './0030-audit-values';
import * as m0031 from './0031-list-blob-parts';
import * as m0032 from './0032-credit-functions';
import * as m0033 from './0033-credit-checkpoint-only';

export interface Migration {
  version: number;
  name: string;
  /** SQLite (synchronous, inside the one transaction of all pending migrations). */
  up(db: Database.Database): void;
  /**
   * The same change on PostgreSQL (db/postgres/migrate.ts). Migrations up to the baseline
   * (db/postgres/baseline.ts, 26) have none: a PostgreSQL database starts at the baseline. Every
   * later migration needs one; `postgres-schema.test.ts` compares the two schemas it leaves.
   */
  postgres?(q: Q): Promise<void>;
}

export const MIGRATIONS: Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013, m0014, m0015, m0016, m0017, m0018, m0019, m0020, m0021, m0022, m0023, m0024, m0025, m0026, m0027, m0028, m0029, m0030, m0031, m0032, m0033];
