import type { Product } from '../../../../src-shared/catalog';

/** How the console describes each product scope; the chip shows the API's own scope name. */
export const SCOPE_INFO: Record<Product, { label: string; description: string }> = {
  human: { label: 'Liveness', description: 'Is a real person in front of the camera.' },
  age: { label: 'Age', description: 'Age estimation and age-gate checks.' },
  identity: { label: 'Identity', description: 'Identity document checks.' },
  compliance: { label: 'Compliance & screening', description: 'KYC plus and sanctions screening.' },
};
