// Ordered list of migrations; a migration's version is its position + 1.
import type Database from 'better-sqlite3';
import * as m0001 from './0001-foundation';
import * as m0002 from './0002-webhooks';
import * as m0003 from './0003-review-audit';
import * as m0004 from './0004-hosted';
import * as m0005 from './0005-webhook-rotation';
import * as m0006 from './0006-age-gate';
import * as m0007 from './0007-published-flows';
import * as m0008 from './0008-team';
import * as m0012 from './0012-report-exports';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/**
 * Versions 9-11 belong to migrations made on parallel branches (issue 13); until they are merged
 * they are empty here, so that 0012 keeps its number. Replaced by the real files at the merge.
 */
function reserved(version: number): Migration {
  return { version, name: `reserved-${version}`, up() {} };
}

export const MIGRATIONS: Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, reserved(9), reserved(10), reserved(11), m0012];
