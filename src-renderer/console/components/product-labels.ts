// The products and billable operations as an analyst reads them (verifications, reports).
import type { Billable } from '../../../src-shared/catalog';

export const PRODUCT_LABEL: Record<Billable, string> = {
  human: 'Liveness', age: 'Age', identity: 'Identity', compliance: 'KYC plus', screen: 'Screening', rescreen: 'Rescreen',
};
